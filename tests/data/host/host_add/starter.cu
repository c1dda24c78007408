// c = a + b: the kernel is written; the host code is yours.
__global__ void add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" int run(wb_host_ctx* ctx)
{
    // TODO: allocate device memory, copy a and b in, launch add, copy c back, free.
    return 0;
}
