// runtime/pipeline/worker.cpp — the worker's supervisor, WorkerBackend (see
// worker.hpp): the warm worker and its replacement, requests sent and their
// progress and results read under a deadline, cancel(), runs under
// compute-sanitizer in a worker of their own, and what each way of failing
// becomes. Starting a worker process and seeing it end is worker_process.cpp's;
// the worker's own request loop is worker_main.cpp's.
#include "pipeline/worker.hpp"

#include "compile/nvrtc.hpp"
#include "core/error.hpp"
#include "data/buffers.hpp"
#include "core/data_dirs.hpp"
#include "measure/ceilings.hpp"
#include "pipeline/remote.hpp"
#include "pipeline/wire.hpp"
#include "pipeline/worker_process.hpp"
#include "profile/ncu.hpp"
#include "sanitizer/sanitizer.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>

namespace fs = std::filesystem;

namespace wb {

namespace {

// A signal as a catalogue argument: "@signal.11" ("signal 11 (Segmentation fault)"), or the number alone.
std::string signal_text(int sig) {
    switch (sig) {
    case SIGILL: case SIGABRT: case SIGBUS: case SIGFPE: case SIGKILL: case SIGSEGV: case SIGTERM:
        return "@signal." + std::to_string(sig);
    default: {
        const char* abbrev = ::sigabbrev_np(sig);
        return "@signal.other|" + std::to_string(sig) + "|" + (abbrev ? std::string("SIG") + abbrev : "?");
    }
    }
}

// A phase as a catalogue argument ("@phase.gpu": "while running the kernel").
// Every phase run.cpp reports has a phrase; a run that ended before saying one is "while running",
// so a sentence never has an empty place in it ("timed out after 5 s while ...").
std::string phase_text(const std::string& phase) {
    if (phase == "compile" || phase == "reference" || phase == "gpu" || phase == "timing" || phase == "start" ||
        phase == "host" || phase == "emulate" || phase == "baseline" || phase == "ceilings")
        return "@phase." + phase;
    return "@phase.running";
}

// Where a run was, as the worker's progress frames said: the phase, the
// emulated kernel being launched, and exit()'s status if something in the
// worker called it during the request.
struct Whereabouts {
    std::string phase = "start";
    std::string kernel;
    std::optional<int> exit_called;
};

// The phase as a catalogue argument, with the kernel when it is known.
std::string where_text(const Whereabouts& at) {
    if (at.phase == "emulate" && !at.kernel.empty()) return "@phase.emulate_kernel|" + at.kernel;
    return phase_text(at.phase);
}

// What is known of a run before the worker answers, for the failures.
RunResult initial_result(const RunRequest& req) {
    RunResult r;
    r.step_id = req.step;
    r.case_name = req.test_case;
    if (req.lesson) {
        r.lesson_id = req.lesson->id;
        if (const Step* s = request_step(req)) {
            r.step_id = s->id;
            if (const TestCase* tc = request_case(req, *s)) r.case_name = tc->name;
        }
    }
    return r;
}

std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", s);
    return buf;
}

}  // namespace

WorkerBackend::WorkerBackend(WorkerOptions options) : options_(std::move(options)) {
    if (options_.executable.empty()) options_.executable = find_worker_executable();
    view_ = worker_folders(options_.executable);
}

void WorkerBackend::make_visible(const RunRequest& req) {
    if (!req.lesson || remote()) return;  // a far end sees the files the request brings
    bool added = false;
    for (const auto& f : lesson_folders(req.lesson->file))
        if (!visible_in(view_, f)) {
            view_.read.push_back(f);
            added = true;
        }
    // A contained worker sees only the folders it was started with: one that
    // cannot read this lesson's is replaced by one that can (and still reads
    // those of the lessons before it, so going back costs nothing).
    if (added && proc_ && proc_->contained) {
        kill_and_reap(proc_->pid, std::chrono::milliseconds(0), true);
        proc_->pid = -1;
        stop_worker();
    }
}

void WorkerBackend::say_once_if_not_contained(RunResult& r) {
    if (containment_said_ || not_contained_.empty()) return;
    containment_said_ = true;
    r.notice_said = not_contained_;
}

WorkerBackend::~WorkerBackend() { stop_worker(); }

