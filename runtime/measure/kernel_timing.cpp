// runtime/measure/kernel_timing.cpp — how a kernel that passed is timed (kernel_timing.hpp).
#include "measure/kernel_timing.hpp"

#include "driver/nvml.hpp"
#include "measure/graph_replay.hpp"
#include "measure/stopping.hpp"

#include <algorithm>

namespace wb {

KernelTimer::KernelTimer(const GpuContext& ctx, const KernelWork& work, const TimingAsk& ask)
    : ctx_(ctx), d_(ctx.driver()), work_(work), ask_(ask), start_(d_), stop_(d_),
      l2_(d_, static_cast<std::size_t>(std::max(ctx.info().l2_bytes, 0)), work.working_set, ask.warm_l2) {}

// One sample of one launch: `prepare` (untimed), the L2 flush, then `launch`
// between two events on the default stream.
double KernelTimer::time_lone(const std::function<void()>& prepare, const std::function<void(CUstream)>& launch,
                              const char* what) {
    const auto& cu = d_.api();
    if (prepare) prepare();
    l2_.flush();
    d_.check(cu.cuEventRecord(start_.get(), nullptr), "cuEventRecord");
    launch(nullptr);
    d_.check(cu.cuEventRecord(stop_.get(), nullptr), "cuEventRecord");
    if (cu.cuEventSynchronize(stop_.get()) != CUDA_SUCCESS) work_.synchronize(what);
    float ms = 0;
    d_.check(cu.cuEventElapsedTime(&ms, start_.get(), stop_.get()), "cuEventElapsedTime");
    return ms;
}

Timing KernelTimer::time() {
    Timing t;
    t.warmup = ask_.warmup;
    for (int i = 0; i < t.warmup; ++i) {
        if (work_.restore) work_.restore();
        work_.launch(nullptr);
    }
    work_.synchronize("warming up");
    t.l2_flushed = l2_.enabled();
    take_samples(t, ask_.repeat, [&]() -> std::optional<double> { return time_lone(work_.restore, work_.launch, "being timed"); });

    const double first_median = t.median_ms;
    const bool short_kernel = first_median < kBatchUnderMs;
    const bool streaming = first_median < kBatchStreamingUnderMs && !t.l2_flushed;
    const bool restore_between = static_cast<bool>(work_.restore);
    // A cold kernel too short for a lone launch's latency to vanish in:
    // (flush, launch) pairs in one replay, less the flushes alone.
    const bool cold_short = t.l2_flushed && !short_kernel && first_median < kFlushedBatchUnderMs && !restore_between;
    if (cold_short) {
        const auto flush_on = [&](CUstream stream) { l2_.flush_on(stream); };
        const int batch = static_cast<int>(std::clamp(1.0 / std::max(first_median, 1e-4), 10.0, 100.0));
        take_graph_samples(
            d_, start_, stop_, t, ask_.repeat, batch,
            [&](CUstream stream) {
                flush_on(stream);
                work_.launch(stream);
            },
            flush_on);
        t.batch = batch;
        t.flush_subtracted = true;
    }
    if (short_kernel || streaming) {
        if (restore_between) {
            if (short_kernel) t.not_batched = "inputs restored between launches";
        } else {
            // About 0.1 ms of short kernels, or 2 ms of streaming ones, per replay.
            const double per_replay_ms = short_kernel ? 0.1 : 2.0;
            const int batch = static_cast<int>(std::clamp(per_replay_ms / std::max(first_median, 1e-4),
                                                          short_kernel ? 10.0 : 2.0, short_kernel ? 1000.0 : 100.0));
            take_graph_samples(d_, start_, stop_, t, ask_.repeat, batch, work_.launch);
            t.batch = batch;
            t.l2_flushed = false;  // launches in a replay follow one another: L2 stays warm
        }
    }
    // The clock the samples ran at, read while the GPU is still busy from them.
    if (const Nvml* nvml = Nvml::get(); nvml && !ctx_.info().pci_bus_id.empty())
        if (const auto clocks = nvml->clocks(ctx_.info().pci_bus_id)) {
            t.sm_clock_mhz = clocks->sm_mhz;
            t.max_sm_clock_mhz = clocks->max_sm_mhz;
            t.throttled = clocks->throttle_ids();
        }
    t.near_resolution = t.median_ms < kBatchUnderMs && t.batch == 1;
    return t;
}

void KernelTimer::sample_once_more(const Timing& kernels, const std::function<void()>& prepare) {
    if (kernels.batch <= 1) {
        time_lone(prepare, work_.launch, "being timed");
        return;
    }
    if (prepare) prepare();
    const auto flush_then_launch = [&](CUstream stream) {
        l2_.flush_on(stream);
        work_.launch(stream);
    };
    GpuStream stream(d_);
    GpuGraph graph(d_, stream.get(), [&] {
        for (int k = 0; k < kernels.batch; ++k) {
            if (kernels.flush_subtracted) flush_then_launch(stream.get());
            else work_.launch(stream.get());
        }
    });
    graph.launch(stream.get());
    if (d_.api().cuStreamSynchronize(stream.get()) != CUDA_SUCCESS) work_.synchronize("being timed");
}

Timing KernelTimer::time_like(const Timing& kernels, const std::function<void()>& before,
                              const std::function<void(CUstream)>& launch, const char* what) {
    Timing t;
    t.batch = before ? 1 : kernels.batch;
    if (t.batch > 1) take_graph_samples(d_, start_, stop_, t, ask_.repeat, t.batch, launch);
    else take_samples(t, ask_.repeat, [&]() -> std::optional<double> { return time_lone(before, launch, what); });
    return t;
}

}  // namespace wb
