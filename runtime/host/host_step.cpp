// runtime/host/host_step.cpp — loading a host step's library and calling its run().
#include "host/host_step.hpp"

#include "core/error.hpp"
#include "driver/cuda_driver.hpp"
#include "host/include/wb_host.h"
#include "sandbox/threads.hpp"

#include <cxxabi.h>
#include <dlfcn.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <typeinfo>

namespace wb {

// The CUDA runtime the library was linked with (the shared libcudart, so
// every host step in this process shares one), reached through the library.
struct LoadedHostStep::Cudart {
    cudaError_t (*get_device_count)(int*) = nullptr;
    cudaError_t (*set_device)(int) = nullptr;
    cudaError_t (*device_synchronize)() = nullptr;
    cudaError_t (*get_last_error)() = nullptr;
    const char* (*error_name)(cudaError_t) = nullptr;
    const char* (*error_string)(cudaError_t) = nullptr;
};

namespace {

wb_dtype abi_dtype(DType t) {
    switch (t) {
    case DType::U8: return WB_U8;
    case DType::I32: return WB_I32;
    case DType::U32: return WB_U32;
    case DType::F32: return WB_F32;
    case DType::F64: return WB_F64;
    case DType::F16: return WB_F16;
    }
    return WB_F32;
}

// Errors after which the context cannot be used again (CUDA's "sticky" ones).
bool is_sticky(cudaError_t e) {
    switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorAssert:
    case cudaErrorMisalignedAddress:
    case cudaErrorIllegalInstruction:
    case cudaErrorHardwareStackError:
    case cudaErrorInvalidPc:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorContextIsDestroyed: return true;
    default: return false;
    }
}

}  // namespace

LoadedHostStep::LoadedHostStep(const HostStepBuild& build) {
    ::dlerror();
    handle_ = ::dlopen(build.library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
        const char* why = ::dlerror();
        throw Error(ErrorKind::Compile, std::string("the step's library does not load: ") + (why ? why : "unknown"));
    }
    run_ = reinterpret_cast<int (*)(void*)>(::dlsym(handle_, "run"));
    rt_ = new Cudart();
    auto sym = [&](const char* name, auto& fn) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(handle_, name));
        return fn != nullptr;
    };
    const bool runtime_ok = sym("cudaGetDeviceCount", rt_->get_device_count) && sym("cudaSetDevice", rt_->set_device) &&
                            sym("cudaDeviceSynchronize", rt_->device_synchronize) &&
                            sym("cudaGetLastError", rt_->get_last_error) && sym("cudaGetErrorName", rt_->error_name) &&
                            sym("cudaGetErrorString", rt_->error_string);
    if (!run_ || !runtime_ok) {
        ::dlclose(handle_);
        handle_ = nullptr;
        delete rt_;
        rt_ = nullptr;
        throw Error(ErrorKind::Compile, !run_ ? "the file defines no extern \"C\" int run(wb_host_ctx* ctx): the workbook calls it"
                                              : "the step's library is not linked with the CUDA runtime (libcudart)");
    }
    if (build.split && !build.kernels_image.empty()) {
        using LoadKernels = int (*)(const void*, const char* const*, int, char*, std::size_t);
        const auto load = reinterpret_cast<LoadKernels>(::dlsym(handle_, "wb_load_kernels_"));
        std::vector<const char*> lowered;
        for (const auto& l : build.kernels_lowered) lowered.push_back(l.c_str());
        char why[512] = "";
        const int e = load ? load(build.kernels_image.data(), lowered.data(), int(lowered.size()), why, sizeof why) : -1;
        if (e != 0) {
            ::dlclose(handle_);
            handle_ = nullptr;
            delete rt_;
            rt_ = nullptr;
            throw Error(ErrorKind::Cuda, std::string("the step's kernels do not load: ") +
                                             (load ? why : "the library has no wb_load_kernels_"));
        }
    }
}

LoadedHostStep::~LoadedHostStep() {
    if (handle_) ::dlclose(handle_);
    delete rt_;
}

int LoadedHostStep::device_count() const {
    int n = 0;
    return rt_->get_device_count(&n) == cudaSuccess ? n : 0;
}