void WorkerBackend::stop_worker() {
    pid_ = 0;
    proc_.reset();
}

bool WorkerBackend::ensure_worker(std::string& why) {
    if (proc_) return true;
    proc_ = spawn(options_.wrapper, why);
    if (!proc_) return false;
    pid_ = proc_->pid;
    ++started_;
    return true;
}

// ---- the request in flight, for cancel() ---------------------------------------

bool WorkerBackend::begin_request(std::uint64_t token) {
    std::lock_guard<std::mutex> lock(active_mutex_);
    if (token != 0 && cancelled_tokens_.erase(token)) return false;
    active_ = true;
    active_token_ = token;
    active_pid_ = 0;
    active_cancelled_ = false;
    return true;
}

void WorkerBackend::set_active_pid(int pid) {
    std::lock_guard<std::mutex> lock(active_mutex_);
    active_pid_ = pid;
    if (active_cancelled_ && pid > 0) ::kill(-pid, SIGKILL);  // Stop came while no worker was attached
}

bool WorkerBackend::end_request() {
    std::lock_guard<std::mutex> lock(active_mutex_);
    active_ = false;
    active_pid_ = 0;
    return active_cancelled_;
}

bool WorkerBackend::cancelled() const {
    std::lock_guard<std::mutex> lock(active_mutex_);
    return active_cancelled_;
}

void WorkerBackend::cancel(std::uint64_t token) {
    std::lock_guard<std::mutex> lock(active_mutex_);
    if (active_ && token != 0 && token == active_token_) {
        active_cancelled_ = true;
        // Killed under the lock: end_request() cannot slip in between, so the
        // kill never reaches a worker that went back to idle.
        if (active_pid_ > 0) ::kill(-active_pid_, SIGKILL);
        return;
    }
    if (token == 0) return;
    cancelled_tokens_.insert(token);  // not started yet (or already over: then it is never looked at)
    while (cancelled_tokens_.size() > 1024) cancelled_tokens_.erase(cancelled_tokens_.begin());
}

void WorkerBackend::cancel_running() {
    std::lock_guard<std::mutex> lock(active_mutex_);
    if (!active_) return;
    active_cancelled_ = true;
    if (active_pid_ > 0) ::kill(-active_pid_, SIGKILL);
}

// ---- the answer, and what a run without one becomes -----------------------------

namespace {

// Reads the worker's frames until its result: each progress frame updates
// `at` (a phase also tells req.on_phase) and sets `progressed`. Ok means `result`
// holds a result frame; any other frame kind from the worker is Corrupt.
ReadStatus await_result(int fd, pid_t pid, std::chrono::steady_clock::time_point deadline, const FrameLimits& limits,
                        const RunRequest& req, Whereabouts& at, bool& progressed, Frame& result) {
    for (;;) {
        ReadStatus st = wait_for_frame(fd, pid, deadline);
        if (st == ReadStatus::Ok) st = read_frame(fd, result, deadline, limits);
        if (st != ReadStatus::Ok) return st;
        if (result.kind == FrameKind::Result) return ReadStatus::Ok;
        if (result.kind != FrameKind::Progress) return ReadStatus::Corrupt;
        progressed = true;
        if (result.json.contains("kernel")) at.kernel = result.json.value("kernel", at.kernel);
        if (result.json.contains("exit_called")) at.exit_called = result.json.value("exit_called", 0);
        if (!result.json.contains("phase")) continue;
        at.phase = result.json.value("phase", at.phase);
        at.kernel.clear();
        if (req.on_phase) req.on_phase(at.phase.c_str());
    }
}

// Sends `request` and reads the worker's answer (await_result) into `answer`,
// decoded into `r`: Ok with `r` the worker's result, or why not (Closed when it
// could not be sent). `decode_error` says why an answer that came did not decode.
ReadStatus exchange(int to_worker, int from_worker, pid_t pid, const Frame& request,
                    std::chrono::steady_clock::time_point deadline, const FrameLimits& limits, const RunRequest& req,
                    Whereabouts& at, bool& progressed, Frame& answer, RunResult& r, std::string& decode_error) {
    if (!write_frame(to_worker, request)) return ReadStatus::Closed;
    const ReadStatus st = await_result(from_worker, pid, deadline, limits, req, at, progressed, answer);
    if (st == ReadStatus::Ok) {
        try {
            r = decode_result(answer);
        } catch (const Error& e) {
            decode_error = e.message();
        }
    }
    return st;
}

// The most a result frame can hold for this request: the inputs, the GPU's
// and the CPU's outputs of every buffer of its case, plus text. A worker
// announcing more is broken, and the supervisor must not allocate for it.
FrameLimits result_limits(const RunRequest& req) {
    FrameLimits limits;
    limits.max_json = 64ull << 20;  // logs are capped at 1 MiB, output at 256 KiB, diagnostics at 200
    limits.max_blob = 0;
    if (!req.keep_buffers || !req.lesson) return limits;
    try {
        const Step* step = request_step(req);
        if (!step) return limits;
        const TestCase* tc = request_case(req, *step);
        const auto params = resolve_params(*step, tc, req.params);
        const ExprVars vars(params.begin(), params.end());
        std::uint64_t total = 0;
        for (const auto& b : step->buffers) {
            std::uint64_t n = dtype_size(b.type);
            for (std::size_t d : eval_shape(b, vars)) n *= d;
            total += n;
        }
        limits.max_blob = 3 * total;
    } catch (const Error&) {
        // Bad params or shapes: the worker answers with an error and no buffers.
    }
    return limits;
}

}  // namespace

