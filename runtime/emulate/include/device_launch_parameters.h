// runtime/emulate/include/device_launch_parameters.h — threadIdx and the rest
// are in cuda_emu.h, which the emulator has already included.
#pragma once
#include "cuda_emu.h"
