// Lesson 16, step 2 starter: the same SAXPY, with the copies made from
// pinned (page-locked) host memory by cudaMemcpyAsync on a stream.
//
// The lesson's buffers x, y and z are still pageable. Stage them through
// pinned buffers of your own: the GPU's copy engines can read and write
// pinned memory directly, at the full speed of the PCIe link.

#include <string.h>  // memcpy

__global__ void saxpy(const float* x, const float* y, float* z, float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = alpha * x[i] + y[i];
}

extern "C" int run(wb_host_ctx* ctx)
{
    const float* x = wb_buffer<float>(ctx, "x");
    const float* y = wb_buffer<float>(ctx, "y");
    float* z = wb_buffer<float>(ctx, "z");
    if (!x || !y || !z) return 1;
    const int n = wb_param_int(ctx, "N");
    const float alpha = (float)wb_param(ctx, "alpha");
    const size_t bytes = (size_t)n * sizeof(float);

    float *d_x = nullptr, *d_y = nullptr, *d_z = nullptr;
    WB_CHECK(cudaMalloc(&d_x, bytes));
    WB_CHECK(cudaMalloc(&d_y, bytes));
    WB_CHECK(cudaMalloc(&d_z, bytes));

    // A stream: a queue of GPU work that runs in the order it was queued.
    cudaStream_t stream = nullptr;
    WB_CHECK(cudaStreamCreate(&stream));

    // TODO 1: allocate three pinned host buffers of `bytes` each, and copy
    //         x and y into the first two (an ordinary CPU memcpy).

    // TODO 2: on `stream`, queue: the two copies from the pinned buffers to
    //         d_x and d_y, the kernel, and the copy of d_z into the third
    //         pinned buffer. Each of these calls returns at once.

    // TODO 3: the result is only in pinned memory once the stream has
    //         finished. Wait for it, then copy the result into z.

    // TODO 4: free the pinned buffers. Pinned memory that is never freed
    //         stays locked in RAM, and the workbook fails the run.

    WB_CHECK(cudaStreamDestroy(stream));
    WB_CHECK(cudaFree(d_x));
    WB_CHECK(cudaFree(d_y));
    WB_CHECK(cudaFree(d_z));
    return 0;
}
