// Lesson 20, step 1 solution: the whole job on the workbook's GPU.

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
    const size_t bytes = (size_t)n * sizeof(float);

    WB_CHECK(cudaSetDevice(ctx->device));
    cudaStream_t stream = nullptr;
    WB_CHECK(cudaStreamCreate(&stream));
    float *d_x = nullptr, *d_y = nullptr;
    WB_CHECK(cudaMalloc(&d_x, bytes));
    WB_CHECK(cudaMalloc(&d_y, bytes));

    WB_CHECK(cudaMemcpyAsync(d_x, x, bytes, cudaMemcpyHostToDevice, stream));
    const int block = 256;
    charge<<<(n + block - 1) / block, block, 0, stream>>>(d_x, d_y, n, iters);
    WB_CHECK(cudaGetLastError());
    WB_CHECK(cudaMemcpyAsync(y, d_y, bytes, cudaMemcpyDeviceToHost, stream));
    WB_CHECK(cudaStreamSynchronize(stream));

    WB_CHECK(cudaFree(d_x));
    WB_CHECK(cudaFree(d_y));
    WB_CHECK(cudaStreamDestroy(stream));
    return 0;
}
