// Step 1 solution: an inclusive scan of at most 1024 elements in ONE block,
// the Hillis-Steele way, in shared memory.
// The launch is one block of BLOCK = 1024 threads: thread tid owns element
// tid of x and slot tid of s, and writes y[tid].
#define BLOCK 1024

extern "C" __global__ void scan_hillis_steele(const int* x, int* y, int n)
{
    __shared__ int s[BLOCK];  // one slot per thread

    int tid = threadIdx.x;

    // Threads past the end store 0, which adds nothing. (Only slots below
    // tid are ever added into slot tid, so these zeros never reach a real
    // element anyway; the test is there so that no thread reads x[n] or
    // beyond.) No early return: these threads take part in every barrier.
    s[tid] = (tid < n) ? x[tid] : 0;
    __syncthreads();  // every slot filled before anyone reads another's

    // Round k adds the element 2^k places back. After the round with offset
    // `offset`, s[tid] is the sum of the (up to) 2 * offset elements ending
    // at tid, so once offset >= n it is the sum of all elements up to tid.
    // n is the same in every thread, so every thread runs the same number of
    // rounds and reaches the same barriers.
    for (int offset = 1; offset < n; offset *= 2) {
        int add = (tid >= offset) ? s[tid - offset] : 0;
        __syncthreads();  // every thread has READ before any thread writes
        s[tid] += add;
        __syncthreads();  // every thread has WRITTEN before the next round reads
    }

    if (tid < n) {
        y[tid] = s[tid];
    }
}
