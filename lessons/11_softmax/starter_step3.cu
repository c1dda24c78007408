// Step 3 starter: online softmax, one block per row.
// One pass over the row finds its maximum and its sum of exponentials at
// once; a second pass writes y. Launch: grid.x = R, 256 threads per block.
#include <cmath>

#define WARP 32
#define FULL_MASK 0xffffffffu

// A partial result: m is the largest value seen so far, d the sum of
// exp(value - m) over the values seen so far. Nothing seen: m = -INFINITY,
// d = 0.
struct MD {
    float m;
    float d;
};

// The partial result of the values of a and those of b together.
__device__ MD md_merge(MD a, MD b)
{
    // TODO 2: the combined maximum, and both sums rescaled to it. Make sure
    //         that two partial results that have seen nothing combine into
    //         one that has seen nothing (work out what the formula gives).
    return a;
}

// Merges the partial results of the 32 lanes of a warp; every lane receives
// the result.
__device__ MD warp_merge(MD v)
{
    // TODO 3: the butterfly of step 2, exchanging both fields and merging.
    return v;
}

extern "C" __global__ void softmax(const float* x, float* y, int R, int C)
{
    __shared__ float scratch_m[WARP];  // one partial result per warp
    __shared__ float scratch_d[WARP];

    int lane = threadIdx.x % WARP;
    int warp = threadIdx.x / WARP;
    int warps = blockDim.x / WARP;

    int row = blockIdx.x;
    const float* xr = x + static_cast<size_t>(row) * C;
    float* yr = y + static_cast<size_t>(row) * C;

    // TODO 1: one walk over this thread's elements (block stride, as in
    //         step 2) that keeps the running maximum and the running sum up
    //         to date. When a new maximum appears, the sum so far was taken
    //         relative to the old one.
    MD md;
    md.m = -INFINITY;
    md.d = 0.0f;

    // TODO 4: merge within each warp, then across the warps of the block
    //         through scratch_m and scratch_d, so that every thread ends
    //         with the row's maximum and sum.

    // TODO 5: the second pass: write each element's share.
}
