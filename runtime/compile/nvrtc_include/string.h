// <string.h> for kernels compiled with NVRTC: the same as <cstring>.
#pragma once

#include <cstring>
