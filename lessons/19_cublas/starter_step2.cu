// Lesson 19, step 2 starter: the same C = A * B with cuBLAS's SGEMM.
//
// cuBLAS computes C = alpha * op(A) * op(B) + beta * C for matrices stored
// COLUMN-major, as in Fortran: element (i, j) of an m-row matrix with
// leading dimension ld is at [i + j * ld]. Our A, B and C are ROW-major.

#include <cublas_v2.h>

// Like WB_CHECK, for cuBLAS's status codes.
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

    // TODO: this is the call for column-major matrices, as cuBLAS's
    //       documentation writes it. Our matrices are row-major, so cuBLAS
    //       sees each of them transposed. Change the call so that the
    //       column-major matrix cuBLAS writes into dC is our row-major C.
    CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K,
                             &one, dA, M, dB, K, &zero, dC, M));

    // The handle's work runs on the default stream, so this copy waits for it.
    WB_CHECK(cudaMemcpy(C, dC, (size_t)M * N * sizeof(float), cudaMemcpyDeviceToHost));

    CUBLAS_CHECK(cublasDestroy(handle));
    WB_CHECK(cudaFree(dA));
    WB_CHECK(cudaFree(dB));
    WB_CHECK(cudaFree(dC));
    return 0;
}
