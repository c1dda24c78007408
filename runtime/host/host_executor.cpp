// runtime/host/host_executor.cpp — a host step's run() on the GPU (host_executor.hpp).
#include "host/host_executor.hpp"

#include "core/error.hpp"
#include "host/cupti.hpp"
#include "host/host_build.hpp"
#include "host/host_step.hpp"
#include "lesson/expr.hpp"
#include "lesson/resolve.hpp"
#include "measure/host_timing.hpp"
#include "pipeline/verdict.hpp"

#include <cstdio>
#include <cstring>

namespace wb {

namespace {

// Copies of a step's buffers in memory of their own, which run() may write
// (an input it changes changes nothing of the run's caches), page-locked
// for the calls when the step asks (HostSpec::pinned) and released after.
class HostWorkBuffers {
public:
    HostWorkBuffers(const Step& step, const std::vector<HostBuffer>& from, const Driver* pin_with)
        : step_(step), from_(from), driver_(pin_with) {
        for (const auto& h : from) {
            HostBuffer w = h.zeroed_like();
            if (h.size_bytes()) std::memcpy(w.mutable_data(), h.data(), h.size_bytes());
            buffers.push_back(std::move(w));
        }
        if (driver_)
            for (auto& b : buffers)
                if (b.size_bytes() &&
                    driver_->api().cuMemHostRegister(b.mutable_data(), b.size_bytes(), CU_MEMHOSTREGISTER_PORTABLE) == CUDA_SUCCESS)
                    pinned_.emplace_back(reinterpret_cast<std::uint64_t>(b.data()), b.size_bytes());
    }
    ~HostWorkBuffers() {
        for (const auto& [address, bytes] : pinned_) driver_->api().cuMemHostUnregister(reinterpret_cast<void*>(address));
    }
    HostWorkBuffers(const HostWorkBuffers&) = delete;
    HostWorkBuffers& operator=(const HostWorkBuffers&) = delete;

    // Before a validation call (`poison` given): inputs as made, outputs
    // poisoned; before a timed one, only what run() reads of the outputs
    // (in-outs, and outputs the lesson fills).
    void reset(std::optional<unsigned char> poison) {
        for (std::size_t i = 0; i < from_.size(); ++i) {
            HostBuffer& w = buffers[i];
            if (!w.size_bytes()) continue;
            if (from_[i].role == BufferRole::Output && !filled_by_lesson(step_, from_[i])) {
                if (poison) std::memset(w.mutable_data(), *poison, w.size_bytes());
            } else if (poison || from_[i].role != BufferRole::Input) {
                std::memcpy(w.mutable_data(), from_[i].data(), w.size_bytes());
            }
        }
    }

    // The outputs and in-outs as run() left them, in buffers of their own.
    std::vector<HostBuffer> outputs() const {
        std::vector<HostBuffer> out;
        for (std::size_t i = 0; i < from_.size(); ++i)
            if (from_[i].role != BufferRole::Input) {
                HostBuffer b = from_[i].zeroed_like();
                if (b.size_bytes()) std::memcpy(b.mutable_data(), buffers[i].data(), b.size_bytes());
                out.push_back(std::move(b));
            }
        return out;
    }

    // The ranges page-locked here, as (address, bytes).
    const std::vector<std::pair<std::uint64_t, std::uint64_t>>& pinned_ranges() const { return pinned_; }

