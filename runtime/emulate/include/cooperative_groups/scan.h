// runtime/emulate/include/cooperative_groups/scan.h — cg::inclusive_scan, for emulated kernels (in cooperative_groups.h).
#pragma once
#include "../cooperative_groups.h"
