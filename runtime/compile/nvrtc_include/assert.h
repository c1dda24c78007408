// <assert.h> for kernels compiled with NVRTC: assert is built into device
// code, so the header only has to exist.
#pragma once
