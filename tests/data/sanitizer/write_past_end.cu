// vector_add whose reads stay in bounds but whose write goes one past the end: thread n writes c[n].
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) c[i] = (i < n) ? a[i] + b[i] : 0.0f;
}