// What a run that got no readable answer becomes, for the warm worker and the
// sanitized one alike. `tool` is "" or "compute-sanitizer memcheck".
// `command`: the worker command's program (ssh, srun) when the worker was at its far end.
static void describe_failure(RunResult& r, const RunRequest& req, ReadStatus st, const WorkerExit& e,
                             const Whereabouts& at, double timeout, bool cancelled, const std::string& tool,
                             const std::string& decode_error, const std::string& command = "") {
    const std::string& phase = at.phase;
    const std::string where = where_text(at);
    const std::string who = !command.empty() ? "@worker.command|" + command
                            : tool.empty()   ? "@worker.process"
                                             : "@worker.process_under|" + tool;
    if (cancelled) {
        r.status = RunStatus::Stopped;
        r.say({{"worker.stopped", {where}}});
        return;
    }
    if (st == ReadStatus::TimedOut) {
        r.status = RunStatus::TimedOut;
        r.say({tool.empty() ? Phrase{"worker.timed_out", {seconds_text(timeout), where}}
                            : Phrase{"worker.timed_out_tool", {seconds_text(timeout), tool, where}}});
        if (!tool.empty())
            r.say_hint({{"hint.sanitizer_slow", {}}});
        else if (phase == "gpu" || phase == "timing")
            r.say_hint({{"hint.endless", {}}});
        else if (phase == "host")
            r.say_hint({{"hint.host_endless", {}}});
        else
            r.say_hint({{"hint.deadline", {run_timeout_source(req)}}});
        return;
    }
    r.status = RunStatus::Crashed;
    if (at.exit_called && e.sandbox_exit_code == *at.exit_called) {  // exit(128 + N), not signal N
        r.say({{"worker.exit_called", {std::to_string(*at.exit_called), where}}});
        if (phase == "host") r.say_hint({{"hint.host_exit", {}}});
        return;
    }
    if (st == ReadStatus::Corrupt || !decode_error.empty()) {
        r.say({{"worker.unreadable", {who, where}}});
        if (!decode_error.empty()) r.say_more({"paren", {decode_error}});
        r.say_hint({{"hint.worker_corrupt", {}}});
        return;
    }
    if (WIFSIGNALED(e.status) && WTERMSIG(e.status) == SIGKILL && e.died_by_itself) {
        r.say({{"worker.killed", {who, signal_text(SIGKILL), where}}});
        r.say_hint({{"hint.worker_killed", {}}});
        return;
    }
    if (WIFSIGNALED(e.status)) {
        r.say({{"worker.died", {who, signal_text(WTERMSIG(e.status)), where}}});
        if (phase == "host") r.say_hint({{"hint.host_crashed", {}}});
        return;
    }
    if (at.exit_called && WIFEXITED(e.status)) {
        r.say({{"worker.exit_called", {std::to_string(WEXITSTATUS(e.status)), where}}});
        if (phase == "host") r.say_hint({{"hint.host_exit", {}}});
        return;
    }
    r.say({{"worker.exited", {who, std::to_string(WIFEXITED(e.status) ? WEXITSTATUS(e.status) : -1), where}}});
}

