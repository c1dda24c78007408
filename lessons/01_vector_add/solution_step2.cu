// Step 2 solution: grid-stride loop.
// The grid is capped at 1024 blocks, so for large n there are fewer threads
// than elements and each thread handles several elements.
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    // Total threads in the grid. Thread i handles i, i + stride, i + 2*stride, ...
    // Neighbouring threads still touch neighbouring elements on every pass,
    // so the loads stay coalesced.
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        c[i] = a[i] + b[i];
    }
}
