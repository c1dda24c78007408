// Step 1 solution: int8 GEMV y = A · x, one warp per row, int32 sums.
// A and x arrive as bytes (u8 buffers); each byte is an int8 in two's
// complement, so the kernel reads them through signed char pointers.
// Rows are ld bytes apart (ld = 4 * ceil(cols / 4)); the bytes from cols to
// ld - 1 of each row, and of x, are padding and must not be counted.
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

    // The same bytes, read as signed 8-bit integers: 0xFF is -1, not 255.
    const signed char* a = reinterpret_cast<const signed char*>(A_bytes) + (size_t)row * ld;
    const signed char* x = reinterpret_cast<const signed char*>(x_bytes);

    // Lane l takes columns l, l + 32, l + 64, ...: the 32 lanes read 32
    // neighbouring bytes of the row at each step (coalesced, lesson 06).
    int acc = 0;
    for (int k = lane; k < cols; k += WARP) {
        acc += int(a[k]) * int(x[k]);  // int8 · int8 fits easily in an int
    }

    acc = warp_sum(acc);
    if (lane == 0) y[row] = acc;
}
