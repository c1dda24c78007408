// runtime/pipeline/run.cpp — the order of a run, and the in-process backend
// that keeps what runs share (the GPU's context, loaded modules, inputs and
// reference outputs, ceilings). The rest of run.hpp is run_request.cpp's.
//
// The order, and why:
//   1. resolve step, case and params   (a bad request fails before any work)
//   2. compile the kernel with NVRTC, or a host step's whole file with nvcc
//      (needs no GPU)
//   3. build and run the CPU reference (its outputs are what the kernel must
//      match; reference_run.hpp keeps them for the next runs)
//   4. size every launch and check it against the device's limits (or the
//      target arch's); without a GPU, stop here (compile-only) unless the
//      kernels go to the CPU emulator. Before the reference, on a GPU, the
//      context's device heap is set to the step's size (limits), before
//      anything of the step is loaded or launched
//   5. an executor (executor.hpp) prepares: the GPU (driver/gpu_executor), a
//      host step's run() (host/host_executor), or the CPU emulator
//      (emulate/emulate_executor)
//   6. validate twice: outputs poisoned with pattern A, then B (unwritten
//      cells show up as A/B), guard zones around every buffer
//   7. judge against the reference (verdict.hpp), once for every executor,
//      and the step's access limits (counted by the CPU emulator: on a GPU
//      by one extra emulated run of the case)
//   8. only when it passed: measure (measure/), then check the outputs the
//      timed runs left against the reference again, then what is measured
//      beside it (a baseline, a target)
#include "pipeline/run.hpp"

#include "core/error.hpp"
#include "driver/gpu.hpp"
#include "driver/gpu_executor.hpp"
#include "emulate/emulate_executor.hpp"
#include "host/host_build.hpp"
#include "host/host_executor.hpp"
#include "lesson/expr.hpp"
#include "lesson/resolve.hpp"
#include "pipeline/executor.hpp"
#include "pipeline/poison.hpp"
#include "pipeline/reference_run.hpp"
#include "pipeline/verdict.hpp"

#include <algorithm>
#include <mutex>
#include <optional>

namespace wb {

namespace {

class LocalBackend final : public RunBackend {
public:
    explicit LocalBackend(int ordinal) : ordinal_(ordinal) {}

    // Also makes the GPU's context, so a fresh worker is ready before its first run.
    BackendInfo info() override {
        std::lock_guard<std::mutex> lock(mutex_);
        BackendInfo bi;
        bi.name = "local";
        try {
            bi.devices = query_devices();
            bi.has_gpu = !bi.devices.empty();
            RunResult ignored;
            if (bi.has_gpu && !context_lost_ && context(ignored))
                bi.devices[std::size_t(ordinal_) < bi.devices.size() ? ordinal_ : 0].free_memory = ctx_->info().free_memory;
        } catch (const Error& e) {
            bi.no_gpu_reason = e.message();
            bi.no_gpu_said = e.said();
        }
        return bi;
    }

    RunResult run(const RunRequest& req) override {
        std::lock_guard<std::mutex> lock(mutex_);  // one run at a time on this backend
        RunResult r;
        try {
            run_impl(req, r);
        } catch (const Error& e) {
            switch (e.kind()) {
            case ErrorKind::Cuda: r.status = RunStatus::CudaError; break;
            case ErrorKind::Reference: r.status = RunStatus::ReferenceError; break;
            case ErrorKind::Compile: r.status = RunStatus::CompileError; break;
            default: r.status = RunStatus::InputError; break;
            }
            r.message = e.what();
            if (!e.said().empty() && e.where().to_string().empty() && e.code().empty()) r.message_said = e.said();
            r.hint = e.hint();
            r.error_code = e.code();
        } catch (const std::exception& e) {
            r.status = RunStatus::InputError;
            r.message = std::string("internal error: ") + e.what();
        }
        // A sticky fault, or memory a host step leaked: this process's CUDA
        // context is no use from now on, and the worker is replaced. A heap
        // size the context cannot take leaves it usable for the steps that fit it.
        if (r.context_lost && !wants_fresh_context(r)) context_lost_ = true;
        if (req.sample_over > 0)
            for (auto* list : {&r.inputs, &r.gpu_outputs, &r.cpu_outputs})
                for (HostBuffer& b : *list) b = sample_buffer(b, req.sample_over);
        return r;
    }

private:
    GpuContext* context(RunResult& r) {
        if (!ctx_ && !gpu_unavailable_) {
            try {
                ctx_ = std::make_unique<GpuContext>(ordinal_);
            } catch (const Error& e) {
                gpu_unavailable_ = true;
                no_gpu_reason_ = e.message();
                no_gpu_said_ = e.said();
            }
        }
        if (ctx_) ctx_->make_current();
        else {
            r.device_note = no_gpu_reason_;
            r.device_note_said = no_gpu_said_;
        }
        return ctx_.get();
    }

