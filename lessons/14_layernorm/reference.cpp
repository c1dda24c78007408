// CPU reference for lesson 14_layernorm: for every row r of the R x C
// matrix x (row-major, FP16),
//     mean = (1/C) sum_j x[r][j]
//     var  = (1/C) sum_j (x[r][j] - mean)^2        (the biased variance, as
//                                                   PyTorch's LayerNorm uses)
//     y[r][j] = (x[r][j] - mean) / sqrt(var + eps) * gamma[j] + beta[j]
// _Float16 is GCC's half type (the lesson's f16 buffers); double(h) converts
// exactly. Everything is computed in double, two passes, and rounded to half
// once at the end, so for the lesson's purposes the reference is exact; the
// tolerance covers the kernels' float arithmetic and the final rounding to
// half. Rows are independent and shared among the machine's cores.
#include <cmath>
#include <cstddef>

void layernorm_ref(const _Float16* x, const _Float16* gamma, const _Float16* beta,
                   _Float16* y, int R, int C, float eps)
{
    #pragma omp parallel for schedule(static)
    for (int r = 0; r < R; ++r) {
        const _Float16* xr = x + static_cast<size_t>(r) * C;
        _Float16* yr = y + static_cast<size_t>(r) * C;

        double sum = 0.0;
        for (int j = 0; j < C; ++j) sum += static_cast<double>(xr[j]);
        const double mean = sum / C;

        double sq = 0.0;
        for (int j = 0; j < C; ++j) {
            const double d = static_cast<double>(xr[j]) - mean;
            sq += d * d;
        }
        const double var = sq / C;
        const double rstd = 1.0 / std::sqrt(var + static_cast<double>(eps));

        for (int j = 0; j < C; ++j) {
            const double v = (static_cast<double>(xr[j]) - mean) * rstd
                             * static_cast<double>(gamma[j]) + static_cast<double>(beta[j]);
            yr[j] = static_cast<_Float16>(v);
        }
    }
}
