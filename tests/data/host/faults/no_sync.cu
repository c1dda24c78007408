// Returns while a kernel is still running on its stream.
__global__ void spin(float* c, int n, long long cycles)
{
    long long start = clock64();
    while (clock64() - start < cycles) {}
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = 0;
}

extern "C" int run(wb_host_ctx* ctx)
{
    const int n = wb_param_int(ctx, "N");
    cudaStream_t s;
    WB_CHECK(cudaStreamCreate(&s));
    float* dc;
    WB_CHECK(cudaMallocAsync(&dc, size_t(n) * sizeof(float), s));
    spin<<<1, 32, 0, s>>>(dc, n, 200000000LL);
    WB_CHECK(cudaFreeAsync(dc, s));
    return 0;
}
