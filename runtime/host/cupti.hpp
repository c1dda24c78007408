// runtime/host/cupti.hpp — CUPTI's activity records, loaded at run time, as a Timeline.
//
// libcupti is dlopen'ed (as the driver and NVML are): a machine without it
// still runs host steps, and their Timeline says why it is empty. While a
// trace is open, CUPTI records every kernel, copy and memset in the process
// (the student's own and cuBLAS's), and every device and pinned allocation
// and release, which is how a run() that leaks memory is found.
#pragma once

#include "host/timeline.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace wb {

// A block of memory allocated while tracing and not released by its end.
struct Unreleased {
    int device = 0;              // -1: pinned host memory
    std::uint64_t address = 0;
    std::uint64_t bytes = 0;
};

// Unreleased blocks summed by device (-1: pinned host memory).
struct Leak {
    int device = 0;
    std::uint64_t bytes = 0;
    int allocations = 0;
};

struct Trace {
    Timeline timeline;
    std::vector<Unreleased> unreleased;  // empty when everything was released
    bool memory_seen = false;            // allocation records were collected (the leak check ran)

    // The unreleased blocks by device, leaving out those inside `ignore`
    // ((address, bytes) ranges: memory the caller pinned itself).
    std::vector<Leak> leaks(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& ignore = {}) const;
};

class ActivityTracer {
public:
    // The process-wide tracer; nullptr with `why` set when libcupti cannot be
    // loaded or refuses to start (under compute-sanitizer, say).
    static ActivityTracer* get(std::string& why);

    // CUPTI's clock, in nanoseconds: the records' time base.
    std::uint64_t now_ns() const;
    // How kernels are recorded. Concurrent: as they ran, overlapping where
    // streams let them (a host step's timeline). Serialized: one at a time,
    // each record its kernel's own time, as Nsight Compute measures it. The
    // concurrent records of a memory-bound kernel read about 4% longer than
    // ncu's gpu__time_duration on an H200 (CUPTI's own bookkeeping slows the
    // kernel: events around it grow as much), the serialized ones within 1%.
    enum class Kernels { Concurrent, Serialized };

    // Starts recording; `begin_ns` (now_ns()) is the time the timeline counts from.
    void begin(std::uint64_t begin_ns, Kernels kernels = Kernels::Concurrent);
    // Stops recording, flushes every record, and returns what ran between
    // begin() and now, with `returned_ns` the moment run() returned.
    Trace end(std::uint64_t begin_ns, std::uint64_t returned_ns);

    struct Impl;
    ~ActivityTracer();

private:
    ActivityTracer() = default;
    std::unique_ptr<Impl> impl_;
};

// "void scale<128>(float*, int)" → "scale<128>"; names that do not demangle stay as they are.
std::string kernel_display_name(const char* mangled);

}  // namespace wb
