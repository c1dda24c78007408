// Step 1 solution: one thread per element.
// c[i] = a[i] + b[i] for every i in [0, n).
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    // Global index: which block we are in, times threads per block, plus our
    // place inside the block.
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    // The grid is rounded up to whole blocks, so the last block may run past
    // the end of the arrays. Those threads must do nothing.
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
