// runtime/driver/cuda_driver.hpp — the CUDA driver API, opened at run time.
//
// libcuda.so.1 is never linked. It is opened with dlopen the first time GPU
// work is asked for, and each entry point is resolved with dlsym under the
// exact name cuda.h maps it to (cuMemAlloc -> cuMemAlloc_v2), so every pointer
// has the signature the header declares. On a machine without a
// driver, Driver::get() returns null, unavailable_reason() says so in one sentence and everything that does not need
// a GPU (validate, compile, the CPU reference) keeps working.
#pragma once

#include <cuda.h>

#include "core/phrase.hpp"

#include <string>

namespace wb {

// X-macro of every driver entry point the runtime uses.
#define WB_CUDA_DRIVER_FUNCTIONS(X)                                                                       \
    X(cuInit) X(cuDriverGetVersion) X(cuGetErrorName) X(cuGetErrorString) X(cuDeviceGetCount)            \
    X(cuDeviceGet) X(cuDeviceGetName) X(cuDeviceGetAttribute) X(cuDeviceTotalMem)                         \
    X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuDevicePrimaryCtxReset)                   \
    X(cuCtxSetCurrent) X(cuCtxSynchronize) X(cuMemGetInfo) X(cuModuleLoadDataEx) X(cuModuleUnload)        \
    X(cuModuleGetFunction) X(cuFuncGetAttribute) X(cuFuncSetAttribute) X(cuMemAlloc) X(cuMemFree)         \
    X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemcpyDtoD) X(cuMemsetD8) X(cuLaunchKernel) X(cuEventCreate)      \
    X(cuEventDestroy) X(cuEventRecord) X(cuEventSynchronize) X(cuEventElapsedTime) X(cuModuleGetGlobal)    \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor) X(cuStreamCreate) X(cuStreamDestroy) X(cuStreamSynchronize) \
    X(cuStreamBeginCapture) X(cuStreamEndCapture) X(cuGraphInstantiate) X(cuGraphLaunch) X(cuGraphExecDestroy)  \
    X(cuGraphDestroy) X(cuDeviceGetPCIBusId) X(cuMemcpyDtoDAsync) X(cuMemsetD8Async) X(cuMemHostRegister)      \
    X(cuMemHostUnregister) X(cuDevicePrimaryCtxGetState) X(cuCtxGetLimit) X(cuCtxSetLimit)

struct DriverApi {
#define WB_DECLARE_FN(name) decltype(&::name) name = nullptr;
    WB_CUDA_DRIVER_FUNCTIONS(WB_DECLARE_FN)
#undef WB_DECLARE_FN
    // Optional (CUDA 12.4+): null on an older driver, and the argument check is skipped.
    decltype(&::cuFuncGetParamInfo) cuFuncGetParamInfo = nullptr;
};

class Driver {
public:
    // The process-wide driver, opened and initialised on first call (thread-safe).
    // Returns nullptr when there is none; unavailable_reason() then says why.
    static const Driver* get();
    static std::string unavailable_reason();
    static Sentence unavailable_said();  // the same, as catalogue phrases

    const DriverApi& api() const { return api_; }
    int version() const { return version_; }  // e.g. 13000
    // The libcuda.so.1 that loaded (driver_library.hpp says where it is looked for).
    const std::string& library_path() const { return path_; }

    // "CUDA_ERROR_ILLEGAL_ADDRESS" / the driver's sentence for it.
    std::string error_name(CUresult r) const;
    std::string error_string(CUresult r) const;

    // Throws wb::Error (Cuda) when r != CUDA_SUCCESS: "<what> failed: <driver's sentence>",
    // code = the error's name, hint = what a student can do about it.
    void check(CUresult r, const char* what) const;

private:
    Driver() = default;
    void* handle_ = nullptr;
    DriverApi api_;
    int version_ = 0;
    std::string path_;
};

// A hint a student can act on for common driver errors, or "".
std::string cuda_error_hint(CUresult r);

// True for errors after which the context is unusable (illegal address,
// misaligned address, trap, device assert, launch failure...).
bool cuda_error_is_sticky(CUresult r);

}  // namespace wb
