// Step 1 starter: bitonic sort of one segment of SEG keys per block, in
// shared memory, one thread per key. The launch: blocks of SEG = 1024
// threads, one block per segment; in this step n is a multiple of SEG.
// The result: out holds in with each segment sorted ascending.
#define SEG 1024

extern "C" __global__ void bitonic_sort(const int* in, int* out, int n)
{
    __shared__ int s[SEG];  // the block's segment

    int t = threadIdx.x;           // this thread's key in the segment, 0..SEG-1
    int base = blockIdx.x * SEG;   // where the segment starts in `in` and `out`

    s[t] = in[base + t];

    // TODO 1: every key must be in shared memory before any thread compares.

    // TODO 2: the sorting network of the instructions: one stage for each
    //         run length k = 2, 4, ..., SEG and, inside it, each distance
    //         j = k/2, k/4, ..., 1. In a stage every pair of keys j apart is
    //         compared by one thread and put in the order of its run of
    //         length k. No thread may start a stage before every thread has
    //         finished the one before.

    // TODO 3: write the sorted segment back to `out`.
}
