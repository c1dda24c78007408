// Lesson 17, step 2 solution: CHUNKS chunks over NSTREAMS streams.
//
// Chunk c goes to stream c % NSTREAMS. Within a stream its copy in, kernel
// and copy out run in order; across streams the GPU runs them at the same
// time where it can: the host-to-device copy of one chunk on one copy
// engine, the kernel of another on the SMs, and the device-to-host copy of
// a third on the other copy engine. That needs pinned host memory (the
// lesson pins x and y) and a stream on every call.

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

extern "C" int run(wb_host_ctx* ctx)
{
    const float* x = wb_buffer<float>(ctx, "x");
    float* y = wb_buffer<float>(ctx, "y");
    if (!x || !y) return 1;
    const int n = wb_param_int(ctx, "N");
    const int iters = wb_param_int(ctx, "ITERS");
    const int nstreams = wb_param_int(ctx, "NSTREAMS");
    const int chunks = wb_param_int(ctx, "CHUNKS");
    const size_t bytes = (size_t)n * sizeof(float);

    std::vector<cudaStream_t> streams(nstreams);
    for (auto& s : streams) WB_CHECK(cudaStreamCreate(&s));
    float *d_x = nullptr, *d_y = nullptr;
    WB_CHECK(cudaMalloc(&d_x, bytes));
    WB_CHECK(cudaMalloc(&d_y, bytes));

    const int chunk = (n + chunks - 1) / chunks;  // ceil_div(n, chunks)
    const int block = 256;
    for (int c = 0; c < chunks; ++c) {
        const int begin = c * chunk;
        if (begin >= n) break;                        // small n: no elements left
        const int count = std::min(chunk, n - begin);  // the last chunk may be short
        cudaStream_t s = streams[c % nstreams];
        const size_t chunk_bytes = (size_t)count * sizeof(float);
        WB_CHECK(cudaMemcpyAsync(d_x + begin, x + begin, chunk_bytes, cudaMemcpyHostToDevice, s));
        charge<<<(count + block - 1) / block, block, 0, s>>>(d_x + begin, d_y + begin, count, iters);
        WB_CHECK(cudaGetLastError());
        WB_CHECK(cudaMemcpyAsync(y + begin, d_y + begin, chunk_bytes, cudaMemcpyDeviceToHost, s));
    }
    for (auto& s : streams) WB_CHECK(cudaStreamSynchronize(s));

    WB_CHECK(cudaFree(d_x));
    WB_CHECK(cudaFree(d_y));
    for (auto& s : streams) WB_CHECK(cudaStreamDestroy(s));
    return 0;
}