bool WorkerBackend::ensure_live_worker(std::string& why) {
    // A worker that died while idle (killed from outside, the OOM killer) is
    // noticed here and replaced before anything is written to it; so is one
    // whose builder died (pipeline/builder.hpp): it could build nothing more.
    if (proc_ && (has_ended(proc_->pid) || (proc_->builder_pid > 0 && has_ended(proc_->builder_pid)))) {
        kill_and_reap(proc_->pid, std::chrono::milliseconds(0));
        proc_->pid = -1;
        stop_worker();
    }
    return ensure_worker(why);
}

// ---- runs ------------------------------------------------------------------------

BackendInfo WorkerBackend::info() {
    std::lock_guard<std::mutex> lock(run_mutex_);
    return info_locked();
}

BackendInfo WorkerBackend::info_locked() {
    BackendInfo bi;
    bi.name = "worker";
    Frame q;
    q.kind = FrameKind::Request;
    q.json = {{"info", true}};
    // A warm worker may have died while idle: then a fresh one answers.
    for (int attempt = 0; attempt < 2; ++attempt) {
        std::string why;
        if (!ensure_live_worker(why)) {
            bi.no_gpu_reason = why;
            return bi;
        }
        Frame a;
        FrameLimits limits;
        limits.max_json = 1 << 20;
        limits.max_blob = 0;
        if (write_frame(proc_->to_worker, q) &&
            read_frame(proc_->from_worker, a, std::chrono::steady_clock::now() + std::chrono::seconds(60), limits) ==
                ReadStatus::Ok) {
            if (remote()) {
                std::lock_guard<std::mutex> lock(active_mutex_);
                where_ = a.json.value("where", std::string());
            }
            bi.has_gpu = a.json.value("has_gpu", false);
            bi.no_gpu_reason = a.json.value("no_gpu_reason", "");
            bi.no_gpu_said = decode_sentence(a.json, "no_gpu_said");
            // Device details travel in a result-shaped frame so one decoder serves both.
            if (a.json.contains("device")) {
                Frame df;
                df.json = a.json["device"];
                try {
                    RunResult tmp = decode_result(df);
                    if (tmp.device) bi.devices.push_back(*tmp.device);
                } catch (const Error& e) {
                    bi.no_gpu_reason = e.message();
                }
            }
            return bi;
        }
        kill_and_reap(proc_->pid, std::chrono::milliseconds(200));
        proc_->pid = -1;
        proc_->finish_relay(std::chrono::milliseconds(500));  // a worker command's last words (ssh's error)
        proc_->finish_output();
        bi.no_gpu_said = {{"worker.no_answer", {proc_->take_output()}}};
        bi.no_gpu_reason = render(bi.no_gpu_said, "en");
        stop_worker();
    }
    return bi;
}

void WorkerBackend::keep_ceilings(const RunResult& r) {
    if (ceilings_kept_ || !r.ceilings || !r.device) return;
    ceilings_kept_ = true;
    if (load_cached_ceilings(*r.device)) return;
    try {
        // Checked as a cached record is read back: figures, device and driver.
        const Ceilings c = ceilings_from_json(ceilings_to_json(*r.ceilings));
        if (c.device == r.device->name && c.driver_version == r.device->driver_version) save_cached_ceilings(c, *r.device);
    } catch (const std::exception&) {
        // Not kept: the next worker measures them again, which costs a second.
    }
}

RunResult WorkerBackend::run(const RunRequest& req) {
    std::lock_guard<std::mutex> lock(run_mutex_);
    if (!begin_request(req.cancel_token)) {
        RunResult r = initial_result(req);
        r.status = RunStatus::Stopped;
        r.say({{"worker.stopped_before_start", {}}});
        return r;
    }
    make_visible(req);
    RunResult r = remote()                                           ? run_remote(req)
                  : req.sanitizer != SanitizerTool::None             ? run_sanitized(req)
                  : req.profile && req.executor != Executor::Cpu ? run_profiled(req)
                                                                 : run_locked(req);
    end_request();
    say_once_if_not_contained(r);
    return r;
}