    void run_impl(const RunRequest& req, RunResult& r);
    // Steps 1 and 3 alone, for RunRequest::reference_only: the reference's
    // outputs on the case's inputs, stored for the workers of a grade.
    void reference_only(const RunRequest& req, const Step& step, const TestCase* tc, RunResult& r);
    // Steps 5 to 8 over one executor: prepare, validate twice, judge, keep
    // the outputs, measure, check after timing, and what is beside it.
    void run_on(StepExecutor& ex, const StepInputs& in, RunResult& r);
    // 7. The step's access limits (lesson checks.access), which only the CPU
    // emulator can count: from the emulator's own validation runs, or on a
    // GPU, once the outputs passed, from one extra emulated (checked, untimed)
    // run of the case. A timed case, or one the lesson marks too large to
    // emulate, is not judged (the step's other cases are); a case the
    // emulator cannot run fails, since nothing shows its limits kept.
    void judge_limits(StepExecutor& ex, const StepInputs& in, RunResult& r);
    // A kernel step's target (TargetSpec): the named step's solution is run
    // and timed on the same case, and the ratio of the GPU times goes into
    // r.target. Only after this step passed and was timed, on the GPU.
    void judge_kernel_target(const RunRequest& req, const Step& step, RunResult& r);
    // Sizes every launch and checks it against the device's limits (or the
    // target architecture's); a refusal sets r's status to Refused.
    void check_launches(const RunRequest& req, const Step& step, RunResult& r, GpuContext* ctx);
    // The GPU's measured ceilings (ceilings.hpp): read from the cache, or
    // measured once, at the first timed run.
    void add_ceilings(const RunRequest& req, RunResult& r);

    // The loaded module of a compiled image, reused while the same image runs
    // again (an unchanged re-run, a sweep, a compile-cache hit), unless the
    // image has writable globals that would carry values over between runs.
    std::shared_ptr<GpuModule> module_for(const CompileResult& c) {
        const bool reusable = !c.cache_key.empty() && !image_has_writable_globals(c.image, c.is_cubin);
        if (reusable)
            if (const auto* hit = modules_.find(c.cache_key)) return *hit;
        auto m = std::make_shared<GpuModule>(ctx_->driver(), c.image);
        if (reusable) modules_.remember(c.cache_key, m);
        return m;
    }
    // Declared before the modules: members are destroyed in reverse, and a
    // module must be unloaded while its context still exists.
    std::unique_ptr<GpuContext> ctx_;
    RecentCache<std::shared_ptr<GpuModule>> modules_{8};
    ReferenceRunner references_;

