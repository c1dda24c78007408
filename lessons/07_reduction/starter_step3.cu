// Step 3 starter: warp shuffles, then one atomicAdd per block.
// The launch uses blocks of 256 threads (8 warps of 32) and caps the grid
// at 1024 blocks, so a thread may have to add up many elements.
#define BLOCK 256
#define WARP 32
#define FULL_MASK 0xffffffffu  // all 32 lanes of the warp take part

// The sum of v over the 32 lanes of a warp; lane 0 receives the total.
// All 32 lanes must call it together.
__device__ float warp_sum(float v)
{
    // TODO 2: the same halving tree as in step 2, but in registers: in each
    //         round every lane adds the value of the lane `offset` places
    //         above it (__shfl_down_sync), and offset halves each round.
    return v;
}

extern "C" __global__ void reduce_sum(const float* x, float* sum, int n)
{
    __shared__ float warp_sums[BLOCK / WARP];  // one slot per warp: 8

    int lane = threadIdx.x % WARP;  // place inside the warp, 0..31
    int warp = threadIdx.x / WARP;  // which warp of the block, 0..7

    // TODO 1: add up every element this thread owns. The grid has at most
    //         1024 * 256 threads, fewer than N in the large cases (the
    //         grid-stride loop of lesson 01, step 2). A thread that owns no
    //         element keeps v = 0.
    float v = 0.0f;

    // Every lane of every warp reaches this call, also lanes with v = 0.
    v = warp_sum(v);

    // TODO 3: lane 0 of each warp now holds that warp's sum. Keep it in the
    //         warp's slot of warp_sums, and wait until all 8 are there.

    // TODO 4: the first warp adds up the 8 warp sums (lanes without a warp
    //         sum contribute 0), and its lane 0 adds the block's total into
    //         *sum.
}
