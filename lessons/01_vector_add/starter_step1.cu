// Step 1 starter: one thread per element.
// c = a + b, element by element, for vectors of n floats.
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    // TODO 1: compute this thread's global index from blockIdx.x, blockDim.x
    //         and threadIdx.x. (Right now every thread thinks it is element 0.)
    int i = 0;

    // TODO 2: the grid is rounded up to whole blocks, so the last block
    //         usually has threads past the end of the arrays. Those threads
    //         must not read or write memory.

    // TODO 3: store the sum of this thread's elements of a and b in c.
}
