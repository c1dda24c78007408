// Step 1 solution: row softmax, one warp per row.
// The launch has 128 threads per block (4 warps, so 4 rows per block) and
// grid.x = ceil_div(R, block.x / 32). The kernel works for any block size
// that is a multiple of 32, up to 1024.
#include <cmath>

#define WARP 32
#define FULL_MASK 0xffffffffu  // all 32 lanes of the warp take part

// The largest v over the 32 lanes of a warp, in every lane (the butterfly
// exchange of lesson 11 step 2: lane l swaps with lane l ^ offset).
__device__ float warp_max(float v)
{
    for (int offset = WARP / 2; offset > 0; offset /= 2) {
        v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, offset));
    }
    return v;
}

// The sum of v over the 32 lanes of a warp, in every lane.
__device__ float warp_sum(float v)
{
    for (int offset = WARP / 2; offset > 0; offset /= 2) {
        v += __shfl_xor_sync(FULL_MASK, v, offset);
    }
    return v;
}

extern "C" __global__ void softmax_warp(const float* x, float* y, int R, int C)
{
    int lane = threadIdx.x % WARP;
    int warps_per_block = blockDim.x / WARP;
    int row = blockIdx.x * warps_per_block + threadIdx.x / WARP;

    // The whole warp has the same row, so the whole warp leaves together:
    // no lane is missing from the shuffles below. There is no
    // __syncthreads() in this kernel, so leaving early is safe.
    if (row >= R) return;

    const float* xr = x + static_cast<size_t>(row) * C;
    float* yr = y + static_cast<size_t>(row) * C;

    // Lane l takes elements l, l + 32, l + 64, ...: the 32 lanes read 32
    // neighbouring floats at a time (coalesced). A lane with no element
    // keeps the neutral value and still takes part in the shuffles.
    float m = -INFINITY;
    for (int j = lane; j < C; j += WARP) {
        m = fmaxf(m, xr[j]);
    }
    m = warp_max(m);

    float s = 0.0f;
    for (int j = lane; j < C; j += WARP) {
        s += expf(xr[j] - m);
    }
    s = warp_sum(s);

    float inv = 1.0f / s;
    for (int j = lane; j < C; j += WARP) {
        yr[j] = expf(xr[j] - m) * inv;
    }
}
