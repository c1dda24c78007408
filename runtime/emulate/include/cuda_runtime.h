// runtime/emulate/include/cuda_runtime.h — the toolkit header, for emulated kernels.
// Everything a kernel uses from it (dim3, vector types, atomics, intrinsics)
// is in cuda_emu.h, which the emulator has already included.
#pragma once
#include "cuda_emu.h"
