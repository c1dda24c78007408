// Step 2 starter: a tree reduction in shared memory, one atomicAdd per block.
// The launch MUST use blocks of 256 threads (BLOCK): each thread owns one
// element and one slot of the shared array.
#define BLOCK 256

extern "C" __global__ void reduce_sum(const float* x, float* sum, int n)
{
    __shared__ float partial[BLOCK];  // one slot per thread of the block

    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;

    // No early return in this kernel: every thread of the block fills its
    // slot and must reach every __syncthreads().

    // TODO 1: put this thread's element in its slot. A thread past the end
    //         of x has no element: store the value that leaves a sum unchanged.
    partial[tid] = 0.0f;

    // TODO 2: every slot must be filled before any thread reads another's.

    // TODO 3: add the slots up in rounds, halving the number of values each
    //         round, until partial[0] holds the sum of the whole block.
    //         Each round must be complete before the next one starts.

    // TODO 4: one thread adds the block's sum into *sum (atomically: other
    //         blocks do the same at the same time).
}