    std::mutex mutex_;
    int ordinal_;
    std::optional<Ceilings> ceilings_;  // nullopt until the first timed run
    std::string ceilings_error_;
    bool gpu_unavailable_ = false;
    bool context_lost_ = false;
    // Set while judge_kernel_target runs the other step: that run judges no
    // target of its own, so targets do not chain.
    bool timing_target_ = false;
    std::string no_gpu_reason_;
    Sentence no_gpu_said_;
};

// The request with its case's "block" as the tuned launch's block, unless
// the request overrides that launch's block itself (the student's own
// experiment from the launch panel or --block).
RunRequest with_case_block(const RunRequest& req) {
    RunRequest out = req;
    const Step* step = req.lesson ? request_step(req) : nullptr;
    const TestCase* tc = step ? request_case(req, *step) : nullptr;
    if (!tc || !tc->block || step->launches.empty()) return out;
    const std::size_t tuned = step->tuned_launch();
    if (out.launches.size() <= tuned) out.launches.resize(tuned + 1);
    if (!out.launches[tuned].block) out.launches[tuned].block = *tc->block;
    return out;
}

void LocalBackend::run_impl(const RunRequest& asked, RunResult& r) {
    if (!asked.lesson) throw Error(ErrorKind::Usage, "no lesson given");
    const RunRequest req = with_case_block(asked);
    const Lesson& lesson = *req.lesson;
    r.lesson_id = lesson.id;
    const Step* step = request_step(req);
    if (!step) {
        std::string ids;
        for (const auto& s : lesson.steps) ids += (ids.empty() ? "" : ", ") + s.id;
        throw Error(ErrorKind::Usage, "lesson '" + lesson.id + "' has no step '" + req.step + "'; give a number from 1 to " +
                                          std::to_string(lesson.steps.size()) + " or an id: " + ids);
    }
    r.step_id = step->id;
    const TestCase* tc = request_case(req, *step);
    if (!tc && !req.test_case.empty()) {
        std::string names;
        for (const auto& c : step->checks.cases) names += (names.empty() ? "" : ", ") + c.name;
        throw Error(ErrorKind::Usage, "step '" + step->id + "' has no case '" + req.test_case + "'; its cases are: " + names);
    }
    r.case_name = tc ? tc->name : "";
    r.params = resolve_params(*step, tc, req.params);
    if (req.reference_only) return reference_only(req, *step, tc, r);

    // The device decides the architecture; without one, the request or the default does.
    GpuContext* ctx = (req.compile_only || context_lost_ || req.executor == Executor::Cpu) ? nullptr : context(r);
    const bool on_cpu = !req.compile_only && (req.executor == Executor::Cpu || (req.executor == Executor::Auto && !ctx));
    if (context_lost_ && !on_cpu) {
        r.status = RunStatus::CudaError;
        r.say({{"run.context_lost", {}}});
        r.say_hint({{"hint.context_lost", {}}});
        return;
    }
    // The access record is the emulator's (emulate/access_record.hpp): a GPU run says where to get it.
    if (req.access && !on_cpu) {
        r.access = AccessSummary{};
        r.access->not_recorded = {{"access.needs_emulator", {}}};
    }
    // Nsight Compute profiles a GPU's run (WorkerBackend::run_profiled); the emulator's has the access record.
    if (req.profile && on_cpu) {
        r.profile = AccessSummary{};
        r.profile->source = "ncu";
        r.profile->not_recorded = {{"profile.needs_gpu", {}}};
    }
    if (ctx) r.device = ctx->info();
    r.arch = !req.arch.empty() ? req.arch : ctx ? ctx->info().arch() : default_arch();

    auto phase = [&](const char* name) {
        if (req.on_phase) req.on_phase(name);
    };
    // 2. compile
    phase("compile");
    SourceText source = req.source == SourceChoice::Starter    ? step->starter
                        : req.source == SourceChoice::Solution ? step->solution
                                                               : SourceText{req.custom_source, req.custom_origin, ""};
    std::optional<HostStepBuild> host_build;
    if (step->is_host()) {
        // nvcc builds the whole file; its diagnostics are on the student's lines.
        r.host_step = true;
        host_build = build_host_step(source, *step->host, r.arch);
        r.compile.ok = host_build->ok;
        r.compile.diagnostics = host_build->diagnostics;
        const OmittedDiagnostics omitted = cap_diagnostics(r.compile.diagnostics);
        r.compile.diagnostics_omitted = omitted.count;
        r.compile.omitted_errors = omitted.errors;
        r.compile.omitted_warnings = omitted.warnings;
        r.compile.log = host_build->log.size() > (1u << 20) ? host_build->log.substr(0, 1u << 20) : host_build->log;
        r.compile.arch = r.arch;
        r.compile.options = host_build->command;
        r.compile.seconds = host_build->seconds;
        r.compile.from_cache = host_build->from_cache;
        r.compile.cache_source = host_build->from_cache ? "disk" : "";
    } else {
        r.compile = compile_cuda(source, step_compile_options(*step, r.arch));
    }
    if (!r.compile.ok) {
        r.status = RunStatus::CompileError;
        int n = r.compile.error_count();
        r.say({n == 1 ? Phrase{"run.compile_error_one", {source.origin}}
                      : Phrase{"run.compile_errors", {std::to_string(n), source.origin}}});
        say_first_error(r, r.compile.diagnostics, source.text);
        return;
    }
    if (req.inspect && !step->is_host()) r.inspection = inspect_report(source, *step, r.arch);

    // Metrics need only params.
    ExprVars vars(r.params.begin(), r.params.end());
    auto metric = [&](const std::string& expr, const char* key) {
        if (expr.empty()) return 0.0;
        try { return eval_expr(expr, vars); }
        catch (const Error& e) { throw Error(ErrorKind::Expression, e.message(), {"", step->json_path + ".metrics." + key}); }
    };
    r.bytes = metric(step->metrics.bytes, "bytes");
    r.flops = metric(step->metrics.flops, "flops");
    const std::vector<CompareSpec> compare = resolve_compare(*step, r.params);  // a bad tolerance fails here, GPU or not
    const std::vector<AccessLimitBounds> access_limits = resolve_access_limits(*step, r.params);  // and a bad bound

    // Compile-as-you-type: diagnostics and the launch limits, nothing run. The
    // reference may be built (not run) ahead of the first Run.
    if (!req.reference || req.reference_build_only) {
        if (req.reference && req.reference_build_only) {
            phase("reference");
            r.reference = build_reference(step->reference);
        }
        check_launches(req, *step, r, ctx);
        if (r.status == RunStatus::Refused) return;
        r.status = RunStatus::CompileOnly;
        r.say({{"run.compile_only_typing", {}}});
        return;
    }

    // The device heap of the step's launches (limits.malloc_heap_bytes, else
    // CUDA's default; a bad size fails here on every backend). On a GPU the
    // context takes it now, before the step loads or launches anything; a
    // step without one, a host step included, gets the default back, as in a
    // fresh process, where the driver allows it. The driver refuses a change
    // once a kernel that calls malloc has run in the context: for a step that
    // asked for its size, the worker is then replaced and runs this request
    // again (WorkerBackend, wants_fresh_context); a step that did not ask runs
    // with the heap the context has (nothing it does depends on the size, and
    // every later run would otherwise start a fresh context, or, in-process,
    // fail).
    const long long heap = resolve_malloc_heap(*step, r.params);
    const bool heap_asked = !step->limits.malloc_heap_bytes.empty();
    if (ctx && !on_cpu && !ctx->set_malloc_heap(static_cast<std::size_t>(heap)) && heap_asked) {
        r.status = RunStatus::CudaError;
        r.error_code = "CUDA_ERROR_INVALID_VALUE";
        r.context_lost = true;
        r.say({{"run.heap_fixed", {std::to_string(heap), std::to_string(ctx->malloc_heap())}}});
        r.say_hint({{"hint.heap_fixed", {}}});
        return;
    }

    // 3. the CPU reference, on inputs made once for these params
    std::string inputs_key;
    const std::vector<HostBuffer> host = references_.inputs(req, *step, tc, r, inputs_key);
    phase("reference");
    r.reference = build_reference(step->reference);
    if (!r.reference.ok) {
        r.status = RunStatus::ReferenceError;
        r.say({{"run.reference_no_compile", {}}});
        say_first_error(r, r.reference.diagnostics, step->reference.source.text);
        return;
    }
    // Buffers a multi-pass launch swaps must be the same size: the lesson's error, found before
    // anything runs.
    for (const auto& spec : step->launches)
        for (std::size_t k = 0; k < spec.swap.size(); ++k) {
            const HostBuffer* a = find_in(host, spec.swap[k].first);
            const HostBuffer* b = find_in(host, spec.swap[k].second);
            if (!a || !b) throw Error(ErrorKind::Internal, "a swapped buffer is missing");
            if (a->size_bytes() != b->size_bytes())
                throw Error(ErrorKind::Usage,
                            "buffers '" + a->name + "' (" + std::to_string(a->count()) + " elements) and '" + b->name + "' (" +
                                std::to_string(b->count()) + ") cannot swap between passes: for these params their sizes differ",
                            {"", spec.json_path + ".swap[" + std::to_string(k) + "]"});
        }
    const std::optional<std::vector<HostBuffer>> reference_out = references_.outputs(req, *step, compare, host, inputs_key, r);
    if (!reference_out) return;
    auto keep_reference_outputs = [&] {
        if (req.keep_buffers)
            for (const auto& h : *reference_out)
                if (h.role != BufferRole::Input) r.cpu_outputs.push_back(h);
    };

    // 4. launch sizes and limits; what constants need of the buffers, so a
    // machine without a GPU reports it too
    std::vector<std::vector<unsigned char>> constants;
    for (const auto& c : step->constants) constants.push_back(constant_bytes(c, host, r.params));
    check_launches(req, *step, r, ctx);
    if (r.status == RunStatus::Refused) return;
    if (req.keep_buffers)
        for (const auto& h : host)
            if (h.role != BufferRole::Output) r.inputs.push_back(h);

    if (on_cpu && step->is_host()) {
        r.status = RunStatus::Refused;
        r.say({{"host.no_emulator", {}}});
        keep_reference_outputs();
        return;
    }
    if (!on_cpu && !ctx) {
        r.status = RunStatus::CompileOnly;
        r.say({{req.compile_only ? "run.compile_only_asked" : "run.compile_only_no_gpu", {}}});
        keep_reference_outputs();
        return;
    }

    // 5 to 8, on the executor for where the code runs
    const StepInputs in{req, *step, source, compare, access_limits, constants, host, *reference_out, heap};
    std::unique_ptr<StepExecutor> ex;
    if (on_cpu) {
        phase("emulate");
        ex = make_emulate_executor(in);
    } else if (host_build) {
        phase("host");
        ex = make_host_executor(in, *ctx, *host_build, ordinal_);
    } else {
        phase("gpu");
        ex = make_gpu_executor(in, *ctx, module_for(r.compile));
    }
    run_on(*ex, in, r);
    if (!on_cpu && !host_build) judge_kernel_target(req, *step, r);
}

void LocalBackend::reference_only(const RunRequest& req, const Step& step, const TestCase* tc, RunResult& r) {
    const std::vector<CompareSpec> compare = resolve_compare(step, r.params);
    std::string inputs_key;
    const std::vector<HostBuffer> host = references_.inputs(req, step, tc, r, inputs_key);
    r.reference = build_reference(step.reference);
    if (!r.reference.ok) {
        r.status = RunStatus::ReferenceError;
        r.say({{"run.reference_no_compile", {}}});
        say_first_error(r, r.reference.diagnostics, step.reference.source.text);
        return;
    }
    const std::optional<std::vector<HostBuffer>> out = references_.outputs(req, step, compare, host, inputs_key, r);
    if (!out) return;
    if (req.keep_buffers) {  // the inputs and the reference's outputs, as a run keeps them
        for (const auto& h : host)
            if (h.role != BufferRole::Output) r.inputs.push_back(h);
        for (const auto& h : *out)
            if (h.role != BufferRole::Input) r.cpu_outputs.push_back(h);
    }
    r.status = RunStatus::CompileOnly;
}

void LocalBackend::run_on(StepExecutor& ex, const StepInputs& in, RunResult& r) {
    if (!ex.prepare(r)) return;
    // 6. two validation runs with different poison and guard patterns
    const std::optional<std::vector<HostBuffer>> run_a = ex.validate(r, kPoisonA, kGuardA, nullptr);
    if (!run_a) return;
    const std::optional<std::vector<HostBuffer>> run_b = ex.validate(r, kPoisonB, kGuardB, &*run_a);
    if (!run_b) return;
    // 7. the verdict, and the outputs the front end shows beside the reference's
    bool passed = judge_outputs(r, in.compare, *run_a, *run_b, in.reference_out, ex.out_of_bounds());
    if (!in.access_limits.empty()) {
        judge_limits(ex, in, r);
        passed = passed && r.status == RunStatus::Passed;
    }
    for (const Phrase& p : ex.warnings()) r.say_more(p);
    if (in.req.keep_buffers) {
        r.gpu_outputs = *run_a;
        for (const auto& h : in.reference_out)
            if (h.role != BufferRole::Input) r.cpu_outputs.push_back(h);
    }
    if (!passed) return;
    // 8. measure, then the check after timing: a time stands only for outputs that are still right
    const std::optional<std::vector<HostBuffer>> after = ex.measure(r);
    if (r.status != RunStatus::Passed) return;
    if (after && !judge_after_timing(r, in.compare, *after, in.reference_out)) {
        r.gpu_time.reset();
        r.wall_time.reset();
        return;
    }
    if (r.gpu_time) add_ceilings(in.req, r);
    ex.beside(r);
}

void LocalBackend::judge_limits(StepExecutor& ex, const StepInputs& in, RunResult& r) {
    if (const std::optional<AccessCounts> counts = ex.access_counts()) {
        judge_access_limits(r, in.access_limits, &*counts);
        return;
    }
    if (r.status != RunStatus::Passed) return;  // a wrong output is the verdict: no emulated run for it
    const TestCase* tc = request_case(in.req, in.step);
    if (tc && tc->timing) {
        judge_access_limits(r, in.access_limits, nullptr, {{"access.not_judged.timed", {}}});
        return;
    }
    if (tc && !tc->emulate) {
        judge_access_limits(r, in.access_limits, nullptr, {{"access.not_judged.not_emulated", {}}});
        return;
    }
    if (in.req.on_phase) in.req.on_phase("emulate");
    RunResult emulated;
    emulated.params = r.params;
    emulated.launches = r.launches;
    std::optional<AccessCounts> counts;
    const std::unique_ptr<StepExecutor> em = make_emulate_executor(in);
    if (em->prepare(emulated) && em->validate(emulated, kPoisonA, kGuardA, nullptr)) counts = em->access_counts();
    if (counts) {
        judge_access_limits(r, in.access_limits, &*counts);
        return;
    }
    Sentence why{{"access.not_judged.emulator_failed", {}}};
    if (!emulated.message_said.empty()) why.insert(why.end(), emulated.message_said.begin(), emulated.message_said.end());
    else why.push_back(verbatim(emulated.message));
    judge_access_limits(r, in.access_limits, nullptr, why, true);
}

void LocalBackend::add_ceilings(const RunRequest& req, RunResult& r) {
    if (!ceilings_ && ceilings_error_.empty()) {
        if (req.on_phase) req.on_phase("ceilings");
        try {
            ceilings_ = ceilings_for(*ctx_);
        } catch (const Error& e) {
            ceilings_error_ = e.describe();
        }
    }
    r.ceilings = ceilings_;
}

void LocalBackend::judge_kernel_target(const RunRequest& req, const Step& step, RunResult& r) {
    const auto& spec = step.checks.target;
    if (!spec || step.is_host() || timing_target_ || r.status != RunStatus::Passed || !r.gpu_time) return;
    TargetResult t;
    t.step = spec->step;
    t.measure = TargetMeasure::Kernels;
    t.at_most = spec->at_most;
    t.min_gpus = spec->min_gpus;
    t.this_ms = r.gpu_time->median_ms;
    try {
        t.gpus = static_cast<int>(query_devices().size());
    } catch (const Error&) {
        t.gpus = 1;  // this run had one
    }
    if (t.gpus < spec->min_gpus) {
        t.not_applicable = {{"target.fewer_gpus", {std::to_string(t.gpus), std::to_string(spec->min_gpus)}}};
        r.target = std::move(t);
        return;
    }
    const Step* other = req.lesson->find_step(spec->step);
    if (!other || other->is_host()) throw Error(ErrorKind::Internal, "target step '" + spec->step + "' is not a kernel step");
    // The other step's solution on the case of the same name (else its first),
    // with this run's values of the params both steps have, timed the same way.
    RunRequest o;
    o.lesson = req.lesson;
    o.step = other->id;
    o.test_case = other->find_case(r.case_name) ? r.case_name : "";
    o.source = SourceChoice::Solution;
    o.executor = Executor::Gpu;
    o.arch = req.arch;
    o.timing = true;
    o.warm_l2 = req.warm_l2;
    o.warmup = req.warmup;
    o.repeat = req.repeat;
    o.keep_buffers = false;
    o.trusted = req.trusted;
    o.timeout_s = req.timeout_s;
    for (const auto& [name, value] : r.params)
        if (other->find_param(name)) o.params[name] = value;
    RunResult theirs;
    timing_target_ = true;
    try {
        run_impl(o, theirs);
    } catch (const Error& e) {
        theirs.status = RunStatus::InputError;
        theirs.message = e.what();
    }
    timing_target_ = false;
    if (theirs.context_lost) r.context_lost = true;
    if (theirs.status != RunStatus::Passed || !theirs.gpu_time) {
        t.not_applicable = {{"target.other_failed", {other->id, theirs.message}}};
    } else {
        t.that_ms = theirs.gpu_time->median_ms;
    }
    r.target = std::move(t);
}

void LocalBackend::check_launches(const RunRequest& req, const Step& step, RunResult& r, GpuContext* ctx) {
    const DeviceLimits limits = ctx ? ctx->info().limits : limits_for_arch(arch_number(r.arch));
    for (LaunchReport& lr : check_step_launches(step, r.params, req.launches, limits)) {
        r.launches.push_back(std::move(lr));
        if (r.launches.back().refusal) {
            set_refused(r, r.launches.back());
            return;
        }
    }
}

}  // namespace

std::unique_ptr<RunBackend> make_local_backend(int ordinal) { return std::make_unique<LocalBackend>(ordinal); }

}  // namespace wb
