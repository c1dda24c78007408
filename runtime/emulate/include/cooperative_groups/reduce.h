// runtime/emulate/include/cooperative_groups/reduce.h — cg::reduce and cg::inclusive_scan, for emulated kernels.
// They live in cooperative_groups.h (one file fewer to ship); this is where CUDA's code includes them from.
#pragma once
#include "../cooperative_groups.h"
