// <stdlib.h> for kernels compiled with NVRTC: the same as <cstdlib>.
#pragma once

#include <cstdlib>
