// runtime/measure/kernel_timing.cpp — how a kernel that passed is timed (kernel_timing.hpp).
#include "measure/kernel_timing.hpp"

#include "core/error.hpp"
#include "driver/nvml.hpp"
#include "host/cupti.hpp"
#include "measure/graph_replay.hpp"
#include "measure/stopping.hpp"

#include <algorithm>
#include <deque>

namespace wb {

namespace {

// The clock the samples ran at, read while the GPU is still busy from them.
void read_clocks(const GpuContext& ctx, Timing& t) {
    if (const Nvml* nvml = Nvml::get(); nvml && !ctx.info().pci_bus_id.empty())
        if (const auto clocks = nvml->clocks(ctx.info().pci_bus_id)) {
            t.sm_clock_mhz = clocks->sm_mhz;
            t.max_sm_clock_mhz = clocks->max_sm_mhz;
            t.throttled = clocks->throttle_ids();
        }
}

}  // namespace

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

std::optional<Timing> KernelTimer::time_traced(const std::function<void()>& prepare,
                                               const std::function<void(CUstream)>& launch, const char* what) {
    if (ask_.warm_l2 || clean_failed_) return std::nullopt;
    std::string why;
    ActivityTracer* tracer = ActivityTracer::get(why);
    if (!tracer) return std::nullopt;
    if (!clean_) {
        try {
            clean_.emplace(ctx_);
        } catch (const Error&) {
            clean_failed_ = true;  // the event method stands in
            return std::nullopt;
        }
    }
    // A round of samples under one trace: for each, `prepare`, the clean
    // flush, the work, the end marker. A sample is every record between a
    // flush and the next marker: the kernels, and any copy or memset the work
    // itself issues (a baseline's memcpy); `prepare`'s copies come before the
    // flush and are left out. Kernels are recorded serialized, each its own
    // time as Nsight Compute measures it (see ActivityTracer::Kernels).
    //
    // The host waits for the flush before it launches the work, and for the
    // work before the next sample, so each sample starts on an idle GPU, as
    // under ncu: launched straight after the flush's read of twice the L2,
    // memory-bound kernels read 2 to 3% longer than ncu's figure on an H200
    // (scripts/timing-vs-ncu.sh; docs/performance.md has the table).
    std::deque<double> queue;
    bool incomplete = false;
    auto round = [&]() -> bool {
        const int n = std::max(ask_.repeat, 10);
        const std::uint64_t began = tracer->now_ns();
        tracer->begin(began, ActivityTracer::Kernels::Serialized);
        for (int k = 0; k < n; ++k) {
            if (prepare) prepare();
            clean_->clean_flush_on(nullptr);
            CUresult res = d_.api().cuCtxSynchronize();
            if (res == CUDA_SUCCESS) {
                launch(nullptr);
                clean_->sample_end_on(nullptr);
                res = d_.api().cuCtxSynchronize();
            }
            if (res != CUDA_SUCCESS) {
                tracer->end(began, tracer->now_ns());
                work_.synchronize(what);  // the kernel's fault, reported against this run
                return false;
            }
        }
        const Trace trace = tracer->end(began, tracer->now_ns());  // every sample was waited for above
        int got = 0;
        bool inside = false;
        double sum_us = 0;
        for (const Activity& a : trace.timeline.activities) {
            if (a.kind == ActivityKind::Kernel && a.name == kCleanFlushKernel) {
                inside = true;
                sum_us = 0;
            } else if (a.kind == ActivityKind::Kernel && a.name == kSampleEndKernel) {
                if (inside) {
                    queue.push_back(sum_us / 1e3);
                    ++got;
                }
                inside = false;
            } else if (inside) {
                sum_us += a.duration_us();
            }
        }
        incomplete = got != n;
        return !incomplete;
    };
    Timing t;
    const bool sampled = take_samples(t, ask_.repeat, [&]() -> std::optional<double> {
        if (queue.empty() && !round()) return std::nullopt;
        const double ms = queue.front();
        queue.pop_front();
        return ms;
    });
    if (!sampled) return std::nullopt;
    t.traced = true;
    t.l2_flushed = true;
    return t;
}

Timing KernelTimer::time() {
    Timing t;
    t.warmup = ask_.warmup;
    for (int i = 0; i < t.warmup; ++i) {
        if (work_.restore) work_.restore();
        work_.launch(nullptr);
    }
    work_.synchronize("warming up");
    if (std::optional<Timing> traced = time_traced(work_.restore, work_.launch, "being timed")) {
        traced->warmup = t.warmup;
        read_clocks(ctx_, *traced);
        return *traced;
    }
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
    read_clocks(ctx_, t);
    t.near_resolution = t.median_ms < kBatchUnderMs && t.batch == 1;
    return t;
}

void KernelTimer::sample_once_more(const Timing& kernels, const std::function<void()>& prepare) {
    if (kernels.traced && clean_) {
        if (prepare) prepare();
        clean_->clean_flush_on(nullptr);
        work_.launch(nullptr);
        if (d_.api().cuCtxSynchronize() != CUDA_SUCCESS) work_.synchronize("being timed");
        return;
    }
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
    if (kernels.traced)
        if (std::optional<Timing> traced = time_traced(before, launch, what)) return *traced;
    Timing t;
    t.batch = before ? 1 : kernels.batch;
    if (t.batch > 1) take_graph_samples(d_, start_, stop_, t, ask_.repeat, t.batch, launch);
    else take_samples(t, ask_.repeat, [&]() -> std::optional<double> { return time_lone(before, launch, what); });
    return t;
}

}  // namespace wb
