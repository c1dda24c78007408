// runtime/host/timeline.hpp — what ran on the GPUs during a host step's run().
//
// Every kernel, copy and memset the step's run() caused, its own and those of
// the libraries it called (cuBLAS), as CUPTI's activity records saw them
// (host/cupti.hpp), on the clock of run()'s start. The GUI draws this as
// lanes (one per device and stream); the CLI prints it as a table. The model
// and its sums are plain data, so they are tested without a GPU.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace wb {

enum class ActivityKind { Kernel, CopyHtoD, CopyDtoH, CopyDtoD, CopyHtoH, CopyPtoP, Memset };
const char* activity_kind_name(ActivityKind k);  // "kernel", "HtoD", "DtoH", "DtoD", "HtoH", "PtoP", "memset"
bool activity_is_copy(ActivityKind k);

struct Activity {
    ActivityKind kind = ActivityKind::Kernel;
    std::string name;               // a kernel's demangled name, without its parameter list; empty for others
    int device = 0;                 // CUDA device ordinal
    std::uint32_t stream = 0;       // CUPTI's stream id; unique within the process
    double start_us = 0, end_us = 0;  // from run()'s start
    std::uint64_t bytes = 0;        // copies and memsets
    bool pageable = false;          // a copy with a pageable host side (staged by the driver, never overlaps)
    std::array<int, 3> grid{0, 0, 0}, block{0, 0, 0};  // kernels
    bool in_graph = false;          // launched as part of a CUDA Graph

    double duration_us() const { return end_us - start_us; }
    // GB/s of a copy or memset; 0 for a kernel.
    double gbs() const { return duration_us() > 0 && bytes ? double(bytes) / duration_us() / 1e3 : 0; }
};

// One row of the timeline: a stream on a device.
struct TimelineLane {
    int device = 0;
    std::uint32_t stream = 0;
    int activities = 0;
    double busy_us = 0;  // the union of its activities' intervals
};

struct Timeline {
    double wall_us = 0;                  // run(), call to return
    std::vector<Activity> activities;    // sorted by start
    // Set when there is no timeline, saying why (CUPTI not found, say);
    // `activities` is then empty.
    std::string unavailable;
    // Work still running when run() returned, which the step's results
    // cannot count on: its latest end past the return, in microseconds (0: none).
    double ran_past_return_us = 0;
    std::uint64_t dropped = 0;           // records CUPTI could not keep

    // Lanes by device, then stream, in the order streams first appear.
    std::vector<TimelineLane> lanes() const;
    int devices() const;                 // distinct devices with activity
    double kernel_us() const;            // the sum of kernel durations
    double copy_us() const;              // the sum of copy durations
    std::uint64_t copy_bytes() const;
    // How long a copy ran while a kernel ran, on any lanes: the overlap the
    // streams lesson is about.
    double copy_kernel_overlap_us() const;
    // How long at least one activity ran (the union of every interval).
    double busy_us() const;

    void sort();  // by start, then lane
};

// The one JSON form of a timeline, for --json, the worker's pipe and test
// fixtures. from_json throws wb::Error (Usage) naming the bad key's path.
nlohmann::json timeline_to_json(const Timeline& t);
Timeline timeline_from_json(const nlohmann::json& j);

}  // namespace wb
