// <float.h> for kernels compiled with NVRTC: the same as <cfloat>.
#pragma once

#include <cfloat>
