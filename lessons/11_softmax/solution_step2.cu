// Step 2 solution: row softmax, one block per row.
// The launch has grid.x = R (block b handles row b) and 256 threads per
// block. The helpers work for any block size that is a multiple of 32, up
// to 1024.
#include <cmath>

#define WARP 32
#define FULL_MASK 0xffffffffu  // all 32 lanes of the warp take part

// The largest v over the 32 lanes of a warp, in every lane. With the xor
// ("butterfly") exchange, lane l swaps values with lane l ^ offset, so both
// partners end each round holding the same result; after offsets 16, 8, 4,
// 2, 1 every lane holds the warp's maximum.
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

// The largest v over the whole block, returned to every thread.
// scratch holds one float per warp; every thread of the block must call it.
__device__ float block_max(float v, float* scratch)
{
    int lane = threadIdx.x % WARP;
    int warp = threadIdx.x / WARP;
    int warps = blockDim.x / WARP;

    v = warp_max(v);
    if (lane == 0) scratch[warp] = v;
    __syncthreads();  // every warp's maximum is stored before anyone reads

    // Every warp reduces the warp maxima itself, so every thread ends with
    // the block's maximum and no second broadcast is needed. -INFINITY
    // never wins a max.
    v = (lane < warps) ? scratch[lane] : -INFINITY;
    return warp_max(v);
}

// The sum of v over the whole block, returned to every thread.
__device__ float block_sum(float v, float* scratch)
{
    int lane = threadIdx.x % WARP;
    int warp = threadIdx.x / WARP;
    int warps = blockDim.x / WARP;

    v = warp_sum(v);
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    v = (lane < warps) ? scratch[lane] : 0.0f;
    return warp_sum(v);
}

extern "C" __global__ void softmax(const float* x, float* y, int R, int C)
{
    // Two arrays, not one reused: block_sum writes scratch_sum while slow
    // warps may still be reading scratch_max inside block_max. Reusing one
    // array would need another __syncthreads() in between.
    __shared__ float scratch_max[WARP];
    __shared__ float scratch_sum[WARP];

    int row = blockIdx.x;
    const float* xr = x + static_cast<size_t>(row) * C;
    float* yr = y + static_cast<size_t>(row) * C;

    // Block-stride loops: thread t takes elements t, t + 256, t + 512, ...
    // so the 32 threads of a warp read 32 neighbouring floats (128 bytes)
    // at a time: coalesced. The loop condition is the bounds test; a thread
    // with no element keeps the neutral value and still calls the helpers.
    float m = -INFINITY;
    for (int j = threadIdx.x; j < C; j += blockDim.x) {
        m = fmaxf(m, xr[j]);
    }
    m = block_max(m, scratch_max);

    float s = 0.0f;
    for (int j = threadIdx.x; j < C; j += blockDim.x) {
        s += expf(xr[j] - m);
    }
    s = block_sum(s, scratch_sum);

    float inv = 1.0f / s;  // one division per thread, then multiplications
    for (int j = threadIdx.x; j < C; j += blockDim.x) {
        yr[j] = expf(xr[j] - m) * inv;
    }
}
