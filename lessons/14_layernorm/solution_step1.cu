// Step 1 solution: layer normalisation of each row, one block per row, two
// passes. x, gamma, beta and y are FP16; every sum is kept in float.
// Launch: grid.x = R (block b handles row b), 256 threads per block (any
// multiple of 32 up to 1024 works).
#include <cuda_fp16.h>
#include <cmath>

#define WARP 32
#define FULL_MASK 0xffffffffu

// The sum of v over the 32 lanes of a warp, in every lane (lesson 11).
__device__ float warp_sum(float v)
{
    for (int offset = WARP / 2; offset > 0; offset /= 2) {
        v += __shfl_xor_sync(FULL_MASK, v, offset);
    }
    return v;
}

// The sum of v over the whole block, returned to every thread (lesson 11).
// scratch holds one float per warp. Every thread of the block must call it,
// and each call needs its own scratch array.
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

extern "C" __global__ void layernorm(const __half* x, const __half* gamma, const __half* beta,
                                     __half* y, int R, int C, float eps)
{
    __shared__ float scratch_mean[WARP];
    __shared__ float scratch_var[WARP];

    int row = blockIdx.x;
    const __half* xr = x + static_cast<size_t>(row) * C;
    __half* yr = y + static_cast<size_t>(row) * C;

    // Pass 1: the mean. Each half is widened to float as it is loaded
    // (exactly: every half is a float), and all sums stay in float.
    float s = 0.0f;
    for (int j = threadIdx.x; j < C; j += blockDim.x) {
        s += __half2float(xr[j]);
    }
    float mean = block_sum(s, scratch_mean) / C;

    // Pass 2: the variance, as the mean of squared distances from the mean.
    // The distances are small numbers around 0, so nothing large cancels.
    float q = 0.0f;
    for (int j = threadIdx.x; j < C; j += blockDim.x) {
        float d = __half2float(xr[j]) - mean;
        q += d * d;
    }
    float var = block_sum(q, scratch_var) / C;   // biased, like PyTorch
    float rstd = rsqrtf(var + eps);              // 1 / sqrt(var + eps)

    // Pass 3: normalise, scale, shift, and round to half once, at the end.
    for (int j = threadIdx.x; j < C; j += blockDim.x) {
        float v = (__half2float(xr[j]) - mean) * rstd;
        yr[j] = __float2half(v * __half2float(gamma[j]) + __half2float(beta[j]));
    }
}
