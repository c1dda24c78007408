// A kernel that never ends.
__global__ void forever(const float* a, float* c)
{
    while (a[0] == a[0]) {}
    c[0] = 0;
}

extern "C" int run(wb_host_ctx* ctx)
{
    float *da, *dc;
    WB_CHECK(cudaMalloc(&da, 4096));
    WB_CHECK(cudaMalloc(&dc, 4096));
    WB_CHECK(cudaMemset(da, 0, 4096));
    forever<<<1, 1>>>(da, dc);
    WB_CHECK(cudaDeviceSynchronize());
    cudaFree(da);
    cudaFree(dc);
    return 0;
}
