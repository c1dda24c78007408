// Step 2 solution: y = softmax(x * scale) along each row, one warp per row.
// The launch is step 1's: 128 threads per block, 4 rows per block.
#include <cmath>

#define WARP 32
#define FULL_MASK 0xffffffffu

__device__ float warp_max(float v)
{
    for (int offset = WARP / 2; offset > 0; offset /= 2) {
        v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, offset));
    }
    return v;
}

__device__ float warp_sum(float v)
{
    for (int offset = WARP / 2; offset > 0; offset /= 2) {
        v += __shfl_xor_sync(FULL_MASK, v, offset);
    }
    return v;
}

extern "C" __global__ void softmax_scale(const float* x, float* y, int R, int C, float scale)
{
    int lane = threadIdx.x % WARP;
    int row = blockIdx.x * (blockDim.x / WARP) + threadIdx.x / WARP;
    if (row >= R) return;

    const float* xr = x + static_cast<size_t>(row) * C;
    float* yr = y + static_cast<size_t>(row) * C;

    // The maximum of the scaled values, not the scaled maximum: when scale
    // is negative, the largest x * scale comes from the smallest x.
    float m = -INFINITY;
    for (int j = lane; j < C; j += WARP) {
        m = fmaxf(m, xr[j] * scale);
    }
    m = warp_max(m);

    float s = 0.0f;
    for (int j = lane; j < C; j += WARP) {
        s += expf(xr[j] * scale - m);
    }
    s = warp_sum(s);

    float inv = 1.0f / s;
    for (int j = lane; j < C; j += WARP) {
        yr[j] = expf(xr[j] * scale - m) * inv;
    }
}
