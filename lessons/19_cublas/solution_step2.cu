// Lesson 19, step 2 solution: C = A * B, row-major, with cublasSgemm.
//
// A row-major M x N matrix has the same bytes as its transpose stored
// column-major. So cuBLAS, which reads column-major, sees our A as A^T
// (K x M, leading dimension K), our B as B^T (N x K, leading dimension N),
// and writes a column-major N x M matrix into dC, which we read as a
// row-major M x N one. Since (A B)^T = B^T A^T, asking cuBLAS for B^T A^T
// (B first, then A; m = N, n = M) leaves exactly our C in dC. No data is
// moved or transposed.

#include <cublas_v2.h>

#define CUBLAS_CHECK(call)                                                                  \
    do {                                                                                    \
        cublasStatus_t st_ = (call);                                                        \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                                 \
            char what_[512];                                                                \
            snprintf(what_, sizeof what_, "%s failed: %s", #call, cublasGetStatusName(st_)); \
            return wb_fail(ctx, __FILE__, __LINE__, what_);                                 \
        }                                                                                   \
    } while (0)

extern "C" int run(wb_host_ctx* ctx)
{
    const float* A = wb_buffer<float>(ctx, "A");
    const float* B = wb_buffer<float>(ctx, "B");
    float* C = wb_buffer<float>(ctx, "C");
    if (!A || !B || !C) return 1;
    const int M = wb_param_int(ctx, "M");
    const int N = wb_param_int(ctx, "N");
    const int K = wb_param_int(ctx, "K");

    float *dA = nullptr, *dB = nullptr, *dC = nullptr;
    WB_CHECK(cudaMalloc(&dA, (size_t)M * K * sizeof(float)));
    WB_CHECK(cudaMalloc(&dB, (size_t)K * N * sizeof(float)));
    WB_CHECK(cudaMalloc(&dC, (size_t)M * N * sizeof(float)));
    WB_CHECK(cudaMemcpy(dA, A, (size_t)M * K * sizeof(float), cudaMemcpyHostToDevice));
    WB_CHECK(cudaMemcpy(dB, B, (size_t)K * N * sizeof(float), cudaMemcpyHostToDevice));

    cublasHandle_t handle = nullptr;
    CUBLAS_CHECK(cublasCreate(&handle));
    const float one = 1.0f, zero = 0.0f;

    // C^T (N x M, column-major) = B^T (N x K, ld N) * A^T (K x M, ld K).
    CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K,
                             &one, dB, N, dA, K, &zero, dC, N));

    WB_CHECK(cudaMemcpy(C, dC, (size_t)M * N * sizeof(float), cudaMemcpyDeviceToHost));

    CUBLAS_CHECK(cublasDestroy(handle));
    WB_CHECK(cudaFree(dA));
    WB_CHECK(cudaFree(dB));
    WB_CHECK(cudaFree(dC));
    return 0;
}
