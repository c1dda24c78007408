// Step 2 starter: grid-stride loop.
// The grid is capped at 1024 blocks, so for large n there are fewer threads
// than elements and each thread must handle several elements.
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    // TODO 1: the total number of threads in the grid (the "stride").
    int stride = 1;

    // TODO 2: this handles only the thread's first element. Make it handle
    //         every element that lies a whole number of strides further on,
    //         up to the end of the arrays.
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
