// Step 2 solution: the same GEMV with __dp4a. Each lane reads 32-bit words,
// four int8 values at a time, and one __dp4a multiplies the four pairs and
// adds the four products to its int32 accumulator.
// Rows start ld bytes apart, and ld is a multiple of 4, so every row starts
// on a 4-byte boundary and can be read as ints.
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

    // Four int8 values per word: byte 0 (the lowest) is column 4w, byte 3
    // is column 4w + 3.
    const int* a = reinterpret_cast<const int*>(A_bytes + (size_t)row * ld);
    const int* x = reinterpret_cast<const int*>(x_bytes);

    const int full = cols / 4;  // words whose four bytes are all real columns
    int acc = 0;
    for (int w = lane; w < full; w += WARP) {
        acc = __dp4a(a[w], x[w], acc);  // the int overload: signed bytes
    }

    // The ragged tail: the last word holds cols % 4 real bytes and padding.
    // Zero the padding bytes of one operand, so that they add 0.
    const int tail = cols % 4;
    if (tail != 0 && lane == 0) {
        const int mask = (1 << (8 * tail)) - 1;  // 0xFF, 0xFFFF or 0xFFFFFF
        acc = __dp4a(a[full] & mask, x[full], acc);
    }

    acc = warp_sum(acc);
    if (lane == 0) y[row] = acc;
}
