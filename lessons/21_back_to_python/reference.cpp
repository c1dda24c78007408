// CPU reference for lesson 21_back_to_python.
// softmax_ref:       y[r][j] = exp(x[r][j]) / sum_k exp(x[r][k])
// softmax_scale_ref: y[r][j] = exp(s·x[r][j]) / sum_k exp(s·x[r][k]), s = scale
// for every row r of the R x C matrix x (row-major). The row's maximum of
// the exponent is subtracted first (it cancels between the numerator and the
// sum) and everything is computed in double, rounded to float once. The
// product of two floats is exact in double, so x·scale is not rounded here;
// the tolerance covers the kernel's float rounding of it. Rows are
// independent, so they are shared among the machine's cores.
#include <cmath>
#include <cstddef>

static void softmax_row(const float* xr, float* yr, int C, double scale)
{
    double m = static_cast<double>(xr[0]) * scale;
    for (int j = 1; j < C; ++j) {
        double t = static_cast<double>(xr[j]) * scale;
        if (t > m) m = t;
    }
    double s = 0.0;
    for (int j = 0; j < C; ++j) {
        s += std::exp(static_cast<double>(xr[j]) * scale - m);
    }
    for (int j = 0; j < C; ++j) {
        yr[j] = static_cast<float>(std::exp(static_cast<double>(xr[j]) * scale - m) / s);
    }
}

void softmax_ref(const float* x, float* y, int R, int C)
{
    #pragma omp parallel for schedule(static)
    for (int r = 0; r < R; ++r) {
        softmax_row(x + static_cast<size_t>(r) * C, y + static_cast<size_t>(r) * C, C, 1.0);
    }
}

void softmax_scale_ref(const float* x, float* y, int R, int C, float scale)
{
    #pragma omp parallel for schedule(static)
    for (int r = 0; r < R; ++r) {
        softmax_row(x + static_cast<size_t>(r) * C, y + static_cast<size_t>(r) * C, C, static_cast<double>(scale));
    }
}
