// runtime/driver/gpu.cpp — RAII owners for driver objects (see gpu.hpp).
#include "driver/gpu.hpp"

#include "core/error.hpp"

#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace wb {

GpuContext::GpuContext(int ordinal) {
    driver_ = Driver::get();
    if (!driver_) throw Error(ErrorKind::NoDevice, Driver::unavailable_reason()).with_said(Driver::unavailable_said());
    auto devices = query_devices();
    if (ordinal < 0 || ordinal >= int(devices.size()))
        throw Error(ErrorKind::Usage, "there is no GPU number " + std::to_string(ordinal) + " (this computer has " +
                                          std::to_string(devices.size()) + ")");
    info_ = devices[ordinal];
    const auto& cu = driver_->api();
    driver_->check(cu.cuDeviceGet(&device_, ordinal), "cuDeviceGet");
    driver_->check(cu.cuDevicePrimaryCtxRetain(&ctx_, device_), "cuDevicePrimaryCtxRetain");
    try {
        make_current();
        std::size_t free_b = 0, total_b = 0;
        if (cu.cuMemGetInfo(&free_b, &total_b) == CUDA_SUCCESS) info_.free_memory = free_b;
    } catch (...) {
        cu.cuDevicePrimaryCtxRelease(device_);
        throw;
    }
}

GpuContext::~GpuContext() {
    if (ctx_) driver_->api().cuDevicePrimaryCtxRelease(device_);
}

void GpuContext::make_current() const { driver_->check(driver_->api().cuCtxSetCurrent(ctx_), "cuCtxSetCurrent"); }

std::size_t GpuContext::malloc_heap() const {
    std::size_t now = 0;
    driver_->check(driver_->api().cuCtxGetLimit(&now, CU_LIMIT_MALLOC_HEAP_SIZE), "reading the device heap's size (cuCtxGetLimit)");
    return now;
}

bool GpuContext::set_malloc_heap(std::size_t bytes) {
    // Read every time: a host step's run() may have set it with cudaDeviceSetLimit.
    const std::size_t now = malloc_heap();
    if (now == bytes || (bytes == heap_asked_ && now == heap_granted_)) return true;
    const CUresult r = driver_->api().cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, bytes);
    if (r == CUDA_ERROR_INVALID_VALUE) return false;
    driver_->check(r, "setting the device heap's size (cuCtxSetLimit)");
    heap_asked_ = bytes;
    heap_granted_ = malloc_heap();
    return true;
}

DeviceBuffer::DeviceBuffer(const Driver& d, std::size_t bytes, std::size_t guard) : d_(&d), bytes_(bytes), guard_(guard) {
    CUdeviceptr base = 0;
    CUresult r = d.api().cuMemAlloc(&base, (bytes ? bytes : 1) + 2 * guard);
    if (r != CUDA_SUCCESS) d.check(r, ("allocating " + std::to_string(bytes) + " bytes of GPU memory").c_str());
    ptr_ = base + guard;
}

DeviceBuffer::~DeviceBuffer() {
    if (ptr_) d_->api().cuMemFree(ptr_ - guard_);
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& o) noexcept
    : d_(o.d_), ptr_(std::exchange(o.ptr_, 0)), bytes_(std::exchange(o.bytes_, 0)), guard_(std::exchange(o.guard_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
        if (ptr_) d_->api().cuMemFree(ptr_ - guard_);
        d_ = o.d_;
        ptr_ = std::exchange(o.ptr_, 0);
        bytes_ = std::exchange(o.bytes_, 0);
        guard_ = std::exchange(o.guard_, 0);
    }
    return *this;
}

void DeviceBuffer::fill_guards(unsigned char pattern) const {
    if (!guard_) return;
    d_->check(d_->api().cuMemsetD8(ptr_ - guard_, pattern, guard_), "filling a guard zone");
    d_->check(d_->api().cuMemsetD8(ptr_ + bytes_, pattern, guard_), "filling a guard zone");
}

std::optional<long long> DeviceBuffer::first_guard_write(unsigned char pattern) const {
    if (!guard_) return std::nullopt;
    std::vector<unsigned char> before(guard_), after(guard_);
    d_->check(d_->api().cuMemcpyDtoH(before.data(), ptr_ - guard_, guard_), "reading a guard zone");
    d_->check(d_->api().cuMemcpyDtoH(after.data(), ptr_ + bytes_, guard_), "reading a guard zone");
    for (std::size_t i = 0; i < guard_; ++i)  // nearest the buffer first
        if (after[i] != pattern) return static_cast<long long>(bytes_ + i);
    for (std::size_t i = guard_; i-- > 0;)
        if (before[i] != pattern) return -static_cast<long long>(guard_ - i);
    return std::nullopt;
}

