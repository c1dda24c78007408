// runtime/measure/kernel_timing.hpp — how a kernel that passed is timed.
//
// The method, and why:
//   - warm-up launches, then samples by the stopping rule (stopping.hpp);
//   - where CUPTI is there and a cold L2 is asked for (the default), each
//     sample is the kernels' own time on the GPU, summed from CUPTI's records,
//     after a read of twice the L2's size left it clean (l2_flush.hpp): what
//     Nsight Compute's gpu__time_duration measures with its cache control, to
//     within 2% for kernels of 20 us or more (scripts/timing-vs-ncu.sh). An
//     event pair would add a launch's latency, and a memset flush the
//     write-back of the dirty lines it leaves. The rest is the fallback,
//     nvbench's method with events:
//   - when the step's buffers fit in L2, L2 is flushed before each sample
//     (l2_flush.hpp), unless the request asks for a warm L2;
//   - a kernel under kBatchUnderMs, or one under kBatchStreamingUnderMs whose
//     buffers overflow L2, is timed as graph replays of many launches
//     (graph_replay.hpp); a cold one under kFlushedBatchUnderMs as replays of
//     (flush, launch) pairs less the flushes alone. Steps whose inputs must be
//     restored between launches are not batched, and a short one says so;
//   - the SM clock and what slowed it are read as the samples end (NVML).
// The GPU's state before the first sample is gpu_quiet.hpp's business.
#pragma once

#include "driver/gpu.hpp"
#include "measure/l2_flush.hpp"
#include "measure/timing.hpp"

#include <cstdint>
#include <functional>
#include <optional>

namespace wb {

// The step's kernels, as the timer needs them.
struct KernelWork {
    // Issues every launch (every pass) on `stream` (nullptr: the default
    // stream), so a graph can capture it.
    std::function<void(CUstream)> launch;
    // Untimed, before each warm-up launch and each lone sample: restores what
    // the kernels change that they also read (in-out buffers, swapped
    // inputs, outputs the lesson fills). Empty when there is nothing.
    std::function<void()> restore;
    // Waits for the GPU; a kernel's fault becomes the run's error, naming `what`.
    std::function<void(const char* what)> synchronize;
    std::uint64_t working_set = 0;  // the step's buffers, in bytes
};

struct TimingAsk {
    int warmup = 0;
    int repeat = 1;       // at least this many samples
    bool warm_l2 = false;
};

class KernelTimer {
public:
    KernelTimer(const GpuContext& ctx, const KernelWork& work, const TimingAsk& ask);

    // The kernels' timing, by the method above.
    Timing time();

    // Other work (the lesson's baseline) timed as the kernels were: a graph
    // replay of as many launches when they were batched and `before` is
    // empty, else one launch per sample after `before` and the same L2 flush.
    Timing time_like(const Timing& kernels, const std::function<void()>& before,
                     const std::function<void(CUstream)>& launch, const char* what);

    // One more sample taken exactly as `kernels`' were (a lone launch after
    // the L2 flush, or one graph replay of its batch), after `prepare`,
    // which is not timed. The check after timing reads what it leaves: a
    // kernel whose timed runs differ from its validated ones is caught in the
    // form it was timed in.
    void sample_once_more(const Timing& kernels, const std::function<void()>& prepare);

private:
    // Samples of `launch` (after `prepare`, untimed) as the kernels' own
    // time from CUPTI's records; nullopt when CUPTI is not there (under
    // Nsight Compute, say) or its records came back incomplete.
    std::optional<Timing> time_traced(const std::function<void()>& prepare, const std::function<void(CUstream)>& launch,
                                      const char* what);
    double time_lone(const std::function<void()>& prepare, const std::function<void(CUstream)>& launch, const char* what);

    const GpuContext& ctx_;
    const Driver& d_;
    const KernelWork& work_;
    TimingAsk ask_;
    GpuEvent start_, stop_;
    L2Flush l2_;
    std::optional<CleanL2Flush> clean_;
    bool clean_failed_ = false;
};

}  // namespace wb
