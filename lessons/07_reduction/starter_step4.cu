// Step 4 starter: several elements per thread with float4 loads.
// The launch uses blocks of 256 threads and a grid of at most 1024 blocks
// (about as many as the GPU holds at once), so each thread reads many
// elements in a grid-stride loop.
#define BLOCK 256
#define WARP 32
#define FULL_MASK 0xffffffffu

// Step 3's warp reduction: lane 0 receives the sum of v over the warp.
__device__ float warp_sum(float v)
{
    for (int offset = WARP / 2; offset > 0; offset /= 2) {
        v += __shfl_down_sync(FULL_MASK, v, offset);
    }
    return v;
}

extern "C" __global__ void __launch_bounds__(BLOCK) reduce_sum(const float* __restrict__ x, float* sum, int n)
{
    __shared__ float warp_sums[BLOCK / WARP];

    const int lane = threadIdx.x % WARP;
    const int warp = threadIdx.x / WARP;
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;  // place in the grid
    const int threads = blockDim.x * gridDim.x;

    // x starts 16-byte aligned, so it can be read as float4 up to the last
    // whole group of four elements.
    const float4* x4 = reinterpret_cast<const float4*>(x);
    const int n4 = n / 4;  // whole float4s in x

    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;

    // TODO 1: grid-stride loop over the n4 float4s, several per iteration,
    //         each into its own accumulator, so that their loads are under
    //         way at the same time. Then the float4s that are left.

    // TODO 2: the last n % 4 elements do not fill a float4. Add each of
    //         them exactly once, with ordinary loads.

    float v = (a0 + a1) + (a2 + a3);

    // TODO 3: step 3's block reduction: each warp's sum into warp_sums,
    //         a barrier, then warp 0 adds them and its lane 0 adds the
    //         block's total into *sum with one atomic.
}
