// Step 1 solution: a histogram of bytes with one global atomic per byte.
// bins[0..255] start at 0 (the lesson sets them before every run).
extern "C" __global__ void histogram(const unsigned char* x, int* bins, int n)
{
    // Grid-stride loop: the grid has at most 1024 blocks, so a thread may
    // count many bytes. Neighbouring threads read neighbouring bytes on every
    // pass, so the loads stay coalesced. The loop test is the bounds test.
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        // bins[x[i]]++ would be a read, an add and a write: two threads that
        // read the same old count both write count + 1, and one byte is lost.
        // atomicAdd does all three as one operation, in the L2 cache, which
        // every SM shares. Atomics on the same bin are done one after another.
        atomicAdd(&bins[x[i]], 1);
    }
}
