// Lesson 16, step 1 solution: z = alpha * x + y with plain cudaMemcpy from
// pageable host memory.
//
// cudaMemcpy from pageable memory is synchronous: the driver copies the data
// piece by piece through a pinned staging buffer of its own, and the call
// returns once the whole copy is done. The copy back to z also waits for the
// kernel, because both run in order on the default stream.

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

    WB_CHECK(cudaMemcpy(d_x, x, bytes, cudaMemcpyHostToDevice));
    WB_CHECK(cudaMemcpy(d_y, y, bytes, cudaMemcpyHostToDevice));

    const int block = 256;
    const int grid = (n + block - 1) / block;  // ceil_div(n, block)
    saxpy<<<grid, block>>>(d_x, d_y, d_z, alpha, n);
    WB_CHECK(cudaGetLastError());  // a bad launch configuration shows up here

    // Waits for the kernel (same stream), then for the copy itself.
    WB_CHECK(cudaMemcpy(z, d_z, bytes, cudaMemcpyDeviceToHost));

    WB_CHECK(cudaFree(d_x));
    WB_CHECK(cudaFree(d_y));
    WB_CHECK(cudaFree(d_z));
    return 0;
}
