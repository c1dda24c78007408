// Lesson 18, step 2 starter: the NSTAGES launches captured once into a CUDA
// graph, and the graph launched REPEATS times.
//
// While a stream is being captured, the work queued on it does not run: it
// is recorded as the nodes of a graph. An instantiated graph is launched
// with one call, and the GPU runs its kernels one after another without
// waiting for the CPU between them.

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
    cudaGraph_t graph = nullptr;          // what was recorded
    cudaGraphExec_t graph_exec = nullptr;  // the same, ready to launch

    // TODO 1: record one pass of stages 0 ... NSTAGES-1 on `stream` into
    //         `graph`: start capturing the stream, launch the stages as in
    //         step 1, stop capturing.

    // TODO 2: turn `graph` into `graph_exec`, which can be launched.

    for (int r = 0; r < repeats; ++r) {
        // TODO 3: launch the graph on `stream`.
    }

    WB_CHECK(cudaMemcpyAsync(y, d_v, bytes, cudaMemcpyDeviceToHost, stream));
    WB_CHECK(cudaStreamSynchronize(stream));

    // TODO 4: destroy graph_exec and graph.

    WB_CHECK(cudaFree(d_v));
    WB_CHECK(cudaStreamDestroy(stream));
    return 0;
}
