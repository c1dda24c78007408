// Step 1 solution: bitonic sort of one segment of SEG keys per block, in
// shared memory, one thread per key. Blocks of SEG = 1024 threads, one block
// per segment; in this step n is a multiple of SEG (step 2 handles the rest).
#define SEG 1024

extern "C" __global__ void bitonic_sort(const int* in, int* out, int n)
{
    __shared__ int s[SEG];

    int t = threadIdx.x;
    int base = blockIdx.x * SEG;

    s[t] = in[base + t];
    __syncthreads();                       // the whole segment is loaded

    // k: the length of the sorted runs being built (2, 4, ..., SEG).
    // j: the distance between the two keys of a compare-exchange.
    for (int k = 2; k <= SEG; k *= 2) {
        for (int j = k / 2; j > 0; j /= 2) {
            int ixj = t ^ j;               // the partner: t with bit j flipped
            if (ixj > t) {                 // the lower thread of each pair works
                int a = s[t];
                int b = s[ixj];
                // Runs of length k alternate ascending and descending, so
                // that two neighbouring runs form a bitonic sequence for the
                // next k. At k = SEG every t has (t & k) == 0: all ascending.
                bool ascending = (t & k) == 0;
                if (ascending ? (a > b) : (a < b)) {
                    s[t] = b;
                    s[ixj] = a;
                }
            }
            __syncthreads();               // outside the if: every thread
        }                                  // finishes this stage first
    }

    out[base + t] = s[t];
}
