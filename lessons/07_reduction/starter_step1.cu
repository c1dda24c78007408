// Step 1 starter: sum reduction with one atomic addition per element.
// *sum starts at 0 (the lesson sets it before every run). Every element of x
// must be added into it exactly once.
extern "C" __global__ void reduce_sum(const float* x, float* sum, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    // TODO 1: the grid is rounded up to whole blocks of 256 threads, so the
    //         last block has threads past the end of x. Only a thread that
    //         owns an element may read it.

    // TODO 2: add this thread's element into *sum. Thousands of threads
    //         update that one float at the same time, so the read, the add
    //         and the write must happen as one indivisible operation.
}
