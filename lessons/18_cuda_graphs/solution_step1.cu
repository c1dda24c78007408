// Lesson 18, step 1 solution: REPEATS x NSTAGES launches, one by one.
//
// Every <<<>>> is a call into the CUDA runtime and the driver, which checks
// the arguments and writes a launch command into the stream's queue. That
// costs the CPU a few microseconds per launch, about as long as one of these
// kernels runs, so the GPU keeps waiting for the next command: the timeline
// shows a gap before most kernels.

__global__ void stage(unsigned* v, int n, unsigned k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned h = v[i];
    h ^= h >> 16;
    h *= 0x7feb352du + 2u * k;  // odd, so the round is one-to-one
    h += k;
    v[i] = h;
}

extern "C" int run(wb_host_ctx* ctx)
{
    const unsigned* x = wb_buffer<unsigned>(ctx, "x");
    unsigned* y = wb_buffer<unsigned>(ctx, "y");
    if (!x || !y) return 1;
    const int n = wb_param_int(ctx, "N");
    const int nstages = wb_param_int(ctx, "NSTAGES");
    const int repeats = wb_param_int(ctx, "REPEATS");
    const size_t bytes = (size_t)n * sizeof(unsigned);

    cudaStream_t stream = nullptr;
    WB_CHECK(cudaStreamCreate(&stream));
    unsigned* d_v = nullptr;
    WB_CHECK(cudaMalloc(&d_v, bytes));
    WB_CHECK(cudaMemcpyAsync(d_v, x, bytes, cudaMemcpyHostToDevice, stream));

    const int block = 256;
    const int grid = (n + block - 1) / block;
    for (int r = 0; r < repeats; ++r) {
        for (int k = 0; k < nstages; ++k) {
            stage<<<grid, block, 0, stream>>>(d_v, n, (unsigned)k);
            WB_CHECK(cudaGetLastError());
        }
    }

    WB_CHECK(cudaMemcpyAsync(y, d_v, bytes, cudaMemcpyDeviceToHost, stream));
    WB_CHECK(cudaStreamSynchronize(stream));
    WB_CHECK(cudaFree(d_v));
    WB_CHECK(cudaStreamDestroy(stream));
    return 0;
}
