// Step 2 starter: an inclusive scan of at most 1024 elements in ONE block,
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

    // TODO 2: the up-sweep. Levels with stride 1, 2, 4, ... TILE/2: at each
    //         level, a thread owns one pair of slots `stride` apart, and adds
    //         the left one into the right one (see the picture in the
    //         instructions). Fewer pairs each level. A level may start only
    //         when the level before it is complete, and the first only when
    //         s is filled.

    // TODO 3: the last slot now holds the total of the tile. Replace it by
    //         the sum of the elements before the first one.

    // TODO 4: the down-sweep. The same pairs in the opposite order (stride
    //         TILE/2 down to 1): the left slot receives the right one's value,
    //         and the right one adds the left one's old value. Again, one
    //         level at a time, and the whole result written before return.
}

extern "C" __global__ void scan_blelloch(const int* x, int* y, int n)
{
    __shared__ int s[TILE];

    int tid = threadIdx.x;

    // No early return in this kernel: every thread must reach every
    // __syncthreads(), also the threads whose elements lie past the end of x.

    // TODO 1: load this thread's two elements, tid and tid + BLOCK, into
    //         their slots; an element past the end of x counts as 0. Keep
    //         both values: TODO 5 needs them again.
    int a = 0;
    int b = 0;

    blelloch_exclusive(s);

    // TODO 5: s holds the exclusive scan. Turn it into the inclusive one for
    //         the two elements of this thread and store them in y, only for
    //         elements that exist.
}
