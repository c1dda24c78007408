// Step 1 starter: one thread per element.
// c[i] = a[i] + b[i] for every i in [0, n).
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    // TODO 1: compute this thread's global index from blockIdx.x, blockDim.x
    //         and threadIdx.x. (Right now every thread thinks it is element 0.)
    int i = 0;

    // TODO 2: the last block usually has threads past the end of the arrays.
    //         Let only threads with i < n touch memory.

    // TODO 3: write the sum.
    //         c[i] = a[i] + b[i];
}
