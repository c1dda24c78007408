// runtime/driver/cuda_driver.cpp — dlopen of libcuda.so.1 and entry-point resolution.
#include "driver/cuda_driver.hpp"

#include "core/error.hpp"
#include "driver/driver_library.hpp"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

namespace wb {

namespace {

std::once_flag g_once;
Driver* g_driver = nullptr;
Sentence g_reason;  // why there is no driver, as catalogue phrases (core/phrase.hpp)

#define WB_STR_EXPANDED(x) WB_STR(x)
#define WB_STR(x) #x

}  // namespace

const Driver* Driver::get() {
    std::call_once(g_once, [] {
        if (const char* off = std::getenv("WB_DISABLE_CUDA_DRIVER"); off && *off && *off != '0') {
            g_reason = {{"driver.disabled", {}}};
            return;
        }
        const DriverLibrary lib = open_driver_library("libcuda.so.1");
        void* h = lib.handle;
        if (!h) {
            g_reason = {{"driver.not_found", {}}};
            return;
        }
        auto* d = new Driver();
        d->handle_ = h;
        d->path_ = lib.path;
        // Resolve the exact symbol cuda.h maps each name to (cuMemAlloc -> cuMemAlloc_v2),
        // so every pointer has the signature the header declares. cuGetProcAddress at
        // CUDA_VERSION is not used on purpose: for some entry points it returns a newer
        // variant with another signature (cuCtxSynchronize -> cuCtxSynchronize_v2(CUcontext)).
        std::string missing;
#define WB_RESOLVE(name)                                                                                    \
    {                                                                                                       \
        void* fn = dlsym(h, WB_STR_EXPANDED(name));                                                         \
        if (!fn) missing += std::string(missing.empty() ? "" : ", ") + WB_STR_EXPANDED(name);               \
        d->api_.name = reinterpret_cast<decltype(d->api_.name)>(fn);                                        \
    }
        WB_CUDA_DRIVER_FUNCTIONS(WB_RESOLVE)
#undef WB_RESOLVE
        d->api_.cuFuncGetParamInfo = reinterpret_cast<decltype(d->api_.cuFuncGetParamInfo)>(dlsym(h, "cuFuncGetParamInfo"));
        if (!missing.empty()) {
            g_reason = {{"driver.too_old", {missing}}};
            dlclose(h);
            delete d;
            return;
        }
        CUresult r = d->api_.cuInit(0);
        if (r != CUDA_SUCCESS) {
            const char* name = nullptr;
            d->api_.cuGetErrorName(r, &name);
            if (r == CUDA_ERROR_NO_DEVICE)
                g_reason = {{"driver.no_gpu", {}}};
            else
                g_reason = {{"driver.failed", {name ? name : "unknown error"}}};
            dlclose(h);
            delete d;
            return;
        }
        d->api_.cuDriverGetVersion(&d->version_);
        g_driver = d;  // lives for the process: unloading libcuda at exit races with its own atexit handlers
    });
    return g_driver;
}

std::string Driver::unavailable_reason() { return render(unavailable_said(), "en"); }

Sentence Driver::unavailable_said() {
    get();
    return g_reason;
}

std::string Driver::error_name(CUresult r) const {
    const char* s = nullptr;
    if (api_.cuGetErrorName(r, &s) != CUDA_SUCCESS || !s) return "CUDA_ERROR_" + std::to_string(int(r));
    return s;
}

std::string Driver::error_string(CUresult r) const {
    const char* s = nullptr;
    if (api_.cuGetErrorString(r, &s) != CUDA_SUCCESS || !s) return "unknown CUDA error " + std::to_string(int(r));
    return s;
}

void Driver::check(CUresult r, const char* what) const {
    if (r == CUDA_SUCCESS) return;
    throw Error(ErrorKind::Cuda, std::string(what) + " failed: " + error_string(r), {}, cuda_error_hint(r),
                error_name(r));
}

bool cuda_error_is_sticky(CUresult r) {
    switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
    case CUDA_ERROR_CONTEXT_IS_DESTROYED:
        return true;
    default:
        return false;
    }
}

std::string cuda_error_hint(CUresult r) {
    switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
        return "a thread read or wrote outside a buffer: check your bounds test (if (i < n)) and your index arithmetic";
    case CUDA_ERROR_MISALIGNED_ADDRESS:
        return "a thread accessed memory at an address not aligned to the access size: check pointer casts and offsets";
    case CUDA_ERROR_ASSERT:
        return "an assert() in the kernel failed; its message, with block and thread, is in the output above";
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_LAUNCH_FAILED:
        return "the kernel trapped; look for out-of-range indices, a __trap(), or an unsupported instruction";
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
        return "the block needs more registers than the GPU has for it: use a smaller block";
    case CUDA_ERROR_INVALID_VALUE:
        return "a launch size or argument is out of range";
    case CUDA_ERROR_OUT_OF_MEMORY:
        return "the buffers do not fit in GPU memory: try a smaller test case";
    case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
        return "the PTX is newer than the driver: compile to the device's own sm_XX instead";
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
    case CUDA_ERROR_INVALID_IMAGE:
        return "the code was compiled for another GPU architecture: compile for this device's sm_XX";
    case CUDA_ERROR_NOT_FOUND:
        return "the kernel name was not found in the compiled module: check the name after __global__";
    default:
        return {};
    }
}

}  // namespace wb
