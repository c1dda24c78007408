// Step 2 starter: grid-stride loop.
// The grid is capped at 1024 blocks, so for large n there are fewer threads
// than elements and each thread must handle several elements.
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    // TODO 1: the total number of threads in the grid (the "stride"):
    //         threads per block times blocks in the grid.
    int stride = 1;

    // TODO 2: turn this single step into a loop: start at i, keep going while
    //         i < n, and advance by stride each time.
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