RunResult WorkerBackend::run_locked(const RunRequest& req) {
    RunResult r = initial_result(req);  // what is known before the worker answers, for the failures below
    const double timeout = run_timeout(req);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(long(timeout * 1000));
    const FrameLimits limits = result_limits(req);
    const Frame request = encode_request(req);
    Whereabouts at;
    for (int attempt = 0;; ++attempt) {
        std::string why;
        if (!ensure_live_worker(why)) {
            r.status = RunStatus::Crashed;
            r.message = why;
            return r;
        }
        set_active_pid(proc_->pid);
        proc_->take_output();  // anything printed between runs is not this run's
        bool progressed = false;
        std::string decode_error;
        Frame answer;
        const ReadStatus st = exchange(proc_->to_worker, proc_->from_worker, proc_->pid, request, deadline, limits, req, at,
                                       progressed, answer, r, decode_error);
        if (st == ReadStatus::Ok && decode_error.empty()) {
            proc_->sync_output();
            r.output = proc_->take_output() + r.output;
            keep_ceilings(r);
            if (r.context_lost) {
                // The worker exits after a sticky fault; start the next one now,
                // so the student's next run does not wait for it.
                kill_and_reap(proc_->pid, std::chrono::milliseconds(0));
                proc_->pid = -1;
                stop_worker();
                std::string ignored;
                ensure_worker(ignored);
                // The step's device heap size did not fit the old context, and
                // nothing of the run ran: the fresh worker runs it, once.
                if (attempt == 0 && wants_fresh_context(r) && !cancelled()) {
                    r = initial_result(req);
                    continue;
                }
                Sentence hint = r.hint_said;
                if (hint.empty() && !r.hint.empty()) hint.push_back(verbatim(r.hint));
                if (!hint.empty()) hint.push_back({"hint.then", {}});
                hint.push_back({"hint.worker_replaced", {}});
                r.say_hint(std::move(hint));
            }
            return r;
        }
        // Timed out, closed (or never sent), garbled: the worker is replaced in every case.
        const bool killed_by_us = st == ReadStatus::TimedOut || st == ReadStatus::Corrupt || !decode_error.empty();
        const WorkerExit e = kill_and_reap(proc_->pid, killed_by_us ? std::chrono::milliseconds(0) : std::chrono::milliseconds(1000),
                                           proc_->contained);
        proc_->pid = -1;
        proc_->kill_leftovers(-1);
        proc_->finish_output();
        const std::string output = proc_->take_output();
        stop_worker();
        // The worker was gone before it took the request (it never said
        // "compile"): nothing of this run happened yet, so a fresh worker gets
        // the same request, once.
        if (attempt == 0 && !progressed && st == ReadStatus::Closed && !cancelled()) continue;
        r.output = output;
        describe_failure(r, req, st, e, at, timeout, cancelled(), "", decode_error);
        std::string ignored;
        ensure_worker(ignored);  // a fresh worker for the next run
        return r;
    }
}

std::string WorkerBackend::where() const {
    std::lock_guard<std::mutex> lock(active_mutex_);
    return where_;
}