    std::vector<HostBuffer> buffers;

private:
    const Step& step_;
    const std::vector<HostBuffer>& from_;
    const Driver* driver_;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> pinned_;
};

// What one call of run() did wrong, as the run's verdict; false when nothing.
// `pinned_by_us` are the buffers the runtime page-locked itself (HostSpec::pinned),
// which are not run()'s to release.
bool host_call_failed(const HostCall& c, RunResult& r,
                      const std::vector<std::pair<std::uint64_t, std::uint64_t>>& pinned_by_us = {}) {
    auto mib = [](std::uint64_t bytes) {
        char s[32];
        if (bytes >= (1u << 20)) std::snprintf(s, sizeof s, "%.1f MiB", double(bytes) / double(1 << 20));
        else if (bytes >= 1024) std::snprintf(s, sizeof s, "%.1f KiB", double(bytes) / 1024.0);
        else std::snprintf(s, sizeof s, "%llu bytes", static_cast<unsigned long long>(bytes));
        return std::string(s);
    };
    if (c.sticky) {
        r.status = RunStatus::CudaError;
        r.context_lost = true;
        r.say({{"host.sticky_error", {c.cuda_error}}});
        r.say_hint({{"hint.host_sticky", {}}});
        return true;
    }
    if (c.threads_left > 0) {
        // They cannot be stopped safely: the worker leaves after this result
        // (context_lost), and its supervisor starts a fresh one.
        r.status = RunStatus::HostError;
        r.context_lost = true;
        if (c.threads_left == 1)
            r.say({{"host.threads_left_one", {}}});
        else
            r.say({{"host.threads_left", {std::to_string(c.threads_left)}}});
        r.say_hint({{"hint.host_threads_left", {}}});
        return true;
    }
    if (c.threw) {
        r.status = RunStatus::HostError;
        r.say({thrown_phrase(*c.threw)});
        r.say_hint({{"hint.host_threw", {}}});
        return true;
    }
    if (c.code != 0 || !c.error.empty()) {
        r.status = RunStatus::HostError;
        r.say({c.error.empty() ? Phrase{"host.failed_silently", {std::to_string(c.code)}}
                               : Phrase{"host.failed", {std::to_string(c.code), c.error}}});
        r.say_hint({{"hint.host_failed", {}}});
        return true;
    }
    if (!c.cuda_error.empty()) {
        r.status = RunStatus::HostError;
        r.say({{"host.unchecked_error", {c.cuda_error}}});
        r.say_hint({{"hint.host_unchecked", {}}});
        return true;
    }
    if (!c.trace) return false;
    const Timeline& t = c.trace->timeline;
    if (t.ran_past_return_us > 0) {
        const Activity* last = nullptr;
        for (const auto& a : t.activities)
            if (!last || a.end_us > last->end_us) last = &a;
        char us[32];
        std::snprintf(us, sizeof us, "%.0f", t.ran_past_return_us);
        const std::string what = last->kind == ActivityKind::Kernel ? "kernel " + last->name
                                                                     : std::string(activity_kind_name(last->kind)) + " copy";
        r.status = RunStatus::HostError;
        r.say({{"host.ran_past_return", {what, us}}});
        r.say_hint({{"hint.host_synchronize", {}}});
        return true;
    }
    if (const auto leaks = c.trace->leaks(pinned_by_us); !leaks.empty()) {
        std::string where;
        std::uint64_t total = 0;
        for (const auto& l : leaks) {
            total += l.bytes;
            where += (where.empty() ? "" : ", ") + mib(l.bytes) + " in " + std::to_string(l.allocations) +
                     (l.allocations == 1 ? " allocation" : " allocations") +
                     (l.device < 0 ? std::string(" of pinned host memory") : " on GPU " + std::to_string(l.device));
        }
        r.status = RunStatus::HostError;
        // Leaked memory stays leaked for the life of this process: the
        // worker is replaced, as after a fault, so the next run starts clean.
        r.context_lost = true;
        r.say({{"host.leaked", {mib(total), where}}});
        r.say_hint({{"hint.host_leaked", {}}});
        return true;
    }
    return false;
}

class HostExecutor final : public StepExecutor {
public:
    HostExecutor(const StepInputs& in, const GpuContext& ctx, const HostStepBuild& build, int ordinal)
        : in_(in), ctx_(ctx), build_(build), ordinal_(ordinal) {}

    bool prepare(RunResult&) override {
        lib_.emplace(build_);
        tracer_ = ActivityTracer::get(no_trace_);
        work_.emplace(in_.step, in_.host, in_.step.host->pinned ? &ctx_.driver() : nullptr);
        return true;
    }

    std::optional<std::vector<HostBuffer>> validate(RunResult& r, unsigned char poison, unsigned char,
                                                    const std::vector<HostBuffer>* first) override {
        work_->reset(poison);
        const HostCall c = lib_->call(work_->buffers, r.params, ordinal_, tracer_);
        if (!first) {
            // What ran on the GPUs during the first call, until a timed one replaces it.
            if (c.trace) r.timeline = c.trace->timeline;
            else {
                Timeline t;
                t.unavailable = no_trace_;
                r.timeline = t;
            }
        }
        if (host_call_failed(c, r, work_->pinned_ranges())) return std::nullopt;
        return work_->outputs();
    }

