// Thread i writes a[i + 1], which thread i + 1 reads: a race on an input,
// whose reads the check records once a kernel is seen writing it.
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
        if (i + 1 < n) const_cast<float*>(a)[i + 1] = 2.0f * a[i];
    }
}
