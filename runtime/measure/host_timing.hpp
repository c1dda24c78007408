// runtime/measure/host_timing.hpp — how a host step's run() is timed.
//
// Its wall time, untraced: warm-up calls, then samples by the stopping rule
// (stopping.hpp). Then three traced calls (CUPTI), whose medians of copy and
// kernel time are what a target may be set on (TargetMeasure), and the last
// of whose timelines is shown.
#pragma once

#include "host/host_step.hpp"
#include "measure/timing.hpp"

#include <functional>
#include <optional>

namespace wb {

struct HostMeasured {
    Timing wall;
    double copies_ms = 0, kernels_ms = 0;
    std::optional<Timeline> timeline;
    std::optional<HostCall> failed;  // the call that failed while timed, if one did
};

// `call(tracer)` makes one call of run() over reset buffers (traced when
// `tracer` is given). Stops at the first call that fails.
HostMeasured measure_host_step(const std::function<HostCall(ActivityTracer*)>& call, ActivityTracer* tracer, int warmup,
                               int repeat);

}  // namespace wb
