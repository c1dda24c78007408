// runtime/measure/baseline_run.hpp — the lesson's baseline (baseline.hpp),
// run on the step's own inputs after the student's kernel passed and was
// timed: checked by the step's compare rule for its output (a memcpy: the
// copy equals its source), and timed by the kernel's method (KernelTimer::time_like).
#pragma once

#include "compare/compare.hpp"
#include "data/buffers.hpp"
#include "driver/gpu.hpp"
#include "measure/baseline.hpp"
#include "measure/kernel_timing.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace wb {

struct BaselineRun {
    const BaselineSpec& spec;
    const std::map<std::string, double>& params;
    double bytes = 0, flops = 0;                    // the step's metrics
    const std::string& arch;                        // the CUB kernels are compiled for it
    const std::vector<HostBuffer>& host;            // the step's buffers as made
    const std::vector<DeviceBuffer>& dev;           // the same on the GPU, in the same order
    const std::vector<HostBuffer>& reference_out;   // what its output must match
    const std::vector<CompareSpec>& compare;
    std::function<void()> upload_inputs;            // the inputs as first uploaded
    std::function<void(const char* what)> synchronize;
};

// Runs, checks and times the baseline; `kernels` is how the step's kernels were timed.
BaselineResult run_baseline(const GpuContext& ctx, const BaselineRun& in, KernelTimer& timer, const Timing& kernels);

}  // namespace wb
