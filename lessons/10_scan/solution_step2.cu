// Step 2 solution: an inclusive scan of at most 1024 elements in ONE block,
// the work-efficient (Blelloch) way: an up-sweep and a down-sweep that give
// the EXCLUSIVE scan in shared memory, then one addition per element to make
// it inclusive.
// The launch is one block of BLOCK = 512 threads; each thread owns TWO
// elements, tid and tid + BLOCK, so the block scans a tile of TILE = 1024.
#define BLOCK 512
#define TILE (2 * BLOCK)

// Turns s[0..TILE) into its exclusive scan, in place:
//   s[k] becomes the sum of the old s[0] .. s[k-1], and s[0] becomes 0.
// Every thread of the block must call it, after s is filled. On return the
// result is complete and visible to every thread.
__device__ void blelloch_exclusive(int* s)
{
    int tid = threadIdx.x;

    // Up-sweep: a reduction tree that keeps its partial sums. At the level
    // with `stride`, thread tid owns the pair (k - stride, k) with
    // k = 2 * stride * (tid + 1) - 1, and adds the left slot into the right
    // one: TILE/2 pairs at stride 1, then TILE/4, ..., 1 pair at TILE/2.
    // The pairs of one level are disjoint, so one barrier per level is
    // enough: it separates this level from the one that wrote its inputs.
    for (int stride = 1; stride < TILE; stride *= 2) {
        __syncthreads();
        int k = 2 * stride * (tid + 1) - 1;
        if (k < TILE) {
            s[k] += s[k - stride];
        }
    }

    // s[TILE - 1] holds the total of the tile (thread 0 wrote it in the last
    // level). The exclusive scan of the first element is 0: clear the root.
    // The same thread wrote it, so no barrier is needed between the two.
    if (tid == 0) {
        s[TILE - 1] = 0;
    }

    // Down-sweep: the same pairs, from the root down. The left slot receives
    // the right one's value (the sum of everything before this subtree), and
    // the right one adds the left one's old value (the sum of the left half).
    for (int stride = TILE / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        int k = 2 * stride * (tid + 1) - 1;
        if (k < TILE) {
            int left = s[k - stride];
            s[k - stride] = s[k];
            s[k] += left;
        }
    }
    __syncthreads();  // the whole scan written before any thread reads it
}

extern "C" __global__ void scan_blelloch(const int* x, int* y, int n)
{
    __shared__ int s[TILE];

    int tid = threadIdx.x;

    // Elements tid and tid + BLOCK: consecutive threads load consecutive
    // words, so both loads are coalesced. Past the end, 0.
    int a = (tid < n) ? x[tid] : 0;
    int b = (tid + BLOCK < n) ? x[tid + BLOCK] : 0;
    s[tid] = a;
    s[tid + BLOCK] = b;

    blelloch_exclusive(s);  // starts with a barrier, ends with one

    // Exclusive + own element = inclusive: y[i] = x[0] + ... + x[i].
    if (tid < n) {
        y[tid] = s[tid] + a;
    }
    if (tid + BLOCK < n) {
        y[tid + BLOCK] = s[tid + BLOCK] + b;
    }
}
