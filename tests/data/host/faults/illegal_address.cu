// The kernel writes far past the end of its buffer.
__global__ void add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i + (1 << 28)] = a[i] + b[i];
}

extern "C" int run(wb_host_ctx* ctx)
{
    const int n = wb_param_int(ctx, "N");
    const size_t bytes = size_t(n) * sizeof(float);
    float *da, *db, *dc;
    WB_CHECK(cudaMalloc(&da, bytes));
    WB_CHECK(cudaMalloc(&db, bytes));
    WB_CHECK(cudaMalloc(&dc, bytes));
    add<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    cudaDeviceSynchronize();
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    return 0;
}
