// Step 2 starter: each block counts into its own histogram in shared memory,
// then adds it into the global one.
// The kernel must work for any number of threads per block (the Sweep tab
// tries 32 to 1024), so do not assume one thread per bin.
#define BINS 256

extern "C" __global__ void histogram(const unsigned char* x, int* bins, int n)
{
    __shared__ int local[BINS];  // this block's private histogram

    // TODO 1: clear local[]. Shared memory starts with whatever was there
    //         before. A block may have fewer threads than there are bins, or
    //         more, so share the bins out among the block's threads.

    // TODO 2: no thread may count into local[] before every bin is cleared.

    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        // TODO 3: count x[i] in this block's histogram. The other threads of
        //         the block count into the same 256 bins at the same time.
    }

    // TODO 4: no thread may read local[] before every thread of the block
    //         has finished counting.

    // TODO 5: add this block's counts into bins, sharing the bins out as in
    //         TODO 1. Other blocks add into bins at the same time. A bin that
    //         this block never saw needs no global operation at all.
}
