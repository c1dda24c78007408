// runtime/emulate/include/assert.h — keeps cuda_emu.h's assert when a kernel
// includes <assert.h>: the C library's would abort the whole worker, while this one
// ends the launch as a fault with the expression, the file and the line.
// No include guard, like the standard header: each inclusion defines assert again.
#include "cuda_emu.h"
#undef assert
#define assert(e) \
    (static_cast<bool>(e) ? static_cast<void>(0) : wb_emu::trap("Assertion `" #e "` failed.", __FILE__, __LINE__))
