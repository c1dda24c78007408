// runtime/pipeline/run.hpp — one run of a lesson step: compile, reference, launch, compare, time.
//
// run.cpp holds the order of a run over three executors (executor.hpp);
// measure/ holds how things are timed, and lesson/resolve.hpp the lesson's
// rules evaluated for a run. The run pipeline sits behind RunBackend so the
// front ends (CLI, GUI) never care where the work happens. LocalBackend runs it in this process;
// WorkerBackend (worker.hpp) in a supervised worker process, so that a kernel
// fault cannot take the GUI down. Both take the same RunRequest and give the
// same RunResult, which are plain data: wire.hpp carries them across the
// process boundary and report.hpp writes them as JSON. RunRequest::executor
// sends the kernels to the CPU emulator instead of the GPU.
#pragma once

#include "compare/compare.hpp"
#include "compile/nvrtc.hpp"
#include "core/phrase.hpp"
#include "data/buffers.hpp"
#include "driver/device.hpp"
#include "emulate/access_summary.hpp"
#include "host/timeline.hpp"
#include "inspect/inspect.hpp"
#include "lesson/lesson.hpp"
#include "lesson/resolve.hpp"
#include "measure/baseline.hpp"
#include "measure/ceilings.hpp"
#include "measure/timing.hpp"
#include "reference/reference.hpp"
#include "sanitizer/sanitizer.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wb {

enum class SourceChoice { Starter, Solution, Custom };

// Where a step's kernels run. Gpu: on the GPU, or compile-only without one.
// Cpu: on the CPU emulator (emulate/emulator.hpp), GPU or not. Auto: the GPU
// when there is one, else the CPU emulator.
enum class Executor { Gpu, Cpu, Auto };
const char* executor_name(Executor e);                 // "gpu", "cpu", "auto"
std::optional<Executor> parse_executor(std::string_view s);

struct RunRequest {
    std::shared_ptr<const Lesson> lesson;
    std::string step;                        // id, or number from 1 (the GUI's); "" = first step
    std::string test_case;                   // name; "" = first case
    SourceChoice source = SourceChoice::Starter;
    std::string custom_source;               // for SourceChoice::Custom
    std::string custom_origin = "kernel.cu"; // file name shown in diagnostics
    std::map<std::string, double> params;    // overrides, checked against bounds
    std::vector<LaunchOverride> launches;    // by launch index (see Step::tuned_launch for the student's)
    std::string arch;                        // "" = the device's own, or default_arch()
    bool compile_only = false;               // stop after compile + reference + limits
    Executor executor = Executor::Gpu;       // where the kernels run
    // Build and run the CPU reference. Compile-as-you-type turns it off: it
    // wants diagnostics, and the reference is built and run when the student runs.
    bool reference = true;
    // With `reference`: build the CPU reference's library (cached for the
    // first Run) but run nothing of it; the result is as for compile-as-you-type.
    bool reference_build_only = false;
    // Only the case's inputs and the CPU reference's outputs, which are kept
    // on disk for workers to read (pipeline/reference_store.hpp): no kernel
    // is compiled or run, and the result is CompileOnly, or ReferenceError
    // with why; with keep_buffers, the inputs and the reference's outputs. grade makes these in its own process before any submission
    // runs; a worker never writes the store. Not carried across processes.
    bool reference_only = false;
    bool timing = true;                      // time the kernel after it passes
    bool warm_l2 = false;                    // keep L2 warm between samples (default: flush it when the buffers fit)
    int warmup = -1, repeat = -1;            // -1 = the lesson's checks
    bool keep_buffers = true;                // return inputs and outputs (the GUI draws them)
    // With keep_buffers: a buffer of more elements than this comes back as a
    // sample of at most this many (sample_buffer, HostBuffer::sample_of);
    // 0 = every buffer whole. The GUI asks for kSampleOver.
    std::size_t sample_over = 0;
    // Also look inside the compiled kernels (inspect/inspect.hpp): resources,
    // PTX and SASS in RunResult::inspection. The GUI asks for it while one of
    // those views is open; it costs a second compile.
    bool inspect = false;
    // Also record what the threads of a few blocks read and write (the CPU
    // emulator's first validation run only): RunResult::access.
    bool access = false;
    // Profile the step's kernels with Nsight Compute (profile/ncu.hpp): a
    // one-shot worker under ncu (WorkerBackend only, on a GPU), no timing;
    // the per-line table comes back in RunResult::profile.
    bool profile = false;
    double timeout_s = 0;                    // > 0: deadline for the whole run; 0 = the case's or lesson's
    // Run under compute-sanitizer (WorkerBackend only: a one-shot worker under the
    // wrapper). Timing is skipped, and the deadline is sanitized_timeout().
    SanitizerTool sanitizer = SanitizerTool::None;
    // The front end's trust decision (core/trust.hpp, lesson_is_trusted). The
    // worker runs nothing of a lesson outside the shipped folder unless this
    // is set: trust is checked where the code would run, not only where the
    // request is made.
    bool trusted = false;
    // Names this request for WorkerBackend::cancel(token); 0 = unnamed.
    std::uint64_t cancel_token = 0;
    // Called as the run enters each phase: "compile", "reference", "gpu", "timing".
    // Not carried across processes; the worker uses it to report where it is.
    std::function<void(const char* phase)> on_phase;
    // Called before each of the CPU emulator's launches with its kernel's
    // name. Not carried across processes; the worker tells the supervisor, so
    // that a worker that ends during a launch is said to have ended in it.
    std::function<void(const std::string& kernel)> on_kernel;
};

