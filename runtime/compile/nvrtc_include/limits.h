// <limits.h> for kernels compiled with NVRTC: the same as <climits>.
#pragma once

#include <climits>
