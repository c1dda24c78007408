// Step 2 solution: a tree reduction in shared memory, one atomicAdd per block.
// The launch MUST use blocks of 256 threads (BLOCK): each thread owns one
// element and one slot of the shared array.
#define BLOCK 256

extern "C" __global__ void reduce_sum(const float* x, float* sum, int n)
{
    __shared__ float partial[BLOCK];

    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;

    // Threads past the end store 0, which adds nothing, so the tree below is
    // the same for every block, the last one included. No early return:
    // these threads must still reach every barrier.
    partial[tid] = (i < n) ? x[i] : 0.0f;
    __syncthreads();  // all 256 slots written before anyone reads them

    // Round by round, the lower half adds the upper half into itself:
    // 256 -> 128 -> ... -> 1 values. Consecutive threads touch consecutive
    // words, so a warp's accesses fall into 32 different banks.
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride) {
            partial[tid] += partial[tid + stride];
        }
        __syncthreads();  // outside the if: every thread reaches it
    }

    // One atomic per block instead of one per element.
    if (tid == 0) {
        atomicAdd(sum, partial[0]);
    }
}
