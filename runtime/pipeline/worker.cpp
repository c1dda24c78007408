// runtime/pipeline/worker.cpp — the worker process and its supervisor (see worker.hpp).
#include "pipeline/worker.hpp"

#include "core/error.hpp"
#include "compile/nvrtc.hpp"
#include "pipeline/wire.hpp"
#include "sanitizer/sanitizer.hpp"
#include "data/buffers.hpp"
#include "core/data_dirs.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace fs = std::filesystem;
using nlohmann::json;

namespace wb {

namespace {

constexpr int kWorkerIn = 3;   // the worker reads requests here
constexpr int kWorkerOut = 4;  // and writes results here
constexpr std::size_t kMaxOutput = 256 * 1024;

fs::path self_dir() {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
}

// A signal as a catalogue argument: "@signal.11" ("signal 11 (Segmentation fault)"), or the number alone.
std::string signal_text(int sig) {
    switch (sig) {
    case SIGILL: case SIGABRT: case SIGBUS: case SIGFPE: case SIGKILL: case SIGSEGV: case SIGTERM:
        return "@signal." + std::to_string(sig);
    default: return "@signal.other|" + std::to_string(sig);
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

fs::path find_worker_executable() {
    if (const char* e = std::getenv("WB_WORKER"); e && *e) return e;
    fs::path dir = self_dir();
    for (const fs::path& c : {dir / "cuda-workbook-worker", dir / ".." / "cli" / "cuda-workbook-worker",
                              dir / ".." / "bin" / "cuda-workbook-worker"}) {
        std::error_code ec;
        if (fs::is_regular_file(c, ec)) return c.lexically_normal();
    }
    return {};
}

// One running worker: its pid, its pipes, and a thread that collects what it prints.
struct WorkerBackend::Process {
    pid_t pid = -1;
    int to_worker = -1;
    int from_worker = -1;
    int output_fd = -1;
    std::thread reader;
    std::mutex output_mutex;
    std::string output;
    bool output_truncated = false;
    std::atomic<bool> reader_done{false};  // the reader saw EOF: every writer of the output pipe is gone

    ~Process() {
        if (to_worker >= 0) ::close(to_worker);
        if (from_worker >= 0) ::close(from_worker);
        if (pid > 0) {
            ::kill(-pid, SIGKILL);
            int st;
            while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
        }
        if (reader.joinable()) reader.join();  // ends at EOF once the worker is gone
        if (output_fd >= 0) ::close(output_fd);
    }

    std::string take_output() {
        std::lock_guard<std::mutex> lock(output_mutex);
        std::string out = std::move(output);
        if (output_truncated) out += "\n[output truncated at " + std::to_string(kMaxOutput / 1024) + " KiB]\n";
        output.clear();
        output_truncated = false;
        return out;
    }
};

WorkerBackend::WorkerBackend(WorkerOptions options) : options_(std::move(options)) {
    if (options_.executable.empty()) options_.executable = find_worker_executable();
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

std::unique_ptr<WorkerBackend::Process> WorkerBackend::spawn(const std::vector<std::string>& wrapper, std::string& why) {
    if (options_.executable.empty()) {
        why = "the worker program cuda-workbook-worker was not found (set WB_WORKER to its path)";
        return nullptr;
    }
    int req[2], resp[2], out[2];
    if (::pipe2(req, O_CLOEXEC) != 0) { why = std::string("pipe: ") + std::strerror(errno); return nullptr; }
    if (::pipe2(resp, O_CLOEXEC) != 0) {
        why = std::string("pipe: ") + std::strerror(errno);
        ::close(req[0]); ::close(req[1]);
        return nullptr;
    }
    if (::pipe2(out, O_CLOEXEC) != 0) {
        why = std::string("pipe: ") + std::strerror(errno);
        for (int fd : {req[0], req[1], resp[0], resp[1]}) ::close(fd);
        return nullptr;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, req[0], kWorkerIn);
    posix_spawn_file_actions_adddup2(&fa, resp[1], kWorkerOut);
    posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&fa, out[1], STDERR_FILENO);
    std::vector<std::string> args = wrapper;
    args.push_back(options_.executable.string());
    args.push_back("--ordinal");
    args.push_back(std::to_string(options_.ordinal));
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    // The worker leads a process group of its own, so a kill reaches what it
    // started too (the host compiler, or the worker under compute-sanitizer).
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    pid_t pid = -1;
    int rc = wrapper.empty() ? posix_spawn(&pid, argv[0], &fa, &attr, argv.data(), environ)
                                      : posix_spawnp(&pid, argv[0], &fa, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    ::close(req[0]);
    ::close(resp[1]);
    ::close(out[1]);
    if (rc != 0) {
        why = "could not start " + std::string(argv[0]) + ": " + std::strerror(rc);
        for (int fd : {req[1], resp[0], out[0]}) ::close(fd);
        return nullptr;
    }
    auto p = std::make_unique<Process>();
    p->pid = pid;
    p->to_worker = req[1];
    p->from_worker = resp[0];
    p->output_fd = out[0];
    Process* raw = p.get();
    p->reader = std::thread([raw] {
        char buf[4096];
        for (;;) {
            ssize_t n = ::read(raw->output_fd, buf, sizeof buf);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            std::lock_guard<std::mutex> lock(raw->output_mutex);
            std::size_t room = kMaxOutput > raw->output.size() ? kMaxOutput - raw->output.size() : 0;
            raw->output.append(buf, std::min<std::size_t>(room, std::size_t(n)));
            if (std::size_t(n) > room) raw->output_truncated = true;
        }
        raw->reader_done = true;
    });
    return p;
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

// ---- how a worker ended ------------------------------------------------------------

namespace {

// The end of a worker that failed a request, and who ended it.
struct WorkerExit {
    int status = 0;
    bool died_by_itself = false;  // it was gone before the supervisor killed it
};

// True when `pid` (a child, not yet reaped) has ended. WNOWAIT leaves it a
// zombie, so its process-group id stays reserved and a kill(-pid) after this
// can never reach an unrelated group that took the number.
bool has_ended(pid_t pid) {
    siginfo_t si{};
    return ::waitid(P_PID, id_t(pid), &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid;
}

// Kills the worker's process group (the host compiler, compute-sanitizer and
// whatever else it started go too), then reaps the worker: kill before every
// wait, so no failure can leave the caller waiting on a stuck worker.
// `grace` lets a worker that closed its pipes finish dying on its own first,
// so a crash is reported as the crash and not as our kill.
WorkerExit kill_and_reap(pid_t pid, std::chrono::milliseconds grace) {
    WorkerExit e;
    const auto until = std::chrono::steady_clock::now() + grace;
    while (!(e.died_by_itself = has_ended(pid)) && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ::kill(-pid, SIGKILL);
    while (::waitpid(pid, &e.status, 0) < 0 && errno == EINTR) {}
    return e;
}

// Waits until the worker has something to say, the deadline passes, or the
// worker is gone. EOF on the pipe is not enough to see a death: a process the
// worker started (the host compiler, a reference still running) can hold the
// pipe open after the worker itself was killed.
ReadStatus wait_for_frame(int fd, pid_t pid, std::chrono::steady_clock::time_point deadline) {
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
        if (left <= 0) return ReadStatus::TimedOut;
        pollfd p{fd, POLLIN, 0};
        const int r = ::poll(&p, 1, int(std::min<long long>(left, 200)));
        if (r > 0) return ReadStatus::Ok;  // data or hang-up: read_frame tells which
        if (r < 0 && errno != EINTR) return ReadStatus::Closed;
        if (has_ended(pid)) {
            pollfd last{fd, POLLIN, 0};  // it may have answered just before it ended
            return ::poll(&last, 1, 0) > 0 ? ReadStatus::Ok : ReadStatus::Closed;
        }
    }
}

// Reads the worker's frames until its result: each progress frame updates
// `phase` (and tells req.on_phase) and sets `progressed`. Ok means `result`
// holds a result frame; any other frame kind from the worker is Corrupt.
ReadStatus await_result(int fd, pid_t pid, std::chrono::steady_clock::time_point deadline, const FrameLimits& limits,
                        const RunRequest& req, std::string& phase, bool& progressed, Frame& result) {
    for (;;) {
        ReadStatus st = wait_for_frame(fd, pid, deadline);
        if (st == ReadStatus::Ok) st = read_frame(fd, result, deadline, limits);
        if (st != ReadStatus::Ok) return st;
        if (result.kind == FrameKind::Result) return ReadStatus::Ok;
        if (result.kind != FrameKind::Progress) return ReadStatus::Corrupt;
        progressed = true;
        phase = result.json.value("phase", phase);
        if (req.on_phase) req.on_phase(phase.c_str());
    }
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
static void describe_failure(RunResult& r, const RunRequest& req, ReadStatus st, const WorkerExit& e,
                             const std::string& phase, double timeout, bool cancelled, const std::string& tool,
                             const std::string& decode_error) {
    const std::string where = phase_text(phase);
    const std::string who = tool.empty() ? "@worker.process" : "@worker.process_under|" + tool;
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
    r.say({{"worker.exited", {who, std::to_string(WIFEXITED(e.status) ? WEXITSTATUS(e.status) : -1), where}}});
}

bool WorkerBackend::ensure_live_worker(std::string& why) {
    // A worker that died while idle (killed from outside, the OOM killer) is
    // noticed here and replaced before anything is written to it.
    if (proc_ && has_ended(proc_->pid)) {
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
        bi.no_gpu_said = {{"worker.no_answer", {proc_->take_output()}}};
        bi.no_gpu_reason = render(bi.no_gpu_said, "en");
        stop_worker();
    }
    return bi;
}

RunResult WorkerBackend::run(const RunRequest& req) {
    std::lock_guard<std::mutex> lock(run_mutex_);
    if (!begin_request(req.cancel_token)) {
        RunResult r = initial_result(req);
        r.status = RunStatus::Stopped;
        r.say({{"worker.stopped_before_start", {}}});
        return r;
    }
    RunResult r = req.sanitizer != SanitizerTool::None ? run_sanitized(req) : run_locked(req);
    end_request();
    return r;
}

RunResult WorkerBackend::run_locked(const RunRequest& req) {
    RunResult r = initial_result(req);  // what is known before the worker answers, for the failures below
    const double timeout = run_timeout(req);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(long(timeout * 1000));
    const FrameLimits limits = result_limits(req);
    const Frame request = encode_request(req);
    std::string phase = "start";
    for (int attempt = 0;; ++attempt) {
        std::string why;
        if (!ensure_live_worker(why)) {
            r.status = RunStatus::Crashed;
            r.message = why;
            return r;
        }
        set_active_pid(proc_->pid);
        proc_->take_output();  // anything printed between runs is not this run's
        const bool sent = write_frame(proc_->to_worker, request);
        bool progressed = false;
        std::string decode_error;
        Frame answer;
        const ReadStatus st =
            sent ? await_result(proc_->from_worker, proc_->pid, deadline, limits, req, phase, progressed, answer)
                 : ReadStatus::Closed;
        if (st == ReadStatus::Ok) {
            try {
                r = decode_result(answer);
            } catch (const Error& e) {
                decode_error = e.message();
            }
        }
        if (st == ReadStatus::Ok && decode_error.empty()) {
            r.output = proc_->take_output() + r.output;
            if (r.context_lost) {
                // The worker exits after a sticky fault; start the next one now,
                // so the student's next run does not wait for it.
                kill_and_reap(proc_->pid, std::chrono::milliseconds(0));
                proc_->pid = -1;
                stop_worker();
                std::string ignored;
                ensure_worker(ignored);
                r.hint += r.hint.empty() ? "" : "; ";
                r.hint += "the GPU process was replaced, so the next run starts clean";
            }
            return r;
        }
        // Timed out, closed, garbled, or never sent: the worker is replaced in every case.
        const bool killed_by_us = st == ReadStatus::TimedOut || st == ReadStatus::Corrupt || !decode_error.empty();
        const WorkerExit e = kill_and_reap(proc_->pid, killed_by_us ? std::chrono::milliseconds(0) : std::chrono::milliseconds(1000));
        proc_->pid = -1;
        for (int i = 0; i < 100 && !proc_->reader_done; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
        const std::string output = proc_->take_output();
        stop_worker();
        // The worker was gone before it took the request (it never said
        // "compile"): nothing of this run happened yet, so a fresh worker gets
        // the same request, once.
        if (attempt == 0 && !progressed && (!sent || st == ReadStatus::Closed) && !cancelled()) continue;
        r.output = output;
        describe_failure(r, req, st, e, phase, timeout, cancelled(), "", decode_error);
        std::string ignored;
        ensure_worker(ignored);  // a fresh worker for the next run
        return r;
    }
}

// A run under compute-sanitizer, in a worker of its own that lives for this one
// run: the tool writes its ERROR SUMMARY only when its target exits, and an
// instrumented context should not serve later, normal runs. The warm worker
// stays as it is and answers whether there is a GPU at all.
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
    std::string why;
    std::unique_ptr<Process> sp = spawn(wrapper, why);
    if (!sp) {
        r.status = RunStatus::Crashed;
        r.message = why;
        return r;
    }
    set_active_pid(sp->pid);  // cancel() reaches the sanitized run
    const double timeout = sanitized_timeout(req);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(long(timeout * 1000));
    const FrameLimits limits = result_limits(req);
    std::string phase = "start";
    std::string decode_error;
    bool answered = false;
    ReadStatus st = ReadStatus::Closed;
    if (write_frame(sp->to_worker, encode_request(req))) {
        bool progressed = false;
        Frame answer;
        st = await_result(sp->from_worker, sp->pid, deadline, limits, req, phase, progressed, answer);
        if (st == ReadStatus::Ok) {
            try {
                r = decode_result(answer);
                answered = true;
            } catch (const Error& e) {
                decode_error = e.message();
            }
        }
    }
    // Closing its requests ends the worker; the tool then writes its summary
    // and exits. Only an answered run waits for that (up to 60 s).
    ::close(sp->to_worker);
    sp->to_worker = -1;
    const auto grace = answered ? std::chrono::duration_cast<std::chrono::milliseconds>(
                                      std::min(deadline - std::chrono::steady_clock::now(),
                                               std::chrono::steady_clock::duration(std::chrono::seconds(60))))
                                : std::chrono::milliseconds(st == ReadStatus::Closed ? 1000 : 0);
    const WorkerExit e = kill_and_reap(sp->pid, cancelled() ? std::chrono::milliseconds(0) : std::max(grace, std::chrono::milliseconds(0)));
    sp->pid = -1;
    set_active_pid(0);
    for (int i = 0; i < 200 && !sp->reader_done; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::string output = sp->take_output();

    if (answered) {
        r.output = output + r.output;
    } else {
        r.output = output;
        describe_failure(r, req, st, e, phase, timeout, cancelled(), tool, decode_error);
    }
    r.context_lost = false;  // that worker was for this run only; the warm one is untouched
    apply_sanitizer_report(r, req.sanitizer, parse_sanitizer_report(output));
    return r;
}

int worker_main(int in_fd, int out_fd, int ordinal) {
    std::signal(SIGPIPE, SIG_IGN);
    auto backend = make_local_backend(ordinal);
    backend->info();  // load the driver and make the context now, not during the first run
    for (;;) {
        Frame q;
        ReadStatus st = read_frame(in_fd, q, std::chrono::steady_clock::time_point::max());
        if (st == ReadStatus::Closed) return 0;
        if (st != ReadStatus::Ok) return 2;
        if (q.kind == FrameKind::Quit) return 0;
        if (q.json.contains("info")) {
            BackendInfo bi = backend->info();
            Frame a;
            a.kind = FrameKind::Result;
            a.json = {{"has_gpu", bi.has_gpu}, {"no_gpu_reason", bi.no_gpu_reason},
                      {"no_gpu_said", encode_sentence(bi.no_gpu_said)}};
            if (!bi.devices.empty()) {
                RunResult tmp;
                tmp.device = bi.devices[0];
                a.json["device"] = encode_result(tmp).json;
            }
            if (!write_frame(out_fd, a)) return 0;
            continue;
        }
        RunResult r;
        try {
            RunRequest req = decode_request(q);
            // Trust is checked here too, where the lesson's C++ would run: a
            // front end that forgot to ask cannot make the worker run it.
            if (!req.trusted && !is_shipped_lesson(req.lesson->file))
                throw Error(ErrorKind::Usage,
                            "refused: " + req.lesson->file.string() +
                                " is not one of the shipped lessons and the request does not say it is trusted; " +
                                untrusted_lesson_explanation());
            req.on_phase = [out_fd](const char* phase) {
                Frame p;
                p.kind = FrameKind::Progress;
                p.json = {{"phase", phase}};
                write_frame(out_fd, p);
            };
            r = backend->run(req);
        } catch (const Error& e) {
            r.status = RunStatus::InputError;
            r.message = e.what();
        } catch (const std::exception& e) {
            r.status = RunStatus::InputError;
            r.message = std::string("internal error: ") + e.what();
        }
        std::fflush(stdout);
        std::fflush(stderr);
        if (!write_frame(out_fd, encode_result(r))) return 0;
        if (r.context_lost) return 0;  // this process's CUDA context is ruined; the supervisor starts another
    }
}

}  // namespace wb