void DeviceBuffer::upload(const void* src) const {
    if (bytes_) d_->check(d_->api().cuMemcpyHtoD(ptr_, src, bytes_), "copying a buffer to the GPU");
}

void DeviceBuffer::download(void* dst) const {
    if (bytes_) d_->check(d_->api().cuMemcpyDtoH(dst, ptr_, bytes_), "copying a buffer from the GPU");
}

void DeviceBuffer::download_range(void* dst, std::size_t offset, std::size_t bytes) const {
    if (offset > bytes_ || bytes > bytes_ - offset)
        throw Error(ErrorKind::Internal, "a read of bytes " + std::to_string(offset) + ".." + std::to_string(offset + bytes) +
                                             " is outside a buffer of " + std::to_string(bytes_));
    if (bytes) d_->check(d_->api().cuMemcpyDtoH(dst, ptr_ + offset, bytes), "copying a buffer from the GPU");
}

void DeviceBuffer::fill_bytes(unsigned char value) const {
    if (bytes_) d_->check(d_->api().cuMemsetD8(ptr_, value, bytes_), "filling a buffer on the GPU");
}

bool image_has_writable_globals(const std::string& image, bool is_cubin) {
    if (!is_cubin) {
        // PTX: a module-scope ".global" declaration (kernels are ".entry", params ".param").
        std::size_t at = 0;
        while ((at = image.find(".global", at)) != std::string::npos) {
            const std::size_t line = image.rfind('\n', at);
            const std::size_t from = line == std::string::npos ? 0 : line + 1;
            if (image.find_first_not_of(" \t", from) == at || image.compare(from, 8, ".visible") == 0 ||
                image.compare(from, 7, ".extern") == 0 || image.compare(from, 5, ".weak") == 0)
                return true;
            at += 7;
        }
        return false;
    }
    // ELF64: any section named .nv.global or .nv.global.init (writable device memory).
    auto u16 = [&](std::size_t o) { std::uint16_t v; std::memcpy(&v, image.data() + o, 2); return v; };
    auto u32 = [&](std::size_t o) { std::uint32_t v; std::memcpy(&v, image.data() + o, 4); return v; };
    auto u64 = [&](std::size_t o) { std::uint64_t v; std::memcpy(&v, image.data() + o, 8); return v; };
    if (image.size() < 64 || image.compare(0, 4, "\x7f" "ELF") != 0 || image[4] != 2) return true;
    const std::uint64_t shoff = u64(0x28);
    const std::uint16_t shentsize = u16(0x3a), shnum = u16(0x3c), shstrndx = u16(0x3e);
    if (shentsize < 64 || shstrndx >= shnum || shoff + std::uint64_t(shnum) * shentsize > image.size()) return true;
    const std::size_t strtab = shoff + std::size_t(shstrndx) * shentsize;
    const std::uint64_t names = u64(strtab + 0x18), names_size = u64(strtab + 0x20);
    if (names + names_size > image.size()) return true;
    for (std::uint16_t i = 0; i < shnum; ++i) {
        const std::uint32_t name = u32(shoff + std::size_t(i) * shentsize);
        if (name >= names_size) return true;
        const char* n = image.data() + names + name;
        const std::size_t len = strnlen(n, names_size - name);
        const std::string_view section(n, len);
        if (section == ".nv.global" || section == ".nv.global.init") return true;
    }
    return false;
}