// A run at the far end of the worker command (remote.hpp). The far end runs
// it as WorkerBackend::run does here (under compute-sanitizer or ncu too), with
// its own deadline, and replaces its own workers; so a result, whatever it
// says, leaves the connection as it is. Only a connection that ended, or an
// answer later than the run's deadline plus kRemoteSlack_s, ends the command
// (its process group is killed, so the far end's stdin closes) and starts it
// again for the next run.
RunResult WorkerBackend::run_remote(const RunRequest& req) {
    RunResult r = initial_result(req);
    const double own = req.sanitizer != SanitizerTool::None || (req.profile && req.executor != Executor::Cpu)
                           ? sanitized_timeout(req)
                           : run_timeout(req);
    const double timeout = own + kRemoteSlack_s;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(long(timeout * 1000));
    const FrameLimits limits = result_limits(req);
    Whereabouts at;
    for (int attempt = 0;; ++attempt) {
        std::string why;
        if (!ensure_live_worker(why)) {
            r.status = RunStatus::Crashed;
            r.message = why;
            return r;
        }
        set_active_pid(proc_->pid);
        Frame request = encode_request(req);
        // The trust decision is the front end's: the far end sees the lesson in
        // a folder of its own, never in its shipped lessons, so a shipped
        // lesson is said to be trusted here, where it is known to be shipped.
        if (req.lesson) {
            request.json["trusted"] = req.trusted || is_shipped_lesson(req.lesson->file);
            attach_lesson_files(request, *req.lesson, proc_->files_sent);
        }
        bool progressed = false;
        std::string decode_error;
        Frame answer;
        const ReadStatus st = exchange(proc_->to_worker, proc_->from_worker, proc_->pid, request, deadline, limits, req, at,
                                       progressed, answer, r, decode_error);
        if (st == ReadStatus::Ok && decode_error.empty()) {
            std::lock_guard<std::mutex> lock(active_mutex_);
            where_ = answer.json.value("where", std::string());
            // What the command and the far end printed besides the run (ssh's
            // warnings, the far end's own messages) is not the kernel's: the
            // kernel's output is in the result.
            proc_->take_output();
            return r;
        }
        const bool killed_by_us = st == ReadStatus::TimedOut || st == ReadStatus::Corrupt || !decode_error.empty();
        const WorkerExit e = kill_and_reap(proc_->pid, killed_by_us ? std::chrono::milliseconds(0) : std::chrono::milliseconds(1000));
        proc_->pid = -1;
        proc_->finish_relay(std::chrono::milliseconds(500));
        proc_->finish_output();
        const std::string output = proc_->take_output();
        stop_worker();
        // The command was gone before it took the request (it never said
        // "compile": a connection that had dropped while idle): a fresh one
        // gets the same request, once.
        if (attempt == 0 && !progressed && st == ReadStatus::Closed && !cancelled()) continue;
        r.output = output;
        describe_failure(r, req, st, e, at, timeout, cancelled(), "", decode_error,
                         fs::path(options_.command.front()).filename().string());
        if (r.status == RunStatus::Crashed) r.say_hint({{"hint.remote_ended", {}}});
        std::string ignored;
        ensure_worker(ignored);  // connected again for the next run
        return r;
    }
}

// One run in a worker of its own under `wrapper`, which lives for this run
// only: the tool (compute-sanitizer, ncu) writes its report when its target
// exits, and an instrumented context should not serve later, normal runs.
// `r` is what is known before the worker answers; `output` is what the tool
// and the worker printed, which an answered result's output starts with when
// `tool_output_shown` (compute-sanitizer's report is for the student; ncu's
// source page is for parse_ncu_source_page only). `max_output` is how much of
// that is kept (spawn); a result's own output keeps kMaxOutput of it at most.
RunResult WorkerBackend::run_one_shot(const RunRequest& req, const std::vector<std::string>& wrapper, const std::string& tool,
                                      RunResult r, std::string& output, bool tool_output_shown, std::size_t max_output) {
    std::string why;
    std::unique_ptr<Process> sp = spawn(wrapper, why, max_output);
    if (!sp) {
        r.status = RunStatus::Crashed;
        r.message = why;
        return r;
    }
    set_active_pid(sp->pid);  // cancel() reaches the one-shot run
    const double timeout = sanitized_timeout(req);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(long(timeout * 1000));
    const FrameLimits limits = result_limits(req);
    Whereabouts at;
    std::string decode_error;
    bool progressed = false;
    Frame answer;
    const ReadStatus st = exchange(sp->to_worker, sp->from_worker, sp->pid, encode_request(req), deadline, limits, req, at,
                                   progressed, answer, r, decode_error);
    const bool answered = st == ReadStatus::Ok && decode_error.empty();
    // Closing its requests ends the worker; the tool then writes its summary
    // and exits. Only an answered run waits for that (up to 60 s).
    ::close(sp->to_worker);
    sp->to_worker = -1;
    const auto grace = answered ? std::chrono::duration_cast<std::chrono::milliseconds>(
                                      std::min(deadline - std::chrono::steady_clock::now(),
                                               std::chrono::steady_clock::duration(std::chrono::seconds(60))))
                                : std::chrono::milliseconds(st == ReadStatus::Closed ? 1000 : 0);
    const WorkerExit e = kill_and_reap(sp->pid, cancelled() ? std::chrono::milliseconds(0) : std::max(grace, std::chrono::milliseconds(0)),
                                       sp->contained);
    sp->pid = -1;
    set_active_pid(0);
    sp->kill_leftovers(-1);
    sp->finish_output();
    output = sp->take_output();

    const auto kept = [&] {
        if (output.size() <= kMaxOutput) return output;
        return output.substr(0, kMaxOutput) + kOutputTruncated + std::to_string(kMaxOutput / 1024) + " KiB]\n";
    };
    if (answered) {
        if (tool_output_shown) r.output = kept() + r.output;
    } else {
        r.output = kept();
        describe_failure(r, req, st, e, at, timeout, cancelled(), tool, decode_error);
    }
    r.context_lost = false;  // that worker was for this run only; the warm one is untouched
    return r;
}

