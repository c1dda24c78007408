// runtime/host/cupti.cpp — CUPTI activity tracing through dlopen.
#include "host/cupti.hpp"

#include "compile/nvrtc.hpp"

#include <cupti.h>
#include <cxxabi.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace wb {

namespace {

constexpr std::size_t kBufferBytes = 8u << 20;

struct CuptiApi {
    CUptiResult (*activity_enable)(CUpti_ActivityKind) = nullptr;
    CUptiResult (*activity_disable)(CUpti_ActivityKind) = nullptr;
    CUptiResult (*register_callbacks)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc) = nullptr;
    CUptiResult (*flush_all)(uint32_t) = nullptr;
    CUptiResult (*next_record)(uint8_t*, size_t, CUpti_Activity**) = nullptr;
    CUptiResult (*get_timestamp)(uint64_t*) = nullptr;
    CUptiResult (*result_string)(CUptiResult, const char**) = nullptr;
    CUptiResult (*get_version)(uint32_t*) = nullptr;
};

// The records of the open trace, gathered by the completion callback (which
// CUPTI may call on a thread of its own) and taken by end().
struct Collected {
    std::mutex mutex;
    std::vector<Activity> activities;
    struct Allocation {
        int device;
        std::uint64_t bytes;
    };
    std::map<std::uint64_t, Allocation> live;  // address → allocation, made while tracing
    bool memory_seen = false;
    std::uint64_t dropped = 0;
    bool open = false;
    std::uint64_t base_ns = 0;  // begin()'s time: records are kept in microseconds from it
};
Collected g_collected;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
    *size = *buffer ? kBufferBytes : 0;
    *max_records = 0;
}

CuptiApi g_api;

void take_record(const CUpti_Activity* rec, Collected& c) {
    auto copy_kind = [](uint8_t k) {
        switch (k) {
        case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return ActivityKind::CopyHtoD;
        case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return ActivityKind::CopyDtoH;
        case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return ActivityKind::CopyHtoH;
        case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return ActivityKind::CopyPtoP;
        default: return ActivityKind::CopyDtoD;
        }
    };
    auto us = [&](uint64_t ns) { return double(std::int64_t(ns - c.base_ns)) / 1e3; };
    Activity a;
    // What every kind of record has: its device, stream, span and graph node.
    auto span = [&](const auto* m) {
        a.device = int(m->deviceId);
        a.stream = m->streamId;
        a.start_us = us(m->start);
        a.end_us = us(m->end);
        a.in_graph = m->graphNodeId != 0;
    };
    switch (rec->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL: {
        const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(rec);
        span(k);
        a.kind = ActivityKind::Kernel;
        a.name = kernel_display_name(k->name);
        a.grid = {k->gridX, k->gridY, k->gridZ};
        a.block = {k->blockX, k->blockY, k->blockZ};
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(rec);
        span(m);
        a.kind = copy_kind(m->copyKind);
        a.bytes = m->bytes;
        a.pageable = m->srcKind == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE || m->dstKind == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY2: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemcpyPtoP4*>(rec);
        span(m);
        a.kind = ActivityKind::CopyPtoP;
        a.bytes = m->bytes;
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(rec);
        span(m);
        a.kind = ActivityKind::Memset;
        a.bytes = m->bytes;
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMORY2: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemory4*>(rec);
        const bool device = m->memoryKind == CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
        const bool pinned = m->memoryKind == CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
        if (!device && !pinned) return;
        c.memory_seen = true;
        if (m->memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION)
            c.live[m->address] = {device ? int(m->deviceId) : -1, m->bytes};
        else if (m->memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE)
            c.live.erase(m->address);
        return;
    }
    default: return;
    }
    c.activities.push_back(std::move(a));
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
    {
        std::lock_guard<std::mutex> lock(g_collected.mutex);
        CUpti_Activity* rec = nullptr;
        while (g_api.next_record(buffer, valid, &rec) == CUPTI_SUCCESS)
            if (g_collected.open) take_record(rec, g_collected);
    }
    std::free(buffer);
}

// The kinds recorded besides kernels (whose kind begin() picks).
constexpr CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY2,
                                         CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_MEMORY2};

CUpti_ActivityKind g_kernel_kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;  // the open trace's

}  // namespace

struct ActivityTracer::Impl {
    void* handle = nullptr;
};

ActivityTracer::~ActivityTracer() = default;

std::string kernel_display_name(const char* mangled) {
    if (!mangled) return "?";
    int status = 0;
    char* d = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
    std::string s = status == 0 && d ? d : mangled;
    std::free(d);
    // Cut the parameter list: the first '(' outside template brackets.
    int depth = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '<') ++depth;
        else if (s[i] == '>') --depth;
        else if (s[i] == '(' && depth == 0 && i > 0) {
            s.resize(i);
            break;
        }
    }
    // A template's demangled name starts with its return type: "void scale<128>".
    if (s.rfind("void ", 0) == 0) s.erase(0, 5);
    return s;
}

