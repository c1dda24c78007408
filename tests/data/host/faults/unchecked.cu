// Launches 2048 threads per block (over the limit of 1024) and never asks whether the launch worked.
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
    const int n = wb_param_int(ctx, "N");
    const size_t bytes = size_t(n) * sizeof(float);
    float *da, *db, *dc;
    WB_CHECK(cudaMalloc(&da, bytes));
    WB_CHECK(cudaMalloc(&db, bytes));
    WB_CHECK(cudaMalloc(&dc, bytes));
    WB_CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
    WB_CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
    add<<<(n + 2047) / 2048, 2048>>>(da, db, dc, n);
    cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    return 0;
}
