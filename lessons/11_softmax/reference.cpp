// CPU reference for lesson 11_softmax: y[r][j] = exp(x[r][j]) / sum_k exp(x[r][k])
// for every row r of the R x C matrix x (row-major).
// It subtracts the row's maximum first, which changes nothing mathematically
// (the factor exp(-max) cancels between the numerator and the sum) and keeps
// every exp in [0, 1]. Everything is computed in double and rounded to float
// once, so for the lesson's purposes the reference is exact; the tolerance
// covers the kernels' float rounding. Rows are independent, so they are
// shared among the machine's cores (the reference is built with -fopenmp).
#include <cmath>
#include <cstddef>

void softmax_ref(const float* x, float* y, int R, int C)
{
    #pragma omp parallel for schedule(static)
    for (int r = 0; r < R; ++r) {
        const float* xr = x + static_cast<size_t>(r) * C;
        float* yr = y + static_cast<size_t>(r) * C;

        double m = xr[0];
        for (int j = 1; j < C; ++j) {
            if (xr[j] > m) m = xr[j];
        }

        double s = 0.0;
        for (int j = 0; j < C; ++j) {
            s += std::exp(static_cast<double>(xr[j]) - m);
        }

        for (int j = 0; j < C; ++j) {
            yr[j] = static_cast<float>(std::exp(static_cast<double>(xr[j]) - m) / s);
        }
    }
}
