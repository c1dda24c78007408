// Step 3 starter: the same sort with one thread per compare-exchange.
// Blocks of SEG / 2 = 512 threads, one block per segment of SEG = 1024 keys,
// grid ceil_div(n, SEG); the last segment may be short, as in step 2.
// Each stage of the network has SEG / 2 pairs: thread t handles pair t.
#include <climits>  // INT_MAX
#define SEG 1024
#define THREADS (SEG / 2)

extern "C" __global__ void bitonic_sort(const int* in, int* out, int n)
{
    __shared__ int s[SEG];

    int t = threadIdx.x;                   // 0..511
    int base = blockIdx.x * SEG;
    int count = min(SEG, n - base);        // keys in this segment: 1..SEG

    // TODO 1: fill all SEG slots of `s`, padded as in step 2. There are half
    //         as many threads as slots now, so each thread fills two; keep
    //         each warp's reads of `in` on consecutive addresses.
    __syncthreads();

    for (int k = 2; k <= SEG; k *= 2) {
        for (int j = k / 2; j > 0; j /= 2) {
            // TODO 2: thread t handles the t-th pair of this stage: the
            //         t-th of the indices i whose bit j is 0, and its
            //         partner i + j. Compare-exchange them in the direction
            //         of i's run of length k. Every thread has a pair in
            //         every stage: no thread sits idle.
            __syncthreads();
        }
    }

    // TODO 3: write the segment's real keys back, two slots per thread.
}
