// Step 2 starter: FlashAttention-lite. One kernel, no N x N matrix.
// Each thread owns one query row i of head h. The block walks K[h] and V[h]
// in tiles of BK rows held in shared memory; for every key the thread keeps
// lesson 11's running maximum m and running sum l, and an unnormalised output
// o[] that is rescaled whenever m grows. At the end O = o / l.
// Launch: grid (ceil_div(N, block.x), H); any block size that the kernel's
// registers allow (the Resources view: up to 384 threads on sm_90). D <= DMAX.
#include <cmath>

#define BK 64    // keys (rows of K and V) per shared-memory tile
#define DMAX 64  // the largest head dimension this kernel handles

extern "C" __global__ void flash_attn(const float* Q, const float* K, const float* V, float* O,
                                      int H, int N, int D)
{
    __shared__ float Ks[BK][DMAX];  // a tile of K[h]: BK keys, zero past column D
    __shared__ float Vs[BK][DMAX];  // the matching tile of V[h]

    int h = blockIdx.y;
    int i = blockIdx.x * blockDim.x + threadIdx.x;  // this thread's query row
    bool has_row = i < N;  // no early return: every thread helps load the tiles
    const float* Kh = K + static_cast<size_t>(h) * N * D;
    const float* Vh = V + static_cast<size_t>(h) * N * D;

    // The query, already divided by sqrt(D), and the output, in registers.
    // The loops over DMAX are unrolled, so q[] and o[] stay in registers;
    // columns from D to DMAX hold 0 and add nothing.
    const float scale = 1.0f / sqrtf(static_cast<float>(D));
    float q[DMAX], o[DMAX];
    #pragma unroll
    for (int c = 0; c < DMAX; ++c) {
        q[c] = (has_row && c < D) ? Q[(static_cast<size_t>(h) * N + i) * D + c] * scale : 0.0f;
        o[c] = 0.0f;
    }
    float m = -INFINITY;  // running maximum of the scores seen so far
    float l = 0.0f;       // running sum of exp(score - m)

    for (int t = 0; t < N; t += BK) {
        int keys = min(BK, N - t);  // the last tile may be short

        // The whole block loads the tile, consecutive threads on consecutive
        // floats (coalesced). Past the last key and past column D: zeros.
        for (int idx = threadIdx.x; idx < BK * DMAX; idx += blockDim.x) {
            int r = idx / DMAX;
            int c = idx % DMAX;
            bool inside = r < keys && c < D;
            size_t g = static_cast<size_t>(t + r) * D + c;
            Ks[r][c] = inside ? Kh[g] : 0.0f;
            Vs[r][c] = inside ? Vh[g] : 0.0f;
        }
        __syncthreads();  // the tile is complete before anyone reads it

        // TODO 1: for each key of this tile (only the keys that exist),
        //         its score s = q · (that row of Ks). Then bring m, l and o
        //         up to date: m is the largest score so far, l the sum of
        //         exp(score - m) over the keys so far, and o[c] the sum of
        //         exp(score - m) * (value in column c of that key's row of Vs).
        //         When s is a new maximum, what l and o hold so far was
        //         computed relative to the old m (lesson 11 step 3).

        __syncthreads();  // everyone has finished with the tile before the next load
    }

    // TODO 2: if this thread has a row, write row i of O[h]: o divided by l,
    //         columns 0 to D - 1 only.
    (void)O;
}
