// runtime/measure/gpu_quiet.hpp — the GPU's state before the first sample.
//
// A time taken while another process runs kernels on the same GPU, or while
// the GPU is slowed (power cap, heat), is not the kernel's own. Before timing,
// the run waits a little for the GPU to be idle and at full clock; what it
// waited and what was still true then go into the Timing, and from there
// into timing_method()'s words. Where NVML cannot tell, nothing is waited
// for and nothing is claimed.
#pragma once

#include "measure/timing.hpp"

#include <functional>
#include <optional>
#include <string>

namespace wb {

// What NVML says of the GPU now.
struct GpuState {
    int busy_processes = 0;  // other processes that ran kernels on it just now
    std::string throttled;   // slowdown_ids_text() of what slows it; "" when nothing
    bool quiet() const { return busy_processes == 0 && throttled.empty(); }
};

// Reads the state; nullopt when it cannot be known.
using GpuProbe = std::function<std::optional<GpuState>()>;

// NVML's reading of the GPU with this PCI bus id; a probe that always gives
// nullopt when NVML is not there.
GpuProbe nvml_probe(const std::string& pci_bus_id);

// The longest a run waits for a quiet GPU before it times anyway.
constexpr double kQuietWaitS = 1.0;

// Probes until the GPU is quiet or `max_wait_s` is spent, sleeping
// `sleep(seconds)` between probes, and records what it found in `t`
// (waited_ms, busy_processes, throttled_before).
void wait_for_quiet_gpu(Timing& t, const GpuProbe& probe, double max_wait_s = kQuietWaitS,
                        const std::function<void(double)>& sleep = {});

}  // namespace wb
