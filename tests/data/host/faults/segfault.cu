// Reads a device pointer on the host.
extern "C" int run(wb_host_ctx* ctx)
{
    float* dc;
    WB_CHECK(cudaMalloc(&dc, 4096));
    float* c = wb_buffer<float>(ctx, "c");
    c[0] = dc[0];
    cudaFree(dc);
    return 0;
}
