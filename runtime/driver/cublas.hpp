// runtime/driver/cublas.hpp — cuBLAS, loaded at run time from the toolkit
// (libcublas.so.13, .12, or <cuda>/lib64), for the measured SGEMM ceiling and
// the cublas_sgemm baseline. Only the entry points used are resolved; the
// types come from the toolkit's cublas_v2.h.
#pragma once

#include <cublas_v2.h>

#include <string>

namespace wb {

struct CublasApi {
    cublasStatus_t (*create)(cublasHandle_t*) = nullptr;
    cublasStatus_t (*destroy)(cublasHandle_t) = nullptr;
    cublasStatus_t (*sgemm)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const float*,
                            const float*, int, const float*, int, const float*, float*, int) = nullptr;
    cublasStatus_t (*set_stream)(cublasHandle_t, cudaStream_t) = nullptr;

    // The process-wide cuBLAS, loaded on first call; nullptr, with `why` set, when it cannot be.
    static const CublasApi* get(std::string& why);
};

// A cuBLAS handle on the current context, destroyed with this object.
class CublasHandle {
public:
    explicit CublasHandle(const CublasApi& api) : api_(api) {
        if (api_.create(&h_) != CUBLAS_STATUS_SUCCESS) h_ = nullptr;
    }
    ~CublasHandle() {
        if (h_) api_.destroy(h_);
    }
    CublasHandle(const CublasHandle&) = delete;
    CublasHandle& operator=(const CublasHandle&) = delete;
    cublasHandle_t get() const { return h_; }

private:
    const CublasApi& api_;
    cublasHandle_t h_ = nullptr;
};

// Row-major C (m x n) = A (m x k) B (k x n), on the handle's stream: cuBLAS
// is column-major, so this asks it for C^T = B^T A^T, which is the same memory.
inline cublasStatus_t sgemm_row_major(const CublasApi& api, cublasHandle_t h, int m, int n, int k, const float* a,
                                      const float* b, float* c) {
    const float alpha = 1.0f, beta = 0.0f;
    return api.sgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, n, a, k, &beta, c, n);
}

}  // namespace wb
