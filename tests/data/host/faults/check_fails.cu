// Asks for a petabyte: WB_CHECK reports the call, its line and CUDA's reason.
extern "C" int run(wb_host_ctx* ctx)
{
    float* d;
    WB_CHECK(cudaMalloc(&d, size_t(1) << 50));
    cudaFree(d);
    return 0;
}