enum class RunStatus {
    Passed,          // every compared output within tolerance
    Mismatch,        // ran, but an output is wrong
    CompileError,    // the kernel did not compile
    ReferenceError,  // the CPU reference did not build or run
    Refused,         // a launch broke a device limit; nothing ran
    CudaError,       // the driver reported an error during the run
    InputError,      // bad params, shapes or overrides
    CompileOnly,     // no GPU: compiled and checked what can be checked (or a reference_only run's outputs were made)
    TimedOut,        // the run passed its deadline and was stopped (the worker was replaced)
    Crashed,         // the process running it died (a crashing CPU reference, say); it was replaced
    Stopped,         // the user stopped it
    // A host step's run() failed: it returned an error (WB_CHECK's message),
    // left memory allocated, or returned while the GPU was still working.
    HostError,
    // Under compute-sanitizer, the sanitizer reported errors. This overrides
    // Passed (an off-by-one write passes the comparison yet is a bug) and the
    // CudaError memcheck causes by stopping the kernel at the bad access; the
    // message says what the run itself did.
    SanitizerErrors,
    // Every compared output was right, but the kernel broke one of the step's
    // access limits (lesson checks.access): it read, wrote or updated memory
    // more or fewer times than the step allows, or a line's sectors per
    // request or bank conflicts went past the step's bound.
    AccessLimit,
};

const char* run_status_name(RunStatus s);
// The status as a student reads it in `lang`: run_status_name in English,
// the catalogue's "status.<name>" otherwise.
std::string run_status_label(RunStatus s, std::string_view lang);

// A host step's speed against another step's solution, both timed in this
// run (TargetSpec): this step's measure over that one's must be at most `at_most`.
struct TargetResult {
    std::string step;                 // the other step's id
    TargetMeasure measure = TargetMeasure::Wall;
    double at_most = 1;
    double this_ms = 0, that_ms = 0;  // the measure's median: this run's, and the other step's solution's
    int min_gpus = 1, gpus = 0;       // what the target needs, and what this machine has
    // Empty when the target applies; else why not, as phrases (too few GPUs,
    // the other step's solution failed).
    Sentence not_applicable;

    double ratio() const { return that_ms > 0 ? this_ms / that_ms : 0; }
    bool applies() const { return not_applicable.empty() && that_ms > 0; }
    bool met() const { return applies() && ratio() <= at_most; }
};

