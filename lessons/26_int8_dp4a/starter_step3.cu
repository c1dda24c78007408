// Step 3 starter: step 2's __dp4a GEMV, whose int32 sum is exact. The
// output is now float: the real-valued result of the quantised layer.
#define WARP 32
#define FULL_MASK 0xffffffffu

__device__ int warp_sum(int v)
{
    for (int offset = WARP / 2; offset > 0; offset /= 2) {
        v += __shfl_down_sync(FULL_MASK, v, offset);
    }
    return v;
}

extern "C" __global__ void gemv_dq(const unsigned char* A_bytes, const unsigned char* x_bytes,
                                  const float* scale, float* yf, int rows, int cols, int ld)
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
    // TODO: lane 0 writes this row's real-valued result: the integer sum
    //       times the row's scale, computed as the text says (which value is
    //       converted to float, and when).
}
