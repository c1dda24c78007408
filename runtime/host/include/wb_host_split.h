// wb_host_split.h — what a host step's host code is compiled with when its
// kernels are compiled apart, by NVRTC (runtime/host/host_split.hpp).
//
// Each kernel of the file is, in the host code, a function of the same name
// and parameters that launches the NVRTC kernel with the configuration of the
// launch it is called from: `k<<<g, b, s, st>>>(args)` is compiled as
// `(wb_launch_config_(g, b, s, st), k)(args)`, as nvcc lowers it. The
// workbook calls wb_load_kernels_ with the NVRTC cubin before run().
#pragma once

#include <cuda_runtime.h>

#ifndef WB_SPLIT_KERNELS
#error "wb_host_split.h needs WB_SPLIT_KERNELS, the number of kernels"
#endif

struct wb_launch_config_t_ {
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream;
};
static thread_local wb_launch_config_t_ wb_launch_config_now_;
static cudaLibrary_t wb_library_ = nullptr;
static cudaKernel_t wb_kernels_[WB_SPLIT_KERNELS > 0 ? WB_SPLIT_KERNELS : 1];

static inline int wb_launch_config_(dim3 grid, dim3 block, size_t shared = 0, cudaStream_t stream = 0) {
    wb_launch_config_now_ = {grid, block, shared, stream};
    return 0;
}

// As <<<>>>: an error is left for cudaGetLastError and cudaPeekAtLastError.
static inline void wb_launch_kernel_(int kernel, void** args) {
    const wb_launch_config_t_ c = wb_launch_config_now_;
    (void)cudaLaunchKernel((const void*)wb_kernels_[kernel], c.grid, c.block, args, c.shared, c.stream);
}

// Loads the kernels' cubin and finds each kernel by its lowered name; the
// previous cubin, if any, is unloaded. 0 on success, else the CUDA error,
// with `error` saying which step failed.
extern "C" int wb_load_kernels_(const void* image, const char* const* lowered, int count, char* error,
                                size_t error_bytes) {
    if (wb_library_) {
        cudaLibraryUnload(wb_library_);
        wb_library_ = nullptr;
    }
    cudaError_t e = cudaLibraryLoadData(&wb_library_, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
    if (e != cudaSuccess) {
        snprintf(error, error_bytes, "cudaLibraryLoadData: %s", cudaGetErrorString(e));
        return (int)e;
    }
    for (int i = 0; i < count && i < (WB_SPLIT_KERNELS > 0 ? WB_SPLIT_KERNELS : 1); ++i) {
        e = cudaLibraryGetKernel(&wb_kernels_[i], wb_library_, lowered[i]);
        if (e != cudaSuccess) {
            snprintf(error, error_bytes, "cudaLibraryGetKernel(%s): %s", lowered[i], cudaGetErrorString(e));
            return (int)e;
        }
    }
    return 0;
}
