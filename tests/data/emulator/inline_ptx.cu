// vector_add with an inline PTX add: the CPU emulator cannot run PTX.
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s;
    asm("add.f32 %0, %1, %2;" : "=f"(s) : "f"(a[i]), "f"(b[i]));
    if (i < n) c[i] = s;
}
