// <stdint.h> for kernels compiled with NVRTC: the same as <cstdint>.
#pragma once

#include <cstdint>
