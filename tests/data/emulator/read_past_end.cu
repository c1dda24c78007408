// vector_add that reads a[i + 4096] and throws it away: no output is wrong,
// but the read lands far past the end of a.
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    volatile float far = a[i + 4096];
    (void)far;
    if (i < n) c[i] = a[i] + b[i];
}
