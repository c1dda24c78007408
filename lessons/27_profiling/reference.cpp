// CPU reference for lesson 27_profiling (the same as lesson 06): C[M,N] = A[M,K] * B[K,N], row-major.
// Sums are accumulated in double, so the reference is far more accurate
// than any float kernel; the lesson's tolerance covers the kernel's float
// rounding. The loops run i-k-j: the inner loop walks a row of B and a row
// of the accumulator contiguously, which the compiler vectorises, and the
// rows of C are shared among the machine's cores (OpenMP: the reference is
// built with -fopenmp), so the CPU side of the comparison is a fair one.
#include <algorithm>
#include <cstddef>
#include <vector>

void matmul_ref(const float* A, const float* B, float* C, int M, int N, int K)
{
    #pragma omp parallel
    {
        std::vector<double> acc(static_cast<size_t>(N));  // one row's sums, per thread
        #pragma omp for schedule(static)
        for (int i = 0; i < M; ++i) {
            std::fill(acc.begin(), acc.end(), 0.0);
            for (int k = 0; k < K; ++k) {
                const double a = A[static_cast<size_t>(i) * K + k];
                const float* b_row = B + static_cast<size_t>(k) * N;
                for (int j = 0; j < N; ++j) {
                    acc[j] += a * b_row[j];
                }
            }
            float* c_row = C + static_cast<size_t>(i) * N;
            for (int j = 0; j < N; ++j) {
                c_row[j] = static_cast<float>(acc[j]);
            }
        }
    }
}
