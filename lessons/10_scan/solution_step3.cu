// Step 3 solution: an inclusive scan of any length, in three launches.
//   1. scan_blocks:  each block scans its own tile of TILE = 1024 elements
//                    (step 2's Blelloch scan) into y, and writes the tile's
//                    total to sums[blockIdx.x].
//   2. scan_sums:    ONE block turns sums into its exclusive scan: sums[b]
//                    becomes the total of all tiles before tile b.
//   3. add_offsets:  each block adds sums[blockIdx.x] to its tile of y.
// Every launch uses blocks of BLOCK = 512 threads, two elements per thread.
#define BLOCK 512
#define TILE (2 * BLOCK)

// Step 2's scan: turns s[0..TILE) into its exclusive scan, in place.
// Every thread of the block must call it, after s is filled. On return the
// result is complete and visible to every thread.
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

// Launch 1: grid = ceil_div(N, TILE) blocks. Block b scans elements
// b * TILE .. b * TILE + TILE - 1 as if they were the whole array.
extern "C" __global__ void scan_blocks(const int* x, int* y, int* sums, int n)
{
    __shared__ int s[TILE];

    int tid = threadIdx.x;
    int i0 = blockIdx.x * TILE + tid;  // this thread's two elements
    int i1 = i0 + BLOCK;

    int a = (i0 < n) ? x[i0] : 0;
    int b = (i1 < n) ? x[i1] : 0;
    s[tid] = a;
    s[tid + BLOCK] = b;

    blelloch_exclusive(s);

    int inc_a = s[tid] + a;          // inclusive, within this tile only
    int inc_b = s[tid + BLOCK] + b;
    if (i0 < n) {
        y[i0] = inc_a;
    }
    if (i1 < n) {
        y[i1] = inc_b;
    }
    // The inclusive value of the tile's last slot is the tile's total
    // (the padding zeros of a ragged last tile add nothing).
    if (tid == BLOCK - 1) {
        sums[blockIdx.x] = inc_b;
    }
}

// Launch 2: ONE block. nblocks = ceil_div(N, TILE) tile totals, which can
// be more than the block's TILE slots (32 768 of them at N = 2^25). So the
// totals are cut into TILE runs of `per` consecutive totals, and the same
// three phases as the whole lesson happen inside the block: each thread adds
// up its two runs in a register, the block scans the TILE run totals, and
// each thread walks its runs again, writing running offsets.
// Result: sums[b] = total of tiles 0 .. b-1 (exclusive), so sums[0] = 0.
extern "C" __global__ void scan_sums(int* sums, int nblocks)
{
    __shared__ int s[TILE];

    int tid = threadIdx.x;
    int per = (nblocks + TILE - 1) / TILE;  // run length; 1 while nblocks <= TILE
    int r0 = tid * per;                     // first total of run tid
    int r1 = (tid + BLOCK) * per;           // first total of run tid + BLOCK

    int a = 0, b = 0;
    for (int j = 0; j < per; ++j) {
        if (r0 + j < nblocks) a += sums[r0 + j];
        if (r1 + j < nblocks) b += sums[r1 + j];
    }
    s[tid] = a;
    s[tid + BLOCK] = b;

    blelloch_exclusive(s);  // s[k] = total of the runs before run k

    // Only this thread touches its runs, so reading a total and overwriting
    // it with the offset needs no barrier.
    int running = s[tid];
    for (int j = 0; j < per && r0 + j < nblocks; ++j) {
        int total = sums[r0 + j];
        sums[r0 + j] = running;
        running += total;
    }
    running = s[tid + BLOCK];
    for (int j = 0; j < per && r1 + j < nblocks; ++j) {
        int total = sums[r1 + j];
        sums[r1 + j] = running;
        running += total;
    }
}

// Launch 3: the same grid and tiles as launch 1. Every element of tile b
// adds the total of the tiles before it.
extern "C" __global__ void add_offsets(int* y, const int* sums, int n)
{
    int offset = sums[blockIdx.x];
    int i0 = blockIdx.x * TILE + threadIdx.x;
    int i1 = i0 + BLOCK;
    if (i0 < n) {
        y[i0] += offset;
    }
    if (i1 < n) {
        y[i1] += offset;
    }
}
