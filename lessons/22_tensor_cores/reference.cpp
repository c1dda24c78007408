// CPU reference for lesson 22_tensor_cores: C[M,N] = A[M,K] * B[K,N], row-major.
// A and B are FP16 (_Float16, GCC's half type, the lesson's f16 buffers); C is
// float. Each half widens exactly to double, each product of two halves is
// exact in double, and the sums are kept in double and rounded to float once:
// for the lesson's purposes the exact product of the FP16 inputs the kernel
// reads. The tolerance covers the kernel's float accumulation, not the
// rounding of the inputs to half, which both sides share. The loops run i-k-j
// and the rows of C are shared among the machine's cores (OpenMP), as in
// lesson 06's reference.
#include <algorithm>
#include <cstddef>
#include <vector>

void tensor_gemm_ref(const _Float16* A, const _Float16* B, float* C, int M, int N, int K)
{
    // B widened to double once, so that the inner loop is plain doubles.
    std::vector<double> b64(static_cast<size_t>(K) * N);
    for (size_t i = 0; i < b64.size(); ++i) b64[i] = static_cast<double>(B[i]);

    #pragma omp parallel
    {
        std::vector<double> acc(static_cast<size_t>(N));  // one row's sums, per thread
        #pragma omp for schedule(static)
        for (int i = 0; i < M; ++i) {
            std::fill(acc.begin(), acc.end(), 0.0);
            for (int k = 0; k < K; ++k) {
                const double a = static_cast<double>(A[static_cast<size_t>(i) * K + k]);
                const double* b_row = b64.data() + static_cast<size_t>(k) * N;
                for (int j = 0; j < N; ++j) acc[j] += a * b_row[j];
            }
            float* c_row = C + static_cast<size_t>(i) * N;
            for (int j = 0; j < N; ++j) c_row[j] = static_cast<float>(acc[j]);
        }
    }
}
