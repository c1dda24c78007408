// Step 3 solution: a full sort.
// LSD radix sort of (key, value) pairs, one bit per pass, from bit 0 up to
// bit 31. Each bit is step 2's split, in three phases that must run in this
// order, each over the whole array before the next begins:
//   phase 0: count_zeros   (grid ceil_div(N, TILE))
//   phase 1: scan_sums     (grid 1)
//   phase 2: split_scatter (grid ceil_div(N, TILE))
// The lesson runs ONE launch, radix_pass, 3 * 32 = 96 times; `pass` is its
// number, 0 .. 95, and the grid is 1 when pass % 3 == 1. After every pass it
// swaps keys <-> keys_out and vals <-> vals_out, so the pairs the scatter of
// one bit writes to keys_out/vals_out are keys/vals for the next bit.
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

// 1 for a key whose bit `bit` is 0.
__device__ int zero_flag(unsigned key, int bit)
{
    return ((key >> bit) & 1u) == 0u ? 1 : 0;
}

// Phase 0: step 2's count_zeros.
__device__ void count_zeros(const unsigned* keys, int* sums, int n, int bit)
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

// Phase 1: steps 1 and 2's scan_sums, with one block.
__device__ void scan_sums(int* sums, int nblocks)
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

// Phase 2: step 2's split_scatter, moving each key's value with it.
__device__ void split_scatter(const unsigned* keys, unsigned* keys_out,
                              const int* vals, int* vals_out,
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

    blelloch_exclusive(s);

    int before = sums[blockIdx.x];
    int zeros = sums[(n + TILE - 1) / TILE];
    if (i0 < n) {
        int zb = before + s[tid];
        int d = z0 ? zb : zeros + (i0 - zb);
        keys_out[d] = k0;
        vals_out[d] = vals[i0];
    }
    if (i1 < n) {
        int zb = before + s[tid + BLOCK];
        int d = z1 ? zb : zeros + (i1 - zb);
        keys_out[d] = k1;
        vals_out[d] = vals[i1];
    }
}

extern "C" __global__ void radix_pass(const unsigned* keys, unsigned* keys_out,
                                      const int* vals, int* vals_out,
                                      int* sums, int n, int pass)
{
    int phase = pass % 3;
    int bit = pass / 3;  // least significant bit first: 0, 1, ..., 31
    if (phase == 0) {
        count_zeros(keys, sums, n, bit);
    } else if (phase == 1) {
        scan_sums(sums, (n + TILE - 1) / TILE);
    } else {
        split_scatter(keys, keys_out, vals, vals_out, sums, n, bit);
    }
}
