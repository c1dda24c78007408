// Lesson 18, step 1 starter: REPEATS x NSTAGES small kernels, launched one
// by one on a stream.
//
// Stage k is one round of an integer hash over every element of v. The
// kernels are tiny on purpose: each one is over in a few microseconds, about
// as long as it takes the CPU to launch it.

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

    // TODO: REPEATS times, run stages 0, 1, ..., NSTAGES-1 in that order
    //       over d_v, each one a launch of `stage` on `stream`. Check every
    //       launch.

    WB_CHECK(cudaMemcpyAsync(y, d_v, bytes, cudaMemcpyDeviceToHost, stream));
    WB_CHECK(cudaStreamSynchronize(stream));
    WB_CHECK(cudaFree(d_v));
    WB_CHECK(cudaStreamDestroy(stream));
    return 0;
}
