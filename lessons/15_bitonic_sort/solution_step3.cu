// Step 3 solution: the same sort with one thread per compare-exchange.
// Blocks of SEG / 2 = 512 threads, one block per segment of SEG = 1024 keys,
// grid ceil_div(n, SEG); a short last segment is padded with INT_MAX.
// Each stage of the network has SEG / 2 pairs, and thread t handles pair t,
// so no thread is idle in any stage.
#include <climits>  // INT_MAX
#define SEG 1024
#define THREADS (SEG / 2)

extern "C" __global__ void bitonic_sort(const int* in, int* out, int n)
{
    __shared__ int s[SEG];

    int t = threadIdx.x;                   // 0..511
    int base = blockIdx.x * SEG;
    int count = min(SEG, n - base);

    // Two slots per thread: t and t + 512, so a warp reads two runs of 32
    // consecutive keys.
    for (int e = t; e < SEG; e += THREADS) {
        s[e] = (e < count) ? in[base + e] : INT_MAX;
    }
    __syncthreads();

    for (int k = 2; k <= SEG; k *= 2) {
        for (int j = k / 2; j > 0; j /= 2) {
            // The lower indices of the pairs are the i with bit j clear.
            // Number them 0, 1, 2, ...: keep the bits of t below j and move
            // the others up one place to make room for bit j = 0.
            //   i = (t / j) * 2j + (t % j) = 2t - (t & (j - 1))
            int i = 2 * t - (t & (j - 1));
            int a = s[i];
            int b = s[i + j];
            bool ascending = (i & k) == 0;  // i and i + j share this bit (j < k)
            if (ascending ? (a > b) : (a < b)) {
                s[i] = b;
                s[i + j] = a;
            }
            __syncthreads();
        }
    }

    for (int e = t; e < SEG; e += THREADS) {
        if (e < count) {
            out[base + e] = s[e];
        }
    }
}
