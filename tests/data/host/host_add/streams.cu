// c = a + b in chunks on four streams, so copies overlap the kernels.
__global__ void add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" int run(wb_host_ctx* ctx)
{
    const float* a = wb_buffer<float>(ctx, "a");
    const float* b = wb_buffer<float>(ctx, "b");
    float* c = wb_buffer<float>(ctx, "c");
    if (!a || !b || !c) return 1;
    const int n = wb_param_int(ctx, "N");
    const int kStreams = 4;
    const int chunk = (n + kStreams - 1) / kStreams;
    float *da, *db, *dc;
    WB_CHECK(cudaMalloc(&da, size_t(n) * sizeof(float)));
    WB_CHECK(cudaMalloc(&db, size_t(n) * sizeof(float)));
    WB_CHECK(cudaMalloc(&dc, size_t(n) * sizeof(float)));
    cudaStream_t s[kStreams];
    for (int k = 0; k < kStreams; ++k) WB_CHECK(cudaStreamCreate(&s[k]));
    for (int k = 0; k < kStreams; ++k) {
        const int first = k * chunk;
        const int count = first + chunk <= n ? chunk : n - first;
        if (count <= 0) break;
        const size_t bytes = size_t(count) * sizeof(float);
        WB_CHECK(cudaMemcpyAsync(da + first, a + first, bytes, cudaMemcpyHostToDevice, s[k]));
        WB_CHECK(cudaMemcpyAsync(db + first, b + first, bytes, cudaMemcpyHostToDevice, s[k]));
        add<<<(count + 255) / 256, 256, 0, s[k]>>>(da + first, db + first, dc + first, count);
        WB_CHECK(cudaGetLastError());
        WB_CHECK(cudaMemcpyAsync(c + first, dc + first, bytes, cudaMemcpyDeviceToHost, s[k]));
    }
    for (int k = 0; k < kStreams; ++k) {
        WB_CHECK(cudaStreamSynchronize(s[k]));
        WB_CHECK(cudaStreamDestroy(s[k]));
    }
    WB_CHECK(cudaFree(da));
    WB_CHECK(cudaFree(db));
    WB_CHECK(cudaFree(dc));
    return 0;
}
