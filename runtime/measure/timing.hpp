// runtime/measure/timing.hpp — what a timed run measured, and how.
//
// The method itself is split as nvbench splits it: the stopping rule
// (stopping.hpp), the L2 flush (l2_flush.hpp), graph replay
// (graph_replay.hpp), the choice between them for a kernel
// (kernel_timing.hpp), and the GPU's state before timing (gpu_quiet.hpp).
#pragma once

#include "core/phrase.hpp"

#include <string>
#include <vector>

namespace wb {

// How the kernel was timed (the method follows nvbench's):
//   - samples are taken until the median is known to kTimingNoiseTarget
//     (the samples' robust spread, IQR / 1.349 over the median, divided by
//     the square root of their number), or kTimingBudgetS is spent, or
//     kTimingMaxSamples are taken; at least the lesson's `repeat`;
//   - when the step's buffers fit in the L2 cache, L2 is flushed before each
//     sample (a cold measurement), unless the request asks for a warm one;
//   - a kernel under kBatchUnderMs, or one under kBatchStreamingUnderMs whose
//     buffers overflow L2 (not flushed: a flush would change nothing), is
//     timed as one CUDA Graph replay of `batch` launches, and each sample is
//     the replay's time over `batch` (an event pair and a lone launch's
//     latency cost a few microseconds). Steps whose inputs must be restored
//     between launches (in-out buffers, filled outputs) are not batched; a
//     short one says so;
//   - a cold kernel (L2 flushed) under kFlushedBatchUnderMs is timed as a
//     replay of `batch` (flush, launch) pairs less a replay of the `batch`
//     flushes alone, over `batch`: cold, and without a lone launch's latency.
constexpr double kTimingNoiseTarget = 0.005;
constexpr double kTimingBudgetS = 1.0;
constexpr int kTimingMaxSamples = 1000;
constexpr double kBatchUnderMs = 0.010;
constexpr double kBatchStreamingUnderMs = 0.5;
constexpr double kFlushedBatchUnderMs = 0.05;

struct Timing {
    int warmup = 0;
    std::vector<double> samples_ms;
    double median_ms = 0, min_ms = 0, max_ms = 0;
    bool near_resolution = false;  // under ~10 us and not batched: an event pair costs about 1-2 us
    double noise = 0;              // the samples' spread: IQR / 1.349 over the median
    std::string stopped_by;        // "noise", "budget", "samples"
    bool l2_flushed = false;       // each sample began with a cold L2
    // Each sample is the kernels' own time on the GPU, summed from CUPTI's
    // records (no launch latency, no event pair), after a read of twice the
    // L2's size left it clean (kernel_timing.hpp). batch is then 1.
    bool traced = false;
    int batch = 1;                 // > 1: each sample is a graph replay of `batch` launches, divided by it
    // With batch > 1 and l2_flushed: each launch in the replay followed an
    // L2 flush, and a replay of the flushes alone was taken off each sample.
    bool flush_subtracted = false;
    std::string not_batched;       // why a short kernel was not batched
    // The SM clock as the samples ended (NVML; 0 when NVML is not there), and
    // what slowed it, when something did: GpuClocks::throttle_ids(), e.g. "power_cap".
    unsigned sm_clock_mhz = 0, max_sm_clock_mhz = 0;
    std::string throttled;
    // Before the first sample: how long the run waited for the GPU to be
    // idle (no other process busy on it) and unthrottled (gpu_quiet.hpp), and
    // what was still true when it stopped waiting: other processes busy on
    // it, and the slowdown's causes. 0, 0 and "" when it was quiet at once, or
    // NVML cannot tell.
    double waited_ms = 0;
    int busy_processes = 0;
    std::string throttled_before;
};

// How `t` was measured, in words: "25 samples, noise 0.31% (the noise
// target), L2 flushed before each", "..., each a CUDA Graph replay of 1000
// launches".
Sentence timing_method(const Timing& t);

}  // namespace wb
