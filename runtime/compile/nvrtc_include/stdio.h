// <stdio.h> for kernels compiled with NVRTC: printf is built into device
// code, so the header only has to exist.
#pragma once