ActivityTracer* ActivityTracer::get(std::string& why) {
    static std::mutex m;
    static ActivityTracer* tracer = nullptr;
    static std::string failure;
    std::lock_guard<std::mutex> lock(m);
    if (tracer) return tracer;
    if (!failure.empty()) {
        why = failure;
        return nullptr;
    }
    std::vector<std::string> names = {"libcupti.so.13", "libcupti.so"};
    try {
        const auto home = cuda_home();
        names.push_back((home / "lib64" / "libcupti.so.13").string());
        names.push_back((home / "extras" / "CUPTI" / "lib64" / "libcupti.so.13").string());
    } catch (...) {
    }
    void* h = nullptr;
    std::string last;
    for (const auto& n : names) {
        h = ::dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (h) break;
        if (const char* e = ::dlerror()) last = e;
    }
    if (!h) {
        failure = "CUPTI (libcupti.so.13, the CUDA Toolkit's profiling library) was not found: " + last;
        why = failure;
        return nullptr;
    }
    auto sym = [&](const char* name, auto& fn) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(h, name));
        if (!fn && failure.empty()) failure = std::string("CUPTI has no ") + name;
    };
    sym("cuptiActivityEnable", g_api.activity_enable);
    sym("cuptiActivityDisable", g_api.activity_disable);
    sym("cuptiActivityRegisterCallbacks", g_api.register_callbacks);
    sym("cuptiActivityFlushAll", g_api.flush_all);
    sym("cuptiActivityGetNextRecord", g_api.next_record);
    sym("cuptiGetTimestamp", g_api.get_timestamp);
    sym("cuptiGetResultString", g_api.result_string);
    sym("cuptiGetVersion", g_api.get_version);
    uint32_t version = 0;
    if (failure.empty() && (g_api.get_version(&version) != CUPTI_SUCCESS || version != CUPTI_API_VERSION))
        failure = "CUPTI's API version is " + std::to_string(version) + ", but the workbook was built for " +
                  std::to_string(CUPTI_API_VERSION) + ": its activity records would be read wrongly";
    if (failure.empty()) {
        const CUptiResult r = g_api.register_callbacks(buffer_requested, buffer_completed);
        if (r != CUPTI_SUCCESS) {
            const char* s = nullptr;
            g_api.result_string(r, &s);
            failure = std::string("CUPTI would not start: ") + (s ? s : "unknown error");
        }
    }
    if (!failure.empty()) {
        why = failure;
        return nullptr;
    }
    tracer = new ActivityTracer();  // lives as long as the process: CUPTI keeps its callbacks
    tracer->impl_ = std::make_unique<Impl>();
    tracer->impl_->handle = h;
    return tracer;
}

std::uint64_t ActivityTracer::now_ns() const {
    uint64_t t = 0;
    g_api.get_timestamp(&t);
    return t;
}

void ActivityTracer::begin(std::uint64_t begin_ns, Kernels kernels) {
    {
        std::lock_guard<std::mutex> lock(g_collected.mutex);
        g_collected.base_ns = begin_ns;
        g_collected.activities.clear();
        g_collected.live.clear();
        g_collected.memory_seen = false;
        g_collected.open = true;
    }
    g_kernel_kind = kernels == Kernels::Serialized ? CUPTI_ACTIVITY_KIND_KERNEL : CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    g_api.activity_enable(g_kernel_kind);
    for (auto k : kKinds) g_api.activity_enable(k);
}

Trace ActivityTracer::end(std::uint64_t begin_ns, std::uint64_t returned_ns) {
    g_api.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    g_api.activity_disable(g_kernel_kind);
    for (auto k : kKinds) g_api.activity_disable(k);
    g_api.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    Trace t;
    std::lock_guard<std::mutex> lock(g_collected.mutex);
    g_collected.open = false;
    t.timeline.activities = std::move(g_collected.activities);
    g_collected.activities.clear();
    t.timeline.wall_us = double(returned_ns - begin_ns) / 1e3;
    double latest = 0;
    for (const auto& a : t.timeline.activities) latest = std::max(latest, a.end_us);
    if (latest > t.timeline.wall_us) t.timeline.ran_past_return_us = latest - t.timeline.wall_us;
    t.timeline.sort();
    t.memory_seen = g_collected.memory_seen;
    for (const auto& [address, alloc] : g_collected.live) t.unreleased.push_back({alloc.device, address, alloc.bytes});
    g_collected.live.clear();
    return t;
}

std::vector<Leak> Trace::leaks(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& ignore) const {
    std::map<int, Leak> by_device;
    for (const auto& u : unreleased) {
        bool inside = false;
        for (const auto& [start, bytes] : ignore) inside = inside || (u.address >= start && u.address < start + bytes);
        if (inside) continue;
        Leak& l = by_device[u.device];
        l.device = u.device;
        l.bytes += u.bytes;
        ++l.allocations;
    }
    std::vector<Leak> out;
    for (auto& [d, l] : by_device) out.push_back(l);
    return out;
}

}  // namespace wb
