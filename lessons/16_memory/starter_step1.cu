// Lesson 16, step 1 starter: z = alpha * x + y on the GPU, host code included.
//
// The workbook calls run() with the lesson's buffers in ordinary (pageable)
// host memory: x and y filled, z poisoned. run() must get x and y to the GPU,
// launch the kernel, bring z back, free what it allocated, and return 0.
// WB_CHECK(call) stops run() with the call's line and CUDA's error name when
// a call fails.

__global__ void saxpy(const float* x, const float* y, float* z, float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = alpha * x[i] + y[i];
}

extern "C" int run(wb_host_ctx* ctx)
{
    const float* x = wb_buffer<float>(ctx, "x");  // host memory, N floats each
    const float* y = wb_buffer<float>(ctx, "y");
    float* z = wb_buffer<float>(ctx, "z");
    if (!x || !y || !z) return 1;  // ctx->error names the missing buffer
    const int n = wb_param_int(ctx, "N");
    const float alpha = (float)wb_param(ctx, "alpha");
    const size_t bytes = (size_t)n * sizeof(float);

    // Device memory: the kernel can only read and write these.
    float *d_x = nullptr, *d_y = nullptr, *d_z = nullptr;
    WB_CHECK(cudaMalloc(&d_x, bytes));
    WB_CHECK(cudaMalloc(&d_y, bytes));
    WB_CHECK(cudaMalloc(&d_z, bytes));

    // TODO 1: copy the inputs from host memory (x, y) into device memory.

    // TODO 2: launch saxpy with 256 threads per block and enough blocks to
    //         cover n elements, then ask CUDA whether the launch worked (a
    //         launch returns no error code of its own).

    // TODO 3: copy the result from device memory into the output z.

    WB_CHECK(cudaFree(d_x));
    WB_CHECK(cudaFree(d_y));
    WB_CHECK(cudaFree(d_z));
    return 0;
}
