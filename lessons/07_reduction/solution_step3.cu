// Step 3 solution: warp shuffles, then one atomicAdd per block.
// The launch uses blocks of 256 threads (8 warps of 32) and caps the grid
// at 1024 blocks, so a thread may have to add up many elements.
#define BLOCK 256
#define WARP 32
#define FULL_MASK 0xffffffffu  // all 32 lanes of the warp take part

// The sum of v over the 32 lanes of a warp; lane 0 receives the total.
// Each round, lane l adds the value of lane l + offset: after offsets
// 16, 8, 4, 2, 1 lane 0 holds all 32. (Lanes with l + offset >= 32 get their
// own value back; what they end up with is never used.) No shared memory and
// no __syncthreads(): the values move from register to register.
__device__ float warp_sum(float v)
{
    for (int offset = WARP / 2; offset > 0; offset /= 2) {
        v += __shfl_down_sync(FULL_MASK, v, offset);
    }
    return v;
}

extern "C" __global__ void reduce_sum(const float* x, float* sum, int n)
{
    __shared__ float warp_sums[BLOCK / WARP];

    int lane = threadIdx.x % WARP;
    int warp = threadIdx.x / WARP;

    // Grid-stride loop: each thread adds its elements in a register. The
    // loop condition is also the bounds test; a thread with no element
    // keeps v = 0 and still takes part in the shuffles below.
    float v = 0.0f;
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        v += x[i];
    }

    v = warp_sum(v);                   // lane 0 of each warp: the warp's sum
    if (lane == 0) {
        warp_sums[warp] = v;
    }
    __syncthreads();                   // all 8 warp sums stored

    // The whole of warp 0 takes this branch, so all 32 lanes reach the
    // shuffles that FULL_MASK names.
    if (warp == 0) {
        v = (lane < BLOCK / WARP) ? warp_sums[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0) {
            atomicAdd(sum, v);         // one atomic per block
        }
    }
}
