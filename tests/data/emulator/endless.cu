// vector_add that never ends: thread 0 waits for a flag nobody sets.
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    volatile int stop = 0;
    while (i == 0 && !stop) {}
    if (i < n) c[i] = a[i] + b[i];
}
