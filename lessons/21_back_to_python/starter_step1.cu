// Step 1 starter: row softmax, one warp per row.
// The launch has 128 threads per block (4 warps, so 4 rows per block) and
// grid.x = ceil_div(R, block.x / 32). The kernel must work for any block
// size that is a multiple of 32, up to 1024.
#include <cmath>

#define WARP 32
#define FULL_MASK 0xffffffffu  // all 32 lanes of the warp take part

// The largest v over the 32 lanes of a warp. Every lane must receive the
// result, not only lane 0, and all 32 lanes must call it together.
__device__ float warp_max(float v)
{
    // TODO 2: five rounds of exchanges between lanes that leave the answer
    //         in every lane (lesson 11 step 2).
    return v;
}

// The sum of v over the 32 lanes of a warp, in every lane.
__device__ float warp_sum(float v)
{
    // TODO 2: the same, with a sum.
    return v;
}

extern "C" __global__ void softmax_warp(const float* x, float* y, int R, int C)
{
    int lane = threadIdx.x % WARP;

    // TODO 1: which row does this warp own? Every warp of every block owns
    //         a different one, whatever the block size. A warp with no row
    //         has nothing to do.
    int row = 0;

    const float* xr = x + static_cast<size_t>(row) * C;
    float* yr = y + static_cast<size_t>(row) * C;

    // TODO 3: the lanes walk the row together, neighbouring lanes on
    //         neighbouring elements, each keeping the largest value it
    //         sees; then the warp's maximum.
    float m = -INFINITY;

    // TODO 4: the same walk, adding up the exponentials shifted by the
    //         maximum; then the warp's total.
    float s = 0.0f;

    // TODO 5: the same walk again, writing each element's share.
    (void)xr; (void)yr; (void)m; (void)s; (void)lane;
}
