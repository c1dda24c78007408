// Lesson 16, step 2 solution: SAXPY with the copies made from pinned host
// memory by cudaMemcpyAsync on a stream.
//
// The lesson's buffers are pageable, so the data is staged through pinned
// buffers allocated with cudaMallocHost: a CPU memcpy into them (not on the
// GPU's timeline), then DMA copies at the link's full speed. This is what
// PyTorch's x.pin_memory() followed by x.to("cuda", non_blocking=True) does.
// Pinning costs time of its own, so a real program allocates these buffers
// once and reuses them; run() pays for it on every call, which shows in its
// wall time. cudaHostRegister on x, y and z would pin them in place instead
// (and cudaHostUnregister before returning); both pass.

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

    cudaStream_t stream = nullptr;
    WB_CHECK(cudaStreamCreate(&stream));

    // Pinned staging buffers: page-locked, so the copy engines can reach them.
    float *h_x = nullptr, *h_y = nullptr, *h_z = nullptr;
    WB_CHECK(cudaMallocHost(&h_x, bytes));
    WB_CHECK(cudaMallocHost(&h_y, bytes));
    WB_CHECK(cudaMallocHost(&h_z, bytes));
    memcpy(h_x, x, bytes);
    memcpy(h_y, y, bytes);

    // Queued in order on one stream; every call returns at once.
    WB_CHECK(cudaMemcpyAsync(d_x, h_x, bytes, cudaMemcpyHostToDevice, stream));
    WB_CHECK(cudaMemcpyAsync(d_y, h_y, bytes, cudaMemcpyHostToDevice, stream));
    const int block = 256;
    const int grid = (n + block - 1) / block;
    saxpy<<<grid, block, 0, stream>>>(d_x, d_y, d_z, alpha, n);
    WB_CHECK(cudaGetLastError());
    WB_CHECK(cudaMemcpyAsync(h_z, d_z, bytes, cudaMemcpyDeviceToHost, stream));

    // Until the stream is done, h_z holds whatever it held before.
    WB_CHECK(cudaStreamSynchronize(stream));
    memcpy(z, h_z, bytes);

    WB_CHECK(cudaFreeHost(h_x));
    WB_CHECK(cudaFreeHost(h_y));
    WB_CHECK(cudaFreeHost(h_z));
    WB_CHECK(cudaStreamDestroy(stream));
    WB_CHECK(cudaFree(d_x));
    WB_CHECK(cudaFree(d_y));
    WB_CHECK(cudaFree(d_z));
    return 0;
}
