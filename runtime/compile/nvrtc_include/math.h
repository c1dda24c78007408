// <math.h> for kernels compiled with NVRTC: the same as <cmath> (the CUDA
// math functions are already global in device code).
#pragma once

#include <cmath>