// One access limit's verdict (lesson checks.access), decided by
// judge_access_limits (verdict.hpp) from what the CPU emulator counted.
enum class LimitVerdict { Passed, Failed, NotJudged };
const char* limit_verdict_name(LimitVerdict v);  // "passed", "failed", "not-judged"

struct AccessLimitResult {
    std::string json_path;  // the limit in the lesson: "steps[2].checks.access[1]"
    Sentence limit;         // the limit, as a student reads it: "global memory reads per thread: at most 2"
    LimitVerdict verdict = LimitVerdict::NotJudged;
    // What was found: a broken limit's worst thread, element or line and its
    // count; a passed one's extremes; why one was not judged.
    Sentence said;
    // The count on the side the limit watches (the highest against at_most,
    // else the lowest; a broken limit's is the one `said` names), or the
    // worst line's figure; 0 when not judged.
    double value = 0;
    // The lesson's reason for the limit, by language ("en", "zh"; "" for a
    // plain string), said after a broken limit's verdict.
    std::map<std::string, std::string> why;

    std::string said_in(std::string_view lang) const { return render(said, lang); }
    std::string limit_in(std::string_view lang) const { return render(limit, lang); }
};

struct LaunchReport {
    std::string entry;
    LaunchDims dims;          // of the first pass
    long long passes = 1;     // how many times it runs in a row; 0 = not at all for these params
    bool tuned = false;       // the launch the overrides change
    KernelResources resources;
    std::optional<LaunchRefusal> refusal;
    bool shared_optin = false;
};

struct RunResult {
    RunStatus status = RunStatus::InputError;
    std::string message;     // one sentence: what happened
    std::string hint;        // what to do about it, when there is something
    std::string error_code;  // e.g. CUDA_ERROR_ILLEGAL_ADDRESS
    std::string output;      // what the kernel printed (device printf, assert messages) and other stdout/stderr
    bool context_lost = false;  // the process is not fit for more runs: a sticky fault ruined its CUDA context, or run() left threads running
    int fault_line = 0;         // the student's source line where a kernel faulted, when known (the CPU emulator's); 0: not known

    std::string lesson_id, step_id, case_name;
    std::map<std::string, double> params;  // the values used
    std::string arch;
    std::optional<DeviceInfo> device;
    std::string device_note;               // why there is no device, in compile-only mode

    // message, hint and device_note as catalogue phrases (core/phrase.hpp), for
    // a front end to show in the student's language. Empty where the text is
    // not the catalogue's (a compiler's or a driver's own words): then the
    // English text is shown in every language.
    Sentence message_said, hint_said, device_note_said;
    void say(Sentence s) {
        message = render(s, "en");
        message_said = std::move(s);
    }
    // Appends to the message, keeping what it said so far.
    void say_more(Phrase p) {
        if (message_said.empty() && !message.empty()) message_said.push_back(verbatim(message));
        message_said.push_back(std::move(p));
        message = render(message_said, "en");
    }
    void say_hint(Sentence s) {
        hint = render(s, "en");
        hint_said = std::move(s);
    }
    std::string message_in(std::string_view lang) const { return render_checked(message, message_said, lang); }
    std::string hint_in(std::string_view lang) const { return render_checked(hint, hint_said, lang); }
    std::string device_note_in(std::string_view lang) const {
        return render_checked(device_note, device_note_said, lang);
    }
    // Said once per front end, beside a result: why runs are not contained
    // (sandbox/sandbox.hpp). Set by WorkerBackend on its first result when its
    // worker could not be contained; empty otherwise.
    Sentence notice_said;

    CompileResult compile;
    std::optional<InspectionReport> inspection;  // when the request asked (RunRequest::inspect) and it compiled
    ReferenceBuild reference;
    std::vector<LaunchReport> launches;
    std::vector<CompareResult> comparisons;

