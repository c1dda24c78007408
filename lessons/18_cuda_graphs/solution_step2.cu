// Lesson 18, step 2 solution: one pass captured into a CUDA graph, launched
// REPEATS times.
//
// Capture records the NSTAGES launches without running them. Instantiation
// checks the graph and prepares every launch once; each cudaGraphLaunch
// then hands the GPU the whole pass in one call, and the GPU starts each
// kernel as soon as the one before ends. The timeline shows the kernels
// back to back, marked as launched from a graph.

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
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t graph_exec = nullptr;

    // ThreadLocal: only this thread's calls are restricted while capturing
    // (Global would also stop other threads of the process from calling,
    // say, cudaMalloc until the capture ends).
    WB_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    for (int k = 0; k < nstages; ++k) {
        stage<<<grid, block, 0, stream>>>(d_v, n, (unsigned)k);  // recorded, not run
        WB_CHECK(cudaGetLastError());
    }
    WB_CHECK(cudaStreamEndCapture(stream, &graph));
    WB_CHECK(cudaGraphInstantiate(&graph_exec, graph, 0));

    for (int r = 0; r < repeats; ++r) WB_CHECK(cudaGraphLaunch(graph_exec, stream));

    WB_CHECK(cudaMemcpyAsync(y, d_v, bytes, cudaMemcpyDeviceToHost, stream));
    WB_CHECK(cudaStreamSynchronize(stream));

    WB_CHECK(cudaGraphExecDestroy(graph_exec));
    WB_CHECK(cudaGraphDestroy(graph));
    WB_CHECK(cudaFree(d_v));
    WB_CHECK(cudaStreamDestroy(stream));
    return 0;
}
