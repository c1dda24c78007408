// A block-wide accumulator in dynamic shared memory, in a step whose launch
// asks for none: every access is past the end of its 0 bytes.
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    extern __shared__ float acc[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        acc[threadIdx.x] = a[i] + b[i];
        c[i] = acc[threadIdx.x];
    }
}
