// Step 1 solution: row softmax, one thread per row, numerically stable.
// x and y are R x C matrices stored row by row: row r starts at x + r * C.
#include <cmath>

extern "C" __global__ void softmax(const float* x, float* y, int R, int C)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= R) return;  // no barrier in this kernel, so returning is fine

    // size_t: row * C stays below 2^31 in the lesson's cases, but would not
    // for every matrix a real model uses.
    const float* xr = x + static_cast<size_t>(row) * C;
    float* yr = y + static_cast<size_t>(row) * C;

    // Pass 1: the row's maximum. Subtracting it changes nothing in exact
    // arithmetic (exp(-m) cancels above and below the fraction bar), but
    // every exponential below is then at most exp(0) = 1: no overflow, and
    // the sum is at least 1 (the maximum's own term), so no 0 / 0 either.
    float m = -INFINITY;
    for (int j = 0; j < C; ++j) {
        m = fmaxf(m, xr[j]);
    }

    // Pass 2: the sum of the shifted exponentials.
    float s = 0.0f;
    for (int j = 0; j < C; ++j) {
        s += expf(xr[j] - m);
    }

    // Pass 3: each element's share. The row is read a third time; the
    // exponentials are recomputed rather than stored and read back.
    for (int j = 0; j < C; ++j) {
        yr[j] = expf(xr[j] - m) / s;
    }
}
