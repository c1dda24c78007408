// runtime/driver/gpu.hpp — RAII owners for driver objects, and one device's context.
//
// Every handle the runtime takes from the driver has an owner here, so an
// exception anywhere in a run frees device memory, events and modules.
#pragma once

#include "driver/cuda_driver.hpp"
#include "driver/device.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wb {

class GpuContext {
public:
    // Retains the primary context of device `ordinal` and makes it current on
    // the calling thread. Throws wb::Error (NoDevice / Cuda).
    explicit GpuContext(int ordinal = 0);
    ~GpuContext();
    GpuContext(const GpuContext&) = delete;
    GpuContext& operator=(const GpuContext&) = delete;

    void make_current() const;  // for use from another thread
    const Driver& driver() const { return *driver_; }
    const DeviceInfo& info() const { return info_; }
    CUdevice device() const { return device_; }

    // The device heap a kernel's malloc and new take from
    // (CU_LIMIT_MALLOC_HEAP_SIZE, cudaLimitMallocHeapSize), made `bytes`
    // unless it is already (or the driver rounded our last request for
    // `bytes` to what it holds now). False when the driver refuses with
    // CUDA_ERROR_INVALID_VALUE: a kernel that calls malloc or free has run in
    // this context, and from then on its heap's size is fixed. Other errors throw.
    bool set_malloc_heap(std::size_t bytes);
    std::size_t malloc_heap() const;  // the size now (cuCtxGetLimit)

private:
    const Driver* driver_ = nullptr;
    CUdevice device_ = 0;
    CUcontext ctx_ = nullptr;
    DeviceInfo info_;
    std::size_t heap_asked_ = 0, heap_granted_ = 0;  // our last successful request, and what the driver made of it
};

// Device memory. With `guard` > 0 the allocation has that many bytes before
// and after the buffer, which the run fills with a pattern and checks after
// each validation run: a stray write past either end lands there instead of
// in the allocator's silent padding, and is reported.
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(const Driver& d, std::size_t bytes, std::size_t guard = 0);
    ~DeviceBuffer();
    DeviceBuffer(DeviceBuffer&& o) noexcept;
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    CUdeviceptr ptr() const { return ptr_; }
    std::size_t size() const { return bytes_; }
    void upload(const void* src) const;
    void download(void* dst) const;
    void download_range(void* dst, std::size_t offset, std::size_t bytes) const;
    void fill_bytes(unsigned char value) const;

    // Where the guard zones were written: the byte offset of the first
    // changed byte from the buffer's start (negative: before it), or nullopt
    // when both zones still hold `pattern` everywhere.
    void fill_guards(unsigned char pattern) const;
    std::optional<long long> first_guard_write(unsigned char pattern) const;

private:
    const Driver* d_ = nullptr;
    CUdeviceptr ptr_ = 0;   // the buffer itself, past the leading guard
    std::size_t bytes_ = 0;
    std::size_t guard_ = 0;
};

// True when a compiled image holds module-scope variables that kernels can
// write (__device__ globals: a cubin's .nv.global sections, a PTX image's
// .global declarations). Such a module keeps their values from one run to the
// next, so it is loaded afresh for every run; any other module may be reused.
// An image that cannot be read is taken to have some.
bool image_has_writable_globals(const std::string& image, bool is_cubin);

class GpuModule {
public:
    // Loads a cubin or PTX image. On failure the driver's JIT error log is in the message.
    GpuModule(const Driver& d, const std::string& image);
    ~GpuModule();
    GpuModule(const GpuModule&) = delete;
    GpuModule& operator=(const GpuModule&) = delete;

    CUfunction function(const std::string& lowered_name, const std::string& display_name) const;
    KernelResources resources(CUfunction f) const;
    // The driver's own occupancy: blocks of `block_threads` with
    // `dynamic_shared` bytes that one SM holds at once.
    int active_blocks_per_sm(CUfunction f, int block_threads, std::size_t dynamic_shared) const;
    // A global (a __constant__ variable) of the module: its address and size,
    // or nullopt when the module has none of that name.
    std::optional<std::pair<CUdeviceptr, std::size_t>> global(const std::string& name) const;
    // The byte size of each of the kernel's parameters, in order, from the
    // driver (cuFuncGetParamInfo); nullopt when the driver cannot tell.
    std::optional<std::vector<std::size_t>> param_sizes(CUfunction f) const;

private:
    const Driver* d_;
    CUmodule mod_ = nullptr;
};

class GpuEvent {
public:
    explicit GpuEvent(const Driver& d);
    ~GpuEvent();
    GpuEvent(const GpuEvent&) = delete;
    GpuEvent& operator=(const GpuEvent&) = delete;
    CUevent get() const { return ev_; }

private:
    const Driver* d_;
    CUevent ev_ = nullptr;
};

// A stream of its own (non-blocking: it does not wait for the default stream).
class GpuStream {
public:
    explicit GpuStream(const Driver& d);
    ~GpuStream();
    GpuStream(const GpuStream&) = delete;
    GpuStream& operator=(const GpuStream&) = delete;
    CUstream get() const { return s_; }

private:
    const Driver* d_;
    CUstream s_ = nullptr;
};

// The work `capture` issues on `stream`, captured into a CUDA Graph and
// instantiated, ready to replay with launch(). A capture that throws ends
// the capture (its graph discarded) before the exception goes on.
class GpuGraph {
public:
    template <class Capture>
    GpuGraph(const Driver& d, CUstream stream, Capture&& capture) : d_(&d) {
        begin(stream);
        try {
            capture();
        } catch (...) {
            abandon(stream);
            throw;
        }
        end(stream);
    }
    ~GpuGraph();
    GpuGraph(const GpuGraph&) = delete;
    GpuGraph& operator=(const GpuGraph&) = delete;
    void launch(CUstream stream) const;

private:
    void begin(CUstream stream);
    void end(CUstream stream);
    void abandon(CUstream stream) noexcept;
    const Driver* d_;
    CUgraph graph_ = nullptr;
    CUgraphExec exec_ = nullptr;
};

}  // namespace wb
