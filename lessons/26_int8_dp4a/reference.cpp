// CPU reference for lesson 26_int8_dp4a: y = A · x for int8 A (rows × cols)
// and int8 x, with int32 sums.
//
// The buffers are u8 (the lesson format has no i8 type): each byte holds an
// int8 value in two's complement, so byte 0xFF is -1 and 0x80 is -128.
// Casting the pointer to int8_t reads them as signed.
//
// Rows are stored ld = 4 * ceil(cols / 4) bytes apart, and x has ld bytes:
// the bytes from cols to ld - 1 are padding, not part of the matrix. The
// lesson fills them with random bytes, and the reference never reads them.
//
// |a·x| <= 128 · 128 = 2^14 and cols <= 65536 = 2^16, so a sum is at most
// 2^30 in size: int32 holds it, and the order of the additions cannot
// change the result.
void gemv_s8_ref(const uint8_t* A_bytes, const uint8_t* x_bytes, int32_t* y,
                 int32_t rows, int32_t cols, int32_t ld)
{
    const int8_t* A = reinterpret_cast<const int8_t*>(A_bytes);
    const int8_t* x = reinterpret_cast<const int8_t*>(x_bytes);
#pragma omp parallel for schedule(static)
    for (int32_t r = 0; r < rows; ++r) {
        const int8_t* a = A + static_cast<size_t>(r) * ld;
        int32_t acc = 0;
        for (int32_t k = 0; k < cols; ++k) {
            acc += int32_t(a[k]) * int32_t(x[k]);
        }
        y[r] = acc;
    }
}

// Step 3: the same integer sums, dequantised with one scale per row:
// yf[r] = float(acc) * scale[r]. Two roundings, both to nearest: the int32
// to float conversion (exact while |acc| <= 2^24) and the float product.
// This is what PyTorch computes for `acc.float() * scale`, and what a kernel
// computes for `float(acc) * scale[row]`, so the comparison is exact.
void gemv_dq_ref(const uint8_t* A_bytes, const uint8_t* x_bytes, const float* scale, float* yf,
                 int32_t rows, int32_t cols, int32_t ld)
{
    const int8_t* A = reinterpret_cast<const int8_t*>(A_bytes);
    const int8_t* x = reinterpret_cast<const int8_t*>(x_bytes);
#pragma omp parallel for schedule(static)
    for (int32_t r = 0; r < rows; ++r) {
        const int8_t* a = A + static_cast<size_t>(r) * ld;
        int32_t acc = 0;
        for (int32_t k = 0; k < cols; ++k) {
            acc += int32_t(a[k]) * int32_t(x[k]);
        }
        yf[r] = static_cast<float>(acc) * scale[r];
    }
}
