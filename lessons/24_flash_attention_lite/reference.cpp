// CPU reference for lesson 24_flash_attention_lite:
//   O[h] = softmax(Q[h] · K[h]^T / sqrt(D)) · V[h]   for every head h,
// with Q, K, V and O of shape H x N x D (row-major) and the softmax taken
// along each row (over the N keys). With causal != 0 (step 3), query i sees
// keys 0 ... i only: the others are left out of its softmax. Everything is
// computed in double and rounded to float once, so for the lesson's purposes
// the reference is
// exact; the tolerance covers the kernels' float rounding. The row maximum is
// subtracted before exp, as in lesson 11, so large scores cannot overflow
// here. Rows are independent and shared among the machine's cores (the
// reference is built with -fopenmp).
#include <cmath>
#include <cstddef>
#include <vector>

void attention_ref(const float* Q, const float* K, const float* V, float* O, int H, int N, int D, int causal)
{
    const double scale = 1.0 / std::sqrt(static_cast<double>(D));
    const long rows = static_cast<long>(H) * N;
    #pragma omp parallel
    {
        std::vector<double> s(static_cast<size_t>(N));
        std::vector<double> o(static_cast<size_t>(D));
        #pragma omp for schedule(static)
        for (long r = 0; r < rows; ++r) {
            const long h = r / N;
            const float* q = Q + static_cast<size_t>(r) * D;
            const float* Kh = K + static_cast<size_t>(h) * N * D;
            const float* Vh = V + static_cast<size_t>(h) * N * D;

            const int keys = causal ? static_cast<int>(r % N) + 1 : N;  // keys 0 ... keys-1
            double m = -INFINITY;
            for (int j = 0; j < keys; ++j) {
                const float* k = Kh + static_cast<size_t>(j) * D;
                double dot = 0.0;
                for (int c = 0; c < D; ++c) dot += static_cast<double>(q[c]) * k[c];
                s[j] = dot * scale;
                if (s[j] > m) m = s[j];
            }

            double l = 0.0;
            for (int c = 0; c < D; ++c) o[c] = 0.0;
            for (int j = 0; j < keys; ++j) {
                const double p = std::exp(s[j] - m);
                l += p;
                const float* v = Vh + static_cast<size_t>(j) * D;
                for (int c = 0; c < D; ++c) o[c] += p * v[c];
            }

            float* out = O + static_cast<size_t>(r) * D;
            for (int c = 0; c < D; ++c) out[c] = static_cast<float>(o[c] / l);
        }
    }
}
