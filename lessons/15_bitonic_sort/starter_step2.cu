// Step 2 starter: bitonic sort per segment, for any n. Blocks of SEG = 1024
// threads, one block per segment, grid ceil_div(n, SEG): the last segment
// may hold fewer than SEG keys (all n of them when n < SEG), but the network
// only sorts a power of two.
#include <climits>  // INT_MAX
#define SEG 1024

extern "C" __global__ void bitonic_sort(const int* in, int* out, int n)
{
    __shared__ int s[SEG];

    int t = threadIdx.x;
    int base = blockIdx.x * SEG;

    // No early return in this kernel: every thread of the block must reach
    // every __syncthreads(), also threads that have no key of their own.

    // TODO 1: work out how many keys this block's segment really has, and
    //         fill every slot of `s`: a thread with a key loads it; a thread
    //         without one stores a value that no key can sort after. Only
    //         keys inside `in` may be read.
    s[t] = INT_MAX;
    __syncthreads();

    // The network of step 1, unchanged.
    for (int k = 2; k <= SEG; k *= 2) {
        for (int j = k / 2; j > 0; j /= 2) {
            int ixj = t ^ j;
            if (ixj > t) {
                int a = s[t];
                int b = s[ixj];
                bool ascending = (t & k) == 0;
                if (ascending ? (a > b) : (a < b)) {
                    s[t] = b;
                    s[ixj] = a;
                }
            }
            __syncthreads();
        }
    }

    // TODO 2: write the segment back to `out`: its real keys only, and
    //         nothing past the end of `out`.
}