    std::optional<Timing> gpu_time;
    // A host step (Step::host): its run() wall time, timed like a kernel once
    // it passed (warm-up, then samples until the noise target), and what ran
    // on the GPUs during one traced call (the last warm one when timed, else
    // the first validation run). gpu_time is unset for host steps.
    bool host_step = false;
    std::optional<Timing> wall_time;
    std::optional<Timeline> timeline;
    std::optional<TargetResult> target;
    // The time the step is judged by: a kernel step's GPU time, a host step's
    // run() wall time; null when it was not timed.
    const Timing* step_time() const { return gpu_time ? &*gpu_time : wall_time ? &*wall_time : nullptr; }
    // Ran on the CPU emulator: no GPU time, no GB/s against the GPU's
    // ceilings; emulated_ms is the launches' wall time on the CPU (-1: none).
    bool emulated = false;
    double emulated_ms = -1;
    double cpu_ms = -1;                    // the reference's run time, -1 when it did not run:
    double cpu_cold_ms = -1;               //   the median of cpu_warm_runs warm calls after the
    int cpu_warm_runs = 0;                 //   cold first one, or that one call (warm runs 0);
    int cpu_threads = 1;                   //   with this many threads (cpu_method says how it was built)
    // What the CPU time is: "median of 5 warm calls after a cold one, 1 thread(s), g++ -O3 -march=native
    // -ffp-contract=off -fopenmp" (reference_compiler_summary: the compiler and flags that built it).
    // The reference's outputs and time came from an earlier run on the same inputs (not run again).
    bool cpu_from_cache = false;
    Sentence cpu_method() const {
        const std::string built = reference_compiler_summary(reference);
        Sentence s = {cpu_warm_runs > 0 ? Phrase{"cpu.method_warm", {std::to_string(cpu_warm_runs), std::to_string(cpu_threads), built}}
                                        : Phrase{"cpu.method_cold", {std::to_string(cpu_threads), built}}};
        if (cpu_from_cache) s.push_back({"cpu.from_cache", {}});
        return s;
    }
    double bytes = 0, flops = 0;           // from the lesson's metrics, 0 when not given
    double gbs() const { return gpu_time && gpu_time->median_ms > 0 ? bytes / gpu_time->median_ms / 1e6 : 0; }
    double gflops() const { return gpu_time && gpu_time->median_ms > 0 ? flops / gpu_time->median_ms / 1e6 : 0; }
    // The GPU's measured ceilings (ceilings.hpp), with a timed run on a GPU.
    std::optional<Ceilings> ceilings;
    // GB/s as a share of the measured device-to-device copy, and GFLOP/s of
    // the FP32 FMA peak; 0 when either side is unknown.
    double bandwidth_fraction() const { return ceilings && ceilings->copy_gbs > 0 ? gbs() / ceilings->copy_gbs : 0; }
    double compute_fraction() const { return ceilings && ceilings->fp32_gflops > 0 ? gflops() / ceilings->fp32_gflops : 0; }
    // The lesson's baseline, timed beside the kernel (baseline.hpp); with a timed run.
    std::optional<BaselineResult> baseline;
    // How close the kernel came to the baseline: its speed as a share of the
    // baseline's (0.15: 15%). A memcpy moves other bytes than the kernel, so
    // against it the share is of GB/s, not of time. 0 when either is not timed.
    double baseline_fraction() const {
        if (!baseline || !baseline->ran || baseline->median_ms <= 0 || !gpu_time || gpu_time->median_ms <= 0) return 0;
        if (baseline->kind == "memcpy") return baseline->gbs() > 0 ? gbs() / baseline->gbs() : 0;
        return baseline->median_ms / gpu_time->median_ms;
    }
    // FLOPs per byte moved (the roofline's x); 0 unless both metrics are given.
    double intensity() const { return bytes > 0 && flops > 0 ? flops / bytes : 0; }
    // GFLOP/s over what the roofline allows at this intensity; 0 when unknown.
    double roof_fraction() const { return ceilings ? Roofline::of(*ceilings).fraction(intensity(), gflops()) : 0; }

