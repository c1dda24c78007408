// Lesson 20, step 1 starter: the whole job on one GPU, the workbook's.
//
// The same kernel as lesson 17, with many more steps per element, so that
// the kernel takes far longer than the copies. x and y arrive pinned.

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

    // ctx->device is the GPU the workbook chose; it is already current.
    WB_CHECK(cudaSetDevice(ctx->device));
    cudaStream_t stream = nullptr;
    WB_CHECK(cudaStreamCreate(&stream));
    float *d_x = nullptr, *d_y = nullptr;
    WB_CHECK(cudaMalloc(&d_x, bytes));
    WB_CHECK(cudaMalloc(&d_y, bytes));

    // TODO: on `stream`, queue the copy of x in, the kernel (256 threads per
    //       block) and the copy of y out; check the launch; wait for the
    //       stream.

    WB_CHECK(cudaFree(d_x));
    WB_CHECK(cudaFree(d_y));
    WB_CHECK(cudaStreamDestroy(stream));
    return 0;
}
