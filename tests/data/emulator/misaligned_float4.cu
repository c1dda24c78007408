// A 16-byte vector copy from a float pointer one element in: a 16-byte load
// needs an address that 16 divides.
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0 && n >= 8) {
        *reinterpret_cast<float4*>(c + 4) = *reinterpret_cast<const float4*>(a + 1);
    } else if (i < n && (i < 4 || i > 7)) {
        c[i] = a[i] + b[i];
    }
}
