// Step 2 starter: row softmax, one block per row.
// The launch has grid.x = R (block b handles row b) and 256 threads per
// block. The helpers work for any block size that is a multiple of 32, up
// to 1024.
#include <cmath>

#define WARP 32
#define FULL_MASK 0xffffffffu  // all 32 lanes of the warp take part

// The largest v over the 32 lanes of a warp. Every lane must receive the
// result, not only lane 0, and all 32 lanes must call it together.
__device__ float warp_max(float v)
{
    // TODO 2: five rounds of exchanges between lanes, as in lesson 07's
    //         warp_sum, but with an exchange that leaves the answer in
    //         every lane.
    return v;
}

// The sum of v over the 32 lanes of a warp, in every lane.
__device__ float warp_sum(float v)
{
    // TODO 2: the same, with a sum.
    return v;
}

// The largest v over the whole block, returned to every thread.
// scratch holds one float per warp; every thread of the block must call it.
__device__ float block_max(float v, float* scratch)
{
    int lane = threadIdx.x % WARP;
    int warp = threadIdx.x / WARP;
    int warps = blockDim.x / WARP;

    // TODO 3: reduce inside each warp, let one lane of each warp keep its
    //         warp's result in scratch, wait for all of them, then reduce
    //         the warp results (a lane without one contributes a value that
    //         cannot win).
    return v;
}

// The sum of v over the whole block, returned to every thread.
__device__ float block_sum(float v, float* scratch)
{
    int lane = threadIdx.x % WARP;
    int warp = threadIdx.x / WARP;
    int warps = blockDim.x / WARP;

    // TODO 3: the same, with a sum.
    return v;
}

extern "C" __global__ void softmax(const float* x, float* y, int R, int C)
{
    __shared__ float scratch_max[WARP];  // one slot per warp (at most 32)
    __shared__ float scratch_sum[WARP];

    int row = blockIdx.x;
    const float* xr = x + static_cast<size_t>(row) * C;
    float* yr = y + static_cast<size_t>(row) * C;

    // No early return in this kernel: every thread must reach the barriers
    // inside block_max and block_sum, also threads with no element.

    // TODO 1: each thread walks the row with a stride of the block size,
    //         so that neighbouring threads read neighbouring elements, and
    //         keeps the largest value it sees.
    float m = -INFINITY;
    m = block_max(m, scratch_max);

    // TODO 4: the same walk, adding up the shifted exponentials; then the
    //         block's total.
    float s = 0.0f;
    s = block_sum(s, scratch_sum);

    // TODO 5: the same walk again, writing each element's share.
}
