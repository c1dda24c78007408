// Step 1 solution: stream compaction, y = x[x > t] in order, and its count.
//   1. count_tiles:     each block counts the kept elements of its tile of
//                       TILE = 1024 and writes the count to sums[blockIdx.x].
//   2. scan_sums:       ONE block turns sums into its exclusive scan: sums[b]
//                       becomes the kept elements of all tiles before tile b,
//                       and sums[tiles] the kept elements of the whole array.
//   3. compact_scatter: each block scans its tile's flags again and writes
//                       every kept element to y[sums[b] + kept before it].
// Every launch uses blocks of BLOCK = 512 threads, two elements per thread.
#define BLOCK 512
#define TILE (2 * BLOCK)

// Lesson 10's Blelloch scan, ready to use: turns s[0..TILE) into its
// exclusive scan, in place. Every thread of the block must call it, after s
// is filled. On return the result is complete and visible to every thread.
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

// Launch 1: grid = ceil_div(N, TILE). Block b counts the kept elements of
// x[b * TILE .. b * TILE + TILE - 1].
extern "C" __global__ void count_tiles(const float* x, int* sums, int n, float t)
{
    __shared__ int s[TILE];

    int tid = threadIdx.x;
    int i0 = blockIdx.x * TILE + tid;  // this thread's two elements
    int i1 = i0 + BLOCK;

    // The flags: 1 for an element that is kept, 0 otherwise. A slot past
    // the end of x is not an element, so it is never kept (and x is not read).
    int f0 = (i0 < n && x[i0] > t) ? 1 : 0;
    int f1 = (i1 < n && x[i1] > t) ? 1 : 0;
    s[tid] = f0;
    s[tid + BLOCK] = f1;

    blelloch_exclusive(s);

    // The exclusive value of the last slot counts everything before it; add
    // the last flag and it is the tile's count.
    if (tid == BLOCK - 1) {
        sums[blockIdx.x] = s[TILE - 1] + f1;
    }
}

// Launch 2: ONE block. sums has nblocks + 1 entries: in, the tiles' counts
// (and one spare); out, sums[b] = the counts of tiles 0 .. b-1 for every
// b <= nblocks, so sums[nblocks] is the count of the whole array.
extern "C" __global__ void scan_sums(int* sums, int nblocks)
{
    __shared__ int s[TILE];

    int tid = threadIdx.x;
    int per = (nblocks + TILE - 1) / TILE;  // totals per run; 1 while nblocks <= TILE
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

    // The exclusive scan of nblocks counts has nblocks + 1 useful entries:
    // the last one, everything before "one past the end", is the grand total.
    if (tid == BLOCK - 1) {
        sums[nblocks] = s[TILE - 1] + b;
    }
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

// Launch 3: the same grid and tiles as launch 1.
extern "C" __global__ void compact_scatter(const float* x, float* y, int* count,
                                           const int* sums, int n, float t)
{
    __shared__ int s[TILE];

    int tid = threadIdx.x;
    int i0 = blockIdx.x * TILE + tid;
    int i1 = i0 + BLOCK;

    float v0 = (i0 < n) ? x[i0] : 0.0f;
    float v1 = (i1 < n) ? x[i1] : 0.0f;
    int f0 = (i0 < n && v0 > t) ? 1 : 0;
    int f1 = (i1 < n && v1 > t) ? 1 : 0;
    s[tid] = f0;
    s[tid + BLOCK] = f1;

    blelloch_exclusive(s);  // s[k] = kept elements before slot k, in this tile

    int before = sums[blockIdx.x];  // kept elements in the tiles before this one
    if (f0) {
        y[before + s[tid]] = v0;
    }
    if (f1) {
        y[before + s[tid + BLOCK]] = v1;
    }

    // One thread writes the count: the exclusive scan one past the end.
    if (blockIdx.x == 0 && tid == 0) {
        *count = sums[gridDim.x];
    }
}
