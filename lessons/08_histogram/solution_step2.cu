// Step 2 solution: each block counts into its own histogram in shared memory
// (shared atomics, done inside the SM), then adds it into the global one with
// at most 256 global atomics per block.
// Works for any number of threads per block: the bin loops step by blockDim.x.
#define BINS 256

extern "C" __global__ void histogram(const unsigned char* x, int* bins, int n)
{
    __shared__ int local[BINS];  // this block's private histogram

    // Shared memory is not cleared between blocks: zero it, each thread a
    // share of the bins (with 96 threads: bins t, t + 96, t + 192).
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        local[b] = 0;
    }
    __syncthreads();  // every bin is 0 before anyone counts into it

    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        // A shared-memory atomic: performed in this SM, on this block's copy,
        // never reaching the L2. Only the threads of this block compete.
        atomicAdd(&local[x[i]], 1);
    }
    __syncthreads();  // every count is in before anyone reads the bins

    // One global atomic per bin that this block saw; for a one-colour image
    // that is a single atomic per block.
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        int count = local[b];
        if (count != 0) {
            atomicAdd(&bins[b], count);
        }
    }
}
