// Step 2 solution: bitonic sort per segment, for any n. Blocks of SEG = 1024
// threads, one block per segment, grid ceil_div(n, SEG). A short last
// segment is padded with INT_MAX up to SEG keys, so the network is always
// the same power-of-two network; the padding sorts to the end of the
// segment and is never written back.
#include <climits>  // INT_MAX
#define SEG 1024

extern "C" __global__ void bitonic_sort(const int* in, int* out, int n)
{
    __shared__ int s[SEG];

    int t = threadIdx.x;
    int base = blockIdx.x * SEG;
    int count = min(SEG, n - base);        // keys in this segment: 1..SEG

    // Threads without a key store INT_MAX and stay for every barrier. A real
    // key equal to INT_MAX ties with the padding, which is harmless: the
    // first `count` slots still hold the segment's keys in order.
    s[t] = (t < count) ? in[base + t] : INT_MAX;
    __syncthreads();

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

    if (t < count) {
        out[base + t] = s[t];
    }
}
