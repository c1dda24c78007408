// Step 1 starter: int8 GEMV y = A · x, one warp per row, int32 sums.
// A (rows × cols) and x (cols) arrive in u8 buffers: each byte holds one
// int8 value in two's complement. Rows are ld bytes apart (ld is cols
// rounded up to a multiple of 4); the bytes past cols are padding.
#define WARP 32
#define FULL_MASK 0xffffffffu

// The sum of v over the 32 lanes of a warp; lane 0 receives the total
// (lesson 07, step 3).
__device__ int warp_sum(int v)
{
    for (int offset = WARP / 2; offset > 0; offset /= 2) {
        v += __shfl_down_sync(FULL_MASK, v, offset);
    }
    return v;
}

extern "C" __global__ void gemv_s8(const unsigned char* A_bytes, const unsigned char* x_bytes,
                                   int* y, int rows, int cols, int ld)
{
    const int lane = threadIdx.x % WARP;
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;  // one warp per row
    if (row >= rows) return;  // the whole warp leaves together

    int acc = 0;

    // TODO 1: point at this row of A and at x so that each byte reads as an
    //         int8 from -128 to 127, not as 0 to 255.

    // TODO 2: add this lane's share of the row's products into acc. Split
    //         the row's columns among the 32 lanes so that neighbouring lanes
    //         read neighbouring bytes, and count only the cols real columns.

    acc = warp_sum(acc);
    if (lane == 0) y[row] = acc;
}
