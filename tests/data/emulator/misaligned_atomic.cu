// An atomicAdd on an int two bytes into an int: no GPU performs it.
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
        if (i == 7) atomicAdd(reinterpret_cast<int*>(reinterpret_cast<char*>(c) + 2), 1);
    }
}