// A run under compute-sanitizer, in a one-shot worker (run_one_shot). The warm
// worker stays as it is and answers whether there is a GPU at all.
RunResult WorkerBackend::run_sanitized(const RunRequest& request) {
    RunRequest req = request;
    req.timing = false;  // a sanitized kernel's time says nothing about the kernel
    RunResult r = initial_result(req);
    r.sanitizer = req.sanitizer;
    const std::string tool = std::string("compute-sanitizer ") + sanitizer_tool_name(req.sanitizer);

    // Without a GPU there is nothing for the tool to watch: check what can be
    // checked (compile, reference, limits) and say so.
    BackendInfo bi = info_locked();
    if (!bi.has_gpu) {
        RunRequest plain = req;
        plain.sanitizer = SanitizerTool::None;
        RunResult c = run_locked(plain);
        c.sanitizer = req.sanitizer;
        if (c.status == RunStatus::CompileOnly)
        {
            Sentence said = {{"sanitizer.needs_gpu", {tool}}};
            said.insert(said.end(), c.message_said.begin(), c.message_said.end());
            if (c.message_said.empty()) said.push_back(verbatim(c.message));
            c.say(std::move(said));
        }
        return c;
    }

    std::vector<std::string> wrapper;
    try {
        fs::path home = options_.cuda_home;
        if (home.empty()) {
            try { home = cuda_home(); } catch (const Error&) {}  // PATH may still have it
        }
        wrapper = sanitizer_wrapper(req.sanitizer, home);
    } catch (const Error& e) {
        r.status = RunStatus::InputError;
        r.message = e.message();
        r.hint = e.hint();
        return r;
    }
    std::string output;
    r = run_one_shot(req, wrapper, tool, std::move(r), output, true);
    apply_sanitizer_report(r, req.sanitizer, parse_sanitizer_report(output));
    return r;
}

// A run under Nsight Compute, in a one-shot worker (run_one_shot), limited to
// the step's kernels: its source page becomes RunResult::profile. Without a
// GPU, or without ncu, the run is an ordinary one and the profile says why it
// is missing.
RunResult WorkerBackend::run_profiled(const RunRequest& request) {
    RunRequest req = request;
    req.timing = false;  // a profiled kernel is replayed; its time says nothing
    req.access = false;  // the emulator's record; this run is the GPU's
    RunResult r = initial_result(req);
    auto without = [&](Sentence why) {
        RunRequest plain = req;
        plain.profile = false;
        RunResult c = run_locked(plain);
        c.profile = AccessSummary{};
        c.profile->source = "ncu";
        c.profile->not_recorded = std::move(why);
        return c;
    };
    if (!info_locked().has_gpu) return without({{"profile.needs_gpu", {}}});

    std::vector<std::string> kernels;
    if (req.lesson)
        if (const Step* step = req.lesson->find_step(req.step))
            for (const auto& l : step->launches)
                if (std::find(kernels.begin(), kernels.end(), l.entry) == kernels.end()) kernels.push_back(l.entry);
    std::vector<std::string> wrapper;
    try {
        fs::path home = options_.cuda_home;
        if (home.empty()) {
            try { home = cuda_home(); } catch (const Error&) {}  // PATH may still have it
        }
        wrapper = ncu_wrapper(home, kernels);
    } catch (const Error& e) {
        return without(e.said().empty() ? Sentence{verbatim(e.message())} : e.said());
    }
    std::string output;
    r = run_one_shot(req, wrapper, "Nsight Compute (ncu)", std::move(r), output, false, kMaxProfileOutput);
    r.profile = parse_ncu_source_page(output);
    return r;
}

}  // namespace wb
