// <stddef.h> for kernels compiled with NVRTC: the same as <cstddef>.
#pragma once

#include <cstddef>