    // run()'s wall time, untraced, then three traced calls for the timeline
    // and the copy and kernel sums (a target's measure), then one more call
    // over poisoned outputs for the check after timing.
    std::optional<std::vector<HostBuffer>> measure(RunResult& r) override {
        const RunRequest& req = in_.req;
        if (!req.timing) return std::nullopt;
        if (req.on_phase) req.on_phase("timing");
        mine_ = measure_host_step(
            [&](ActivityTracer* t) {
                work_->reset(std::nullopt);
                return lib_->call(work_->buffers, r.params, ordinal_, t);
            },
            tracer_, warmup(), repeat());
        if (mine_.failed) {
            // Passed twice, then failed while being timed: that is the verdict.
            host_call_failed(*mine_.failed, r, work_->pinned_ranges());
            return std::nullopt;
        }
        r.wall_time = mine_.wall;
        if (mine_.timeline) r.timeline = mine_.timeline;
        char ms[32];
        std::snprintf(ms, sizeof ms, "%.3f", mine_.wall.median_ms);
        r.say_more({"host.timed", {ms}});
        work_->reset(kPoisonA);
        const HostCall last = lib_->call(work_->buffers, r.params, ordinal_, nullptr);
        if (host_call_failed(last, r, work_->pinned_ranges())) return std::nullopt;
        return work_->outputs();
    }

    // The target: the other step's solution on the same case, timed the same way.
    void beside(RunResult& r) override;

private:
    int warmup() const { return in_.req.warmup >= 0 ? in_.req.warmup : in_.step.checks.warmup; }
    int repeat() const { return std::max(1, in_.req.repeat >= 0 ? in_.req.repeat : in_.step.checks.repeat); }

    const StepInputs& in_;
    const GpuContext& ctx_;
    const HostStepBuild& build_;
    int ordinal_;
    std::optional<LoadedHostStep> lib_;
    std::string no_trace_;
    ActivityTracer* tracer_ = nullptr;
    std::optional<HostWorkBuffers> work_;
    HostMeasured mine_;
};

void HostExecutor::beside(RunResult& r) {
    const auto& spec = in_.step.checks.target;
    if (!spec || !r.wall_time) return;
    TargetResult t;
    t.step = spec->step;
    t.measure = spec->measure;
    t.at_most = spec->at_most;
    t.min_gpus = spec->min_gpus;
    t.gpus = lib_->device_count();
    auto pick = [&](const HostMeasured& m) {
        return spec->measure == TargetMeasure::Wall     ? m.wall.median_ms
               : spec->measure == TargetMeasure::Copies ? m.copies_ms
                                                        : m.kernels_ms;
    };
    t.this_ms = pick(mine_);
    if (t.gpus < spec->min_gpus) {
        t.not_applicable = {{"target.fewer_gpus", {std::to_string(t.gpus), std::to_string(spec->min_gpus)}}};
        r.target = std::move(t);
        return;
    }
    const Step* other = in_.req.lesson->find_step(spec->step);
    if (!other || !other->is_host()) throw Error(ErrorKind::Internal, "target step '" + spec->step + "' is not a host step");
    const HostStepBuild other_build = build_host_step(other->solution, *other->host, r.arch);
    if (!other_build.ok) {
        t.not_applicable = {{"target.other_failed", {other->id, first_error(other_build.diagnostics)}}};
        r.target = std::move(t);
        return;
    }
    // The case of the same name, with this run's values of the params both steps have.
    const TestCase* other_case = other->find_case(r.case_name);
    std::map<std::string, double> shared_params;
    for (const auto& [name, value] : r.params)
        if (other->find_param(name)) shared_params[name] = value;
    const std::map<std::string, double> other_params = resolve_params(*other, other_case, shared_params);
    const std::vector<HostBuffer> other_host =
        make_step_buffers(*other, other_case, ExprVars(other_params.begin(), other_params.end()));
    LoadedHostStep other_lib(other_build);
    HostWorkBuffers other_work(*other, other_host, other->host->pinned ? &ctx_.driver() : nullptr);
    const HostMeasured theirs = measure_host_step(
        [&](ActivityTracer* tr) {
            other_work.reset(std::nullopt);
            return other_lib.call(other_work.buffers, other_params, ordinal_, tr);
        },
        tracer_, warmup(), repeat());
    if (theirs.failed) {
        RunResult scratch;
        host_call_failed(*theirs.failed, scratch, other_work.pinned_ranges());
        t.not_applicable = {{"target.other_failed", {other->id, scratch.message}}};
        if (scratch.context_lost) r.context_lost = true;
    } else {
        t.that_ms = pick(theirs);
    }
    r.target = std::move(t);
}

}  // namespace

std::unique_ptr<StepExecutor> make_host_executor(const StepInputs& in, const GpuContext& ctx, const HostStepBuild& build,
                                                 int ordinal) {
    return std::make_unique<HostExecutor>(in, ctx, build, ordinal);
}

}  // namespace wb
