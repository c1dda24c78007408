// Step 1 starter: layer normalisation of each row, one block per row, two
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

    // No early return: every thread must reach both block_sum calls.

    // TODO 1: walk the row with a stride of the block size and add up this
    //         thread's elements in float. Then the whole block's sum, and
    //         the row's mean.

    // TODO 2: a second walk: add up the squared distances from the mean,
    //         in float. Then the row's variance, and the factor that divides
    //         by the standard deviation (eps keeps it finite).

    // TODO 3: a third walk: normalise each element, scale and shift it by
    //         its column's gamma and beta, and store it as half.
}