GpuModule::GpuModule(const Driver& d, const std::string& image) : d_(&d) {
    char info_log[8192] = {}, error_log[8192] = {};
    CUjit_option opts[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                           CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void* vals[] = {info_log, reinterpret_cast<void*>(sizeof info_log), error_log,
                    reinterpret_cast<void*>(sizeof error_log)};
    CUresult r = d.api().cuModuleLoadDataEx(&mod_, image.c_str(), 4, opts, vals);
    if (r != CUDA_SUCCESS) {
        mod_ = nullptr;
        std::string msg = "loading the compiled kernel failed: " + d.error_string(r);
        if (error_log[0]) msg += " (" + std::string(error_log) + ")";
        throw Error(ErrorKind::Cuda, msg, {}, cuda_error_hint(r), d.error_name(r));
    }
}

GpuModule::~GpuModule() {
    if (mod_) d_->api().cuModuleUnload(mod_);
}

CUfunction GpuModule::function(const std::string& lowered_name, const std::string& display_name) const {
    CUfunction f = nullptr;
    CUresult r = d_->api().cuModuleGetFunction(&f, mod_, lowered_name.c_str());
    if (r != CUDA_SUCCESS)
        throw Error(ErrorKind::Cuda, "kernel '" + display_name + "' is not in the compiled code", {},
                    cuda_error_hint(r), d_->error_name(r));
    return f;
}

std::optional<std::vector<std::size_t>> GpuModule::param_sizes(CUfunction f) const {
    const auto get = d_->api().cuFuncGetParamInfo;
    if (!get) return std::nullopt;
    std::vector<std::size_t> sizes;
    for (std::size_t i = 0; i < 4096; ++i) {
        std::size_t offset = 0, size = 0;
        const CUresult r = get(f, i, &offset, &size);
        if (r == CUDA_ERROR_INVALID_VALUE) break;  // past the last parameter
        if (r != CUDA_SUCCESS) return std::nullopt;
        sizes.push_back(size);
    }
    return sizes;
}

std::optional<std::pair<CUdeviceptr, std::size_t>> GpuModule::global(const std::string& name) const {
    CUdeviceptr ptr = 0;
    std::size_t size = 0;
    const CUresult r = d_->api().cuModuleGetGlobal(&ptr, &size, mod_, name.c_str());
    if (r == CUDA_ERROR_NOT_FOUND) return std::nullopt;
    d_->check(r, ("looking up the __constant__ '" + name + "'").c_str());
    return std::make_pair(ptr, size);
}

KernelResources GpuModule::resources(CUfunction f) const {
    KernelResources res;
    auto get = [&](CUfunction_attribute a) {
        int v = 0;
        d_->check(d_->api().cuFuncGetAttribute(&v, a, f), "cuFuncGetAttribute");
        return v;
    };
    res.registers = get(CU_FUNC_ATTRIBUTE_NUM_REGS);
    res.static_shared = get(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    res.local_bytes = get(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
    res.max_threads_per_block = get(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    return res;
}

int GpuModule::active_blocks_per_sm(CUfunction f, int block_threads, std::size_t dynamic_shared) const {
    int blocks = 0;
    d_->check(d_->api().cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, block_threads, dynamic_shared),
              "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    return blocks;
}

GpuEvent::GpuEvent(const Driver& d) : d_(&d) {
    d.check(d.api().cuEventCreate(&ev_, CU_EVENT_DEFAULT), "cuEventCreate");
}

GpuEvent::~GpuEvent() {
    if (ev_) d_->api().cuEventDestroy(ev_);
}

GpuStream::GpuStream(const Driver& d) : d_(&d) {
    d.check(d.api().cuStreamCreate(&s_, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
}

GpuStream::~GpuStream() {
    if (s_) d_->api().cuStreamDestroy(s_);
}

void GpuGraph::begin(CUstream stream) {
    d_->check(d_->api().cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL), "cuStreamBeginCapture");
}

void GpuGraph::end(CUstream stream) {
    d_->check(d_->api().cuStreamEndCapture(stream, &graph_), "cuStreamEndCapture");
    // The constructor has not finished: a failure here is the last chance to free the graph.
    if (const CUresult res = d_->api().cuGraphInstantiate(&exec_, graph_, 0); res != CUDA_SUCCESS) {
        d_->api().cuGraphDestroy(graph_);
        graph_ = nullptr;
        d_->check(res, "cuGraphInstantiate");
    }
}

void GpuGraph::abandon(CUstream stream) noexcept {
    CUgraph partial = nullptr;
    if (d_->api().cuStreamEndCapture(stream, &partial) == CUDA_SUCCESS && partial) d_->api().cuGraphDestroy(partial);
}

GpuGraph::~GpuGraph() {
    if (exec_) d_->api().cuGraphExecDestroy(exec_);
    if (graph_) d_->api().cuGraphDestroy(graph_);
}

void GpuGraph::launch(CUstream stream) const { d_->check(d_->api().cuGraphLaunch(exec_, stream), "cuGraphLaunch"); }

}  // namespace wb