    // Under compute-sanitizer: the tool, its findings, and its "ERROR SUMMARY"
    // count (-1 when there was no sanitizer or its report had no summary).
    SanitizerTool sanitizer = SanitizerTool::None;
    std::vector<SanitizerFinding> sanitizer_findings;
    int sanitizer_errors = -1;

    // With RunRequest::access: per source line, the warp-level requests, sectors
    // and bank conflicts of a few sampled blocks, and each of their threads'
    // reads and writes (emulate/access_summary.hpp); its not_recorded says why
    // there are none (the GPU ran the step, or the run stopped before its end).
    std::optional<AccessSummary> access;
    // With RunRequest::profile: the same table from Nsight Compute's source
    // counters, every block of the first validation run's launches (source "ncu");
    // its not_recorded says why there is none (no GPU, no ncu, no permission).
    std::optional<AccessSummary> profile;
    // The step's access limits (lesson checks.access), each with its verdict,
    // in the lesson's order; empty when the step has none or the run did not
    // get as far as judging them (it stopped, or its outputs were wrong on a GPU).
    std::vector<AccessLimitResult> access_limits;

    std::vector<HostBuffer> inputs;        // as given to the kernel (when keep_buffers)
    std::vector<HostBuffer> gpu_outputs;   // outputs and inouts after the kernel
    std::vector<HostBuffer> cpu_outputs;   // the same, after the reference
};

// The launch rule, for a run and for the GUI's launch panel alike: every launch of `step` sized
// for `params` (overrides[i] applies to launch i, when given) and every pass of it checked against
// `limits`. The reports stop at the first refused launch, whose `refusal` says why (and which
// pass). Throws wb::Error for an expression that does not evaluate.
std::vector<LaunchReport> check_step_launches(const Step& step, const std::map<std::string, double>& params,
                                              const std::vector<LaunchOverride>& overrides, const DeviceLimits& limits);

struct BackendInfo {
    std::string name;                      // "local"
    bool has_gpu = false;
    std::string no_gpu_reason;
    Sentence no_gpu_said;                  // the same as catalogue phrases, when it was made from them
    std::vector<DeviceInfo> devices;
};

class RunBackend {
public:
    virtual ~RunBackend() = default;
    virtual BackendInfo info() = 0;
    // Never throws for anything a lesson or a student can cause: every failure
    // is a RunResult with a status and a message.
    virtual RunResult run(const RunRequest& request) = 0;
};

// Runs in this process, on GPU `ordinal` when there is one, compile-only when not.
// A kernel fault or a crashing reference takes this process with it: front ends
// use the worker backend (worker.hpp); this one is what the worker runs.
std::unique_ptr<RunBackend> make_local_backend(int ordinal = 0);

// True when the run stopped before anything of it ran because this
// process's GPU context cannot take the step's device heap size (a kernel
// that called malloc had fixed it: the result says run.heap_fixed). The
// worker backend replaces the worker and runs such a request again, once, in
// the fresh context.
bool wants_fresh_context(const RunResult& r);

// The step and the case a request names ("" = the first of each); null when
// there is no lesson, or it has no such step or case.
const Step* request_step(const RunRequest& request);
const TestCase* request_case(const RunRequest& request, const Step& step);

// The deadline for a request: its own, else its case's, else its lesson's checks.
double run_timeout(const RunRequest& request);

// Where run_timeout() took its value from, as a catalogue argument for messages:
// "@deadline.given" (the time limit given for this run), "@deadline.case|large", ...
std::string run_timeout_source(const RunRequest& request);

// The deadline under compute-sanitizer, which slows kernels by 10-100x:
// ten times run_timeout(), and at least 120 s.
double sanitized_timeout(const RunRequest& request);

// Folds a parsed sanitizer report into a result: findings, the error count,
// and the status (SanitizerErrors when the report has errors). `status_before`
// is what the run reported by itself; it stays in the message.
void apply_sanitizer_report(RunResult& result, SanitizerTool tool, const SanitizerReport& report);

}  // namespace wb