HostThrown describe_current_exception() {
    HostThrown t;
    const std::type_info* type = abi::__cxa_current_exception_type();
    if (type) {
        int status = 0;
        char* name = abi::__cxa_demangle(type->name(), nullptr, nullptr, &status);
        t.type = status == 0 && name ? name : type->name();
        std::free(name);
    } else {
        t.type = "an exception";
    }
    try {
        throw;
    } catch (const std::exception& e) {
        t.what = e.what();
    } catch (...) {
        // Not a std::exception: the type is all there is to say.
    }
    return t;
}

Phrase thrown_phrase(const HostThrown& t) {
    if (t.what) return {"host.threw", {t.type, *t.what}};
    return {"host.threw_bare", {t.type}};
}

HostCall LoadedHostStep::call(std::vector<HostBuffer>& buffers, const std::map<std::string, double>& params, int device,
                              ActivityTracer* tracer) const {
    std::vector<wb_host_buffer> abi_buffers;
    for (auto& b : buffers) {
        wb_host_buffer a{};
        a.name = b.name.c_str();
        a.data = b.mutable_data();
        a.count = b.count();
        a.bytes = b.size_bytes();
        a.dtype = abi_dtype(b.type);
        a.rank = int(std::min<std::size_t>(b.shape.size(), 4));
        for (int i = 0; i < a.rank; ++i) a.shape[i] = static_cast<long long>(b.shape[std::size_t(i)]);
        a.is_output = b.role != BufferRole::Input;
        abi_buffers.push_back(a);
    }
    std::vector<const char*> names;
    std::vector<double> values;
    for (const auto& [n, v] : params) {
        names.push_back(n.c_str());
        values.push_back(v);
    }
    wb_host_ctx ctx{};
    ctx.abi = WB_HOST_ABI;
    ctx.device = device;
    ctx.buffer_count = int(abi_buffers.size());
    ctx.buffers = abi_buffers.data();
    ctx.param_count = int(names.size());
    ctx.param_names = names.data();
    ctx.param_values = values.data();

    HostCall out;
    rt_->set_device(device);
    rt_->get_last_error();  // an earlier run's unchecked error is not this one's

    std::uint64_t begin_ns = 0;
    if (tracer) {
        begin_ns = tracer->now_ns();
        tracer->begin(begin_ns);
    }
    const auto t0 = std::chrono::steady_clock::now();
    // An exception out of run() is the student's error, said with its type
    // and what(), not the workbook's (it would otherwise reach the worker's
    // own handler as an "internal error").
    const ThreadCensus threads_before = take_thread_census();
    try {
        out.code = run_(&ctx);
    } catch (...) {
        out.threw = describe_current_exception();
    }
    const auto t1 = std::chrono::steady_clock::now();
    out.threads_left = threads_started_since(threads_before);
    const std::uint64_t returned_ns = tracer ? tracer->now_ns() : 0;
    out.wall_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    ctx.error[sizeof ctx.error - 1] = 0;
    out.error = ctx.error;

    // Wait for every GPU whose context is active (run() may have used
    // several), then ask for an error run() did not check.
    cudaError_t pending = cudaSuccess;
    const Driver* drv = Driver::get();
    const int count = device_count();
    for (int d = 0; d < count; ++d) {
        unsigned flags = 0;
        int active = d == device;
        CUdevice dev = 0;
        if (!active && drv && drv->api().cuDeviceGet(&dev, d) == CUDA_SUCCESS)
            drv->api().cuDevicePrimaryCtxGetState(dev, &flags, &active);
        if (!active) continue;
        rt_->set_device(d);
        const cudaError_t e = rt_->device_synchronize();
        if (e != cudaSuccess && pending == cudaSuccess) pending = e;
    }
    if (pending == cudaSuccess) pending = rt_->get_last_error();
    if (pending != cudaSuccess) {
        out.cuda_error = std::string(rt_->error_name(pending)) + ": " + rt_->error_string(pending);
        out.sticky = is_sticky(pending);
    }
    if (!out.sticky) rt_->set_device(device);
    if (tracer) out.trace = tracer->end(begin_ns, returned_ns);
    return out;
}

}  // namespace wb
