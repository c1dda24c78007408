// Step 2 starter: the GEMV of step 1 with __dp4a, four int8 products per
// instruction. A lane reads 32-bit words of four packed int8 values.
// Rows start ld bytes apart, and ld is a multiple of 4, so every row starts
// on a 4-byte boundary. The bytes from cols to ld - 1 are padding: they hold
// garbage, not zeros.
#define WARP 32
#define FULL_MASK 0xffffffffu

__device__ int warp_sum(int v)
{
    for (int offset = WARP / 2; offset > 0; offset /= 2) {
        v += __shfl_down_sync(FULL_MASK, v, offset);
    }
    return v;
}

extern "C" __global__ void gemv_dp4a(const unsigned char* A_bytes, const unsigned char* x_bytes,
                                    int* y, int rows, int cols, int ld)
{
    const int lane = threadIdx.x % WARP;
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;  // one warp per row
    if (row >= rows) return;

    int acc = 0;

    // TODO 1: view this row of A and x as arrays of 32-bit words.

    // TODO 2: the words whose four bytes are all real columns: share them
    //         among the lanes as step 1 shared the bytes, and add each word's
    //         four signed products into acc with one __dp4a.

    // TODO 3: when cols is not a multiple of 4, the next word holds the last
    //         cols % 4 columns and some padding. Count the real bytes only,
    //         once per row.

    acc = warp_sum(acc);
    if (lane == 0) y[row] = acc;
}
