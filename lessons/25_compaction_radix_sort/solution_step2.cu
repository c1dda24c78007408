// Step 2 solution: split keys by one bit, stably: first every key whose bit
// `bit` is 0, then every key whose bit is 1, each group in its input order.
// It is step 1 with the zeros as the kept elements, and the ones as well:
//   1. count_zeros:   each block counts the keys of its tile whose bit is 0.
//   2. scan_sums:     ONE block scans the counts (exclusive); sums[tiles]
//                     becomes the number of zeros in the whole array.
//   3. split_scatter: each block scans its zero flags again; a zero goes to
//                     the zeros before it, a one after all the zeros and the
//                     ones before it.
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

// 1 for a key whose bit `bit` is 0. Padding slots are not keys: they get 0
// from the caller, never this.
__device__ int zero_flag(unsigned key, int bit)
{
    return ((key >> bit) & 1u) == 0u ? 1 : 0;
}

// Launch 1: grid = ceil_div(N, TILE).
extern "C" __global__ void count_zeros(const unsigned* keys, int* sums, int n, int bit)
{
    __shared__ int s[TILE];

    int tid = threadIdx.x;
    int i0 = blockIdx.x * TILE + tid;
    int i1 = i0 + BLOCK;

    int z0 = (i0 < n) ? zero_flag(keys[i0], bit) : 0;
    int z1 = (i1 < n) ? zero_flag(keys[i1], bit) : 0;
    s[tid] = z0;
    s[tid + BLOCK] = z1;

    blelloch_exclusive(s);

    if (tid == BLOCK - 1) {
        sums[blockIdx.x] = s[TILE - 1] + z1;
    }
}

// Launch 2: ONE block, as in step 1.
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
extern "C" __global__ void split_scatter(const unsigned* keys, unsigned* out,
                                         const int* sums, int n, int bit)
{
    __shared__ int s[TILE];

    int tid = threadIdx.x;
    int i0 = blockIdx.x * TILE + tid;
    int i1 = i0 + BLOCK;

    unsigned k0 = (i0 < n) ? keys[i0] : 0u;
    unsigned k1 = (i1 < n) ? keys[i1] : 0u;
    int z0 = (i0 < n) ? zero_flag(k0, bit) : 0;
    int z1 = (i1 < n) ? zero_flag(k1, bit) : 0;
    s[tid] = z0;
    s[tid + BLOCK] = z1;

    blelloch_exclusive(s);  // s[k] = zeros before slot k, in this tile

    int before = sums[blockIdx.x];  // zeros in the tiles before this one
    int zeros = sums[gridDim.x];    // zeros in the whole array
    if (i0 < n) {
        int zb = before + s[tid];   // zeros before element i0
        out[z0 ? zb : zeros + (i0 - zb)] = k0;  // i0 - zb = ones before i0
    }
    if (i1 < n) {
        int zb = before + s[tid + BLOCK];
        out[z1 ? zb : zeros + (i1 - zb)] = k1;
    }
}
