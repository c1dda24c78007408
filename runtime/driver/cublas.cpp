// runtime/driver/cublas.cpp — cuBLAS through dlopen (cublas.hpp).
#include "driver/cublas.hpp"

#include "compile/nvrtc.hpp"
#include "core/error.hpp"

#include <dlfcn.h>

#include <mutex>
#include <vector>

namespace wb {

const CublasApi* CublasApi::get(std::string& why) {
    static std::once_flag once;
    static CublasApi* api = nullptr;
    static std::string reason;
    std::call_once(once, [] {
        std::vector<std::string> names = {"libcublas.so.13", "libcublas.so.12", "libcublas.so"};
        try {
            names.push_back((cuda_home() / "lib64" / "libcublas.so").string());
        } catch (const Error&) {
        }
        void* lib = nullptr;
        std::string tried;
        for (const std::string& name : names) {
            lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (lib) break;
            tried += (tried.empty() ? "" : ", ") + name;
        }
        if (!lib) {
            reason = "tried " + tried;
            return;
        }
        auto* a = new CublasApi;
        a->create = reinterpret_cast<decltype(a->create)>(dlsym(lib, "cublasCreate_v2"));
        a->destroy = reinterpret_cast<decltype(a->destroy)>(dlsym(lib, "cublasDestroy_v2"));
        a->sgemm = reinterpret_cast<decltype(a->sgemm)>(dlsym(lib, "cublasSgemm_v2"));
        a->set_stream = reinterpret_cast<decltype(a->set_stream)>(dlsym(lib, "cublasSetStream_v2"));
        if (!a->create || !a->destroy || !a->sgemm || !a->set_stream) {
            reason = "libcublas lacks cublasCreate_v2, cublasDestroy_v2, cublasSgemm_v2 or cublasSetStream_v2";
            delete a;
            return;
        }
        api = a;  // lives as long as the process, like the driver
    });
    if (!api) why = reason;
    return api;
}

}  // namespace wb
