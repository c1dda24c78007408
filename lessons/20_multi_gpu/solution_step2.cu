// Lesson 20, step 2 solution: one contiguous slice per visible GPU.
//
// The first loop only queues work: cudaMemcpyAsync from pinned memory and
// the launch return at once, so GPU 1 starts a few microseconds after
// GPU 0 and the GPUs then run side by side. The second loop waits for each
// GPU and frees its memory. With one GPU the split has one part and this is
// step 1. The timeline shows one lane per GPU.

#include <algorithm>
#include <vector>

__global__ void charge(const float* x, float* y, int n, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float b = 1.0f / (float)iters;
    const float a = 1.0f - b;
    const float c = x[i] * b;
    float v = 0.0f;
    for (int k = 0; k < iters; ++k) v = fmaf(v, a, c);  // v += (x - v) / iters
    y[i] = v;
}

struct Part {
    int begin = 0, count = 0;
    cudaStream_t stream = nullptr;
    float* d_x = nullptr;
    float* d_y = nullptr;
};

extern "C" int run(wb_host_ctx* ctx)
{
    const float* x = wb_buffer<float>(ctx, "x");
    float* y = wb_buffer<float>(ctx, "y");
    if (!x || !y) return 1;
    const int n = wb_param_int(ctx, "N");
    const int iters = wb_param_int(ctx, "ITERS");

    int gpus = 0;
    WB_CHECK(cudaGetDeviceCount(&gpus));
    std::vector<Part> parts(gpus);

    const int per = (n + gpus - 1) / gpus;  // ceil_div(n, gpus)
    const int block = 256;
    for (int d = 0; d < gpus; ++d) {
        Part& p = parts[d];
        p.begin = std::min(d * per, n);
        p.count = std::min(per, n - p.begin);  // 0 when n < gpus runs out
        if (p.count == 0) continue;
        const size_t bytes = (size_t)p.count * sizeof(float);

        WB_CHECK(cudaSetDevice(d));  // everything below acts on GPU d
        WB_CHECK(cudaStreamCreate(&p.stream));
        WB_CHECK(cudaMalloc(&p.d_x, bytes));
        WB_CHECK(cudaMalloc(&p.d_y, bytes));
        WB_CHECK(cudaMemcpyAsync(p.d_x, x + p.begin, bytes, cudaMemcpyHostToDevice, p.stream));
        charge<<<(p.count + block - 1) / block, block, 0, p.stream>>>(p.d_x, p.d_y, p.count, iters);
        WB_CHECK(cudaGetLastError());
        WB_CHECK(cudaMemcpyAsync(y + p.begin, p.d_y, bytes, cudaMemcpyDeviceToHost, p.stream));
    }

    for (int d = 0; d < gpus; ++d) {
        Part& p = parts[d];
        if (p.count == 0) continue;
        WB_CHECK(cudaSetDevice(d));
        WB_CHECK(cudaStreamSynchronize(p.stream));
        WB_CHECK(cudaFree(p.d_x));
        WB_CHECK(cudaFree(p.d_y));
        WB_CHECK(cudaStreamDestroy(p.stream));
    }

    WB_CHECK(cudaSetDevice(ctx->device));
    return 0;
}
