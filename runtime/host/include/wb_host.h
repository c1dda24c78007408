// wb_host.h — what CUDA Workbook hands the run() of a host step.
//
// A host step is a whole CUDA C++ file: kernels, and the host function
//
//     extern "C" int run(wb_host_ctx* ctx);
//
// which the workbook calls in its worker process once per run. `ctx` holds
// the lesson's buffers as host memory (inputs filled, outputs poisoned) and
// its params. run() allocates device memory, copies, launches and copies
// the results back into the output buffers, frees what it allocated, and
// returns 0 once every result is in host memory. Any other return value, or
// a message left by WB_CHECK, fails the run with that message.
//
// The workbook compiles this file with the toolkit's nvcc (-shared, the
// GPU's own sm_XX, the shared cudart; -lcublas when the lesson asks) and
// includes this header first. docs/lesson-format.md describes host steps.
#pragma once

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define WB_HOST_ABI 1

// Element types, as the lesson writes them.
typedef enum wb_dtype { WB_U8 = 0, WB_I32 = 1, WB_U32 = 2, WB_F32 = 3, WB_F64 = 4, WB_F16 = 5 } wb_dtype;

typedef struct wb_host_buffer {
    const char* name;        // as in the lesson: "a", "out"
    void* data;              // host memory, `bytes` long
    size_t count;            // elements
    size_t bytes;
    wb_dtype dtype;
    int rank;                // dimensions in `shape`, outermost first
    long long shape[4];
    int is_output;           // 1 for outputs and in-outs
} wb_host_buffer;

typedef struct wb_host_ctx {
    int abi;                 // WB_HOST_ABI
    int device;              // the GPU the workbook runs on; current when run() is called
    int buffer_count;
    const wb_host_buffer* buffers;
    int param_count;
    const char* const* param_names;
    const double* param_values;
    char error[1024];        // why run() failed, written by wb_fail and WB_CHECK
} wb_host_ctx;

#ifdef __cplusplus
extern "C" {
#endif
int run(wb_host_ctx* ctx);
#ifdef __cplusplus
}
#endif

// Records why run() fails and returns 1, so `return wb_fail(ctx, ...)` ends it.
static inline int wb_fail(wb_host_ctx* ctx, const char* file, int line, const char* what) {
    if (ctx->error[0] == 0) snprintf(ctx->error, sizeof ctx->error, "%s:%d: %s", file, line, what);
    return 1;
}

// Checks a CUDA runtime call; on an error, records the call, its line and
// the error's name and text, and returns 1 from run().
#define WB_CHECK(call)                                                                                       \
    do {                                                                                                     \
        cudaError_t wb_err_ = (call);                                                                        \
        if (wb_err_ != cudaSuccess) {                                                                        \
            char wb_what_[768];                                                                              \
            snprintf(wb_what_, sizeof wb_what_, "%s failed: %s (%s)", #call, cudaGetErrorName(wb_err_),      \
                     cudaGetErrorString(wb_err_));                                                           \
            return wb_fail(ctx, __FILE__, __LINE__, wb_what_);                                               \
        }                                                                                                    \
    } while (0)

// The buffer named `name`, or NULL with ctx->error set.
static inline wb_host_buffer* wb_find_buffer(wb_host_ctx* ctx, const char* name) {
    for (int i = 0; i < ctx->buffer_count; ++i)
        if (strcmp(ctx->buffers[i].name, name) == 0) return (wb_host_buffer*)&ctx->buffers[i];
    if (ctx->error[0] == 0) snprintf(ctx->error, sizeof ctx->error, "the lesson has no buffer '%s'", name);
    return NULL;
}

// A param's value; 0 with ctx->error set when the lesson has no such param.
static inline double wb_param(wb_host_ctx* ctx, const char* name) {
    for (int i = 0; i < ctx->param_count; ++i)
        if (strcmp(ctx->param_names[i], name) == 0) return ctx->param_values[i];
    if (ctx->error[0] == 0) snprintf(ctx->error, sizeof ctx->error, "the lesson has no param '%s'", name);
    return 0;
}

static inline int wb_param_int(wb_host_ctx* ctx, const char* name) { return (int)wb_param(ctx, name); }

#ifdef __cplusplus
template <class T> struct wb_dtype_of;
template <> struct wb_dtype_of<unsigned char> { static const wb_dtype value = WB_U8; };
template <> struct wb_dtype_of<int> { static const wb_dtype value = WB_I32; };
template <> struct wb_dtype_of<unsigned> { static const wb_dtype value = WB_U32; };
template <> struct wb_dtype_of<float> { static const wb_dtype value = WB_F32; };
template <> struct wb_dtype_of<double> { static const wb_dtype value = WB_F64; };

// The host memory of buffer `name` as T*: NULL, with ctx->error set, when
// there is no such buffer or its elements are not T.
//     const float* a = wb_buffer<float>(ctx, "a");
template <class T> static inline T* wb_buffer(wb_host_ctx* ctx, const char* name) {
    wb_host_buffer* b = wb_find_buffer(ctx, name);
    if (!b) return NULL;
    if (b->dtype != wb_dtype_of<T>::value) {
        if (ctx->error[0] == 0)
            snprintf(ctx->error, sizeof ctx->error, "buffer '%s' does not hold the element type asked for", name);
        return NULL;
    }
    return (T*)b->data;
}

// The number of elements of buffer `name` (0 when there is none).
static inline size_t wb_count(wb_host_ctx* ctx, const char* name) {
    wb_host_buffer* b = wb_find_buffer(ctx, name);
    return b ? b->count : 0;
}
#endif
