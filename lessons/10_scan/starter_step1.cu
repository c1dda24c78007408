// Step 1 starter: an inclusive scan of at most 1024 elements in ONE block,
// the Hillis-Steele way, in shared memory.
// The launch is one block of BLOCK = 1024 threads: thread tid owns element
// tid of x and slot tid of s, and writes y[tid].
#define BLOCK 1024

extern "C" __global__ void scan_hillis_steele(const int* x, int* y, int n)
{
    __shared__ int s[BLOCK];  // one slot per thread

    int tid = threadIdx.x;

    // No early return in this kernel: every thread of the block must reach
    // every __syncthreads(), also the threads past the end of x.

    // TODO 1: put this thread's element of x in its slot. A thread past the
    //         end of x (tid >= n) has no element: store the value that does
    //         not change a sum. Then wait until every slot is filled.

    // TODO 2: the rounds. In each round every element adds the one `offset`
    //         places before it (when there is one), and offset doubles, until
    //         it reaches n. In one round every thread must finish READING
    //         before any thread overwrites a slot, and every slot must be
    //         written before the next round reads (see the instructions).

    // TODO 3: s[tid] now holds the inclusive prefix sum of element tid.
    //         Store it in y, only for elements that exist.
}
