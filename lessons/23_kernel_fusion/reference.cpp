// CPU reference for lesson 23_kernel_fusion: for an R x C matrix x (row-major,
// float), a bias per column and a residual of the same shape as x,
//     y[r][c] = GELU(x[r][c] + bias[c]) + residual[r][c]
// with GELU's tanh approximation, as PyTorch's gelu(approximate='tanh'):
//     GELU(v) = 0.5 v (1 + tanh(sqrt(2/pi) (v + 0.044715 v^3)))
// Everything is computed in double and rounded to float once per stored
// value, so the reference is exact for the lesson's purposes; the tolerance
// covers the kernel's float arithmetic and tanhf.
#include <cmath>
#include <cstddef>

static inline double gelu_tanh_ref(double v)
{
    const double k = 0.79788456080286535588;   // sqrt(2 / pi)
    return 0.5 * v * (1.0 + std::tanh(k * (v + 0.044715 * v * v * v)));
}

// Step 1: three kernels, each storing its result. h = x + bias,
// g = GELU(h), y = g + residual. Each stage starts from the float the stage
// before it stored, as the kernels do, so each compared buffer checks one
// kernel.
void three_kernels_ref(const float* x, const float* bias, const float* residual,
                       float* h, float* g, float* y, int R, int C)
{
    #pragma omp parallel for schedule(static)
    for (int r = 0; r < R; ++r) {
        const std::size_t base = static_cast<std::size_t>(r) * C;
        for (int c = 0; c < C; ++c) {
            const std::size_t i = base + c;
            h[i] = static_cast<float>(static_cast<double>(x[i]) + static_cast<double>(bias[c]));
            g[i] = static_cast<float>(gelu_tanh_ref(static_cast<double>(h[i])));
            y[i] = static_cast<float>(static_cast<double>(g[i]) + static_cast<double>(residual[i]));
        }
    }
}

// Steps 2 and 3: the fused computation, one rounding at the end.
void bias_gelu_residual_ref(const float* x, const float* bias, const float* residual,
                            float* y, int R, int C)
{
    #pragma omp parallel for schedule(static)
    for (int r = 0; r < R; ++r) {
        const std::size_t base = static_cast<std::size_t>(r) * C;
        for (int c = 0; c < C; ++c) {
            const std::size_t i = base + c;
            const double v = static_cast<double>(x[i]) + static_cast<double>(bias[c]);
            y[i] = static_cast<float>(gelu_tanh_ref(v) + static_cast<double>(residual[i]));
        }
    }
}
