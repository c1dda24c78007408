// Step 3 starter: an inclusive scan of any length, in three launches.
//   1. scan_blocks:  each block scans its own tile of TILE = 1024 elements
//                    into y, and writes the tile's total to sums[blockIdx.x].
//   2. scan_sums:    ONE block turns sums into its exclusive scan: sums[b]
//                    becomes the total of all tiles before tile b.
//   3. add_offsets:  each block adds sums[blockIdx.x] to its tile of y.
// Every launch uses blocks of BLOCK = 512 threads, two elements per thread.
// Write them in this order and press Run after each one.
#define BLOCK 512
#define TILE (2 * BLOCK)

// Step 2's scan, ready to use: turns s[0..TILE) into its exclusive scan, in
// place. Every thread of the block must call it, after s is filled. On
// return the result is complete and visible to every thread.
__device__ void blelloch_exclusive(int* s)
{
    int tid = threadIdx.x;
    for (int stride = 1; stride < TILE; stride *= 2) {      // up-sweep
        __syncthreads();
        int k = 2 * stride * (tid + 1) - 1;
        if (k < TILE) {
            s[k] += s[k - stride];
        }
    }
    if (tid == 0) {
        s[TILE - 1] = 0;
    }
    for (int stride = TILE / 2; stride >= 1; stride /= 2) { // down-sweep
        __syncthreads();
        int k = 2 * stride * (tid + 1) - 1;
        if (k < TILE) {
            int left = s[k - stride];
            s[k - stride] = s[k];
            s[k] += left;
        }
    }
    __syncthreads();
}

// Launch 1: grid = ceil_div(N, TILE) blocks. Block b scans its tile as if
// it were the whole array.
extern "C" __global__ void scan_blocks(const int* x, int* y, int* sums, int n)
{
    __shared__ int s[TILE];

    int tid = threadIdx.x;

    // TODO 1: this block's tile starts at element blockIdx.x * TILE. Load
    //         the thread's two elements of the tile into its two slots, as
    //         in step 2 (0 for an element past the end of x).

    blelloch_exclusive(s);

    // TODO 2: store the inclusive scan of the tile into y, as in step 2
    //         (only elements that exist). Then one thread writes the tile's
    //         total to sums[blockIdx.x]: which thread already holds it?
}

// Launch 2: ONE block, nblocks = ceil_div(N, TILE) totals. There can be more
// totals than the block has slots (32 768 at N = 2^25), so slot k of s
// stands for a RUN of `per` consecutive totals, run k; with at most TILE
// totals, per is 1 and a run is a single total.
extern "C" __global__ void scan_sums(int* sums, int nblocks)
{
    __shared__ int s[TILE];

    int tid = threadIdx.x;
    int per = (nblocks + TILE - 1) / TILE;  // totals per run

    // TODO 3: this thread owns runs tid and tid + BLOCK. Add up the totals
    //         of each run (a run may end early, or be empty, at the end of
    //         sums) and put the two run totals in their slots.

    blelloch_exclusive(s);  // now s[k] = the sum of all runs before run k

    // TODO 4: walk each of the thread's two runs again, replacing every
    //         total by the sum of all totals before it (exclusive).
}

// Launch 3: the same grid and tiles as launch 1.
extern "C" __global__ void add_offsets(int* y, const int* sums, int n)
{
    // TODO 5: every element of this block's tile adds the total of the
    //         tiles before it.
}
