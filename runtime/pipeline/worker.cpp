// runtime/pipeline/worker.cpp — the worker process and its supervisor (see worker.hpp).
#include "pipeline/worker.hpp"

#include "core/error.hpp"
#include "compile/nvrtc.hpp"
#include "pipeline/wire.hpp"
#include "sanitizer/sanitizer.hpp"

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

std::string signal_text(int sig) {
    const char* s = strsignal(sig);
    return "signal " + std::to_string(sig) + (s ? std::string(" (") + s + ")" : "");
}

std::string phase_text(const std::string& phase) {
    if (phase == "compile") return "while compiling the kernel";
    if (phase == "reference") return "while building or running the CPU reference";
    if (phase == "gpu") return "while running the kernel";
    if (phase == "timing") return "while timing the kernel";
    if (phase == "start") return "while starting";
    return "";
}

// What is known of a run before the worker answers, for the failures.
RunResult initial_result(const RunRequest& req) {
    RunResult r;
    r.step_id = req.step;
    r.case_name = req.test_case;
    if (req.lesson) {
        r.lesson_id = req.lesson->id;
        if (const Step* s = req.lesson->find_step(req.step.empty() ? "0" : req.step)) {
            r.step_id = s->id;
            if (r.case_name.empty() && !s->checks.cases.empty()) r.case_name = s->checks.cases[0].name;
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

void WorkerBackend::cancel() {
    cancelled_ = true;
    int pid = pid_.load();
    if (pid > 0) ::kill(-pid, SIGKILL);
}

BackendInfo WorkerBackend::info() {
    std::lock_guard<std::mutex> lock(run_mutex_);
    return info_locked();
}

BackendInfo WorkerBackend::info_locked() {
    BackendInfo bi;
    bi.name = "worker";
    std::string why;
    if (!ensure_worker(why)) {
        bi.no_gpu_reason = why;
        return bi;
    }
    Frame q;
    q.kind = FrameKind::Request;
    q.json = {{"info", true}};
    Frame a;
    if (!write_frame(proc_->to_worker, q) ||
        read_frame(proc_->from_worker, a, std::chrono::steady_clock::now() + std::chrono::seconds(60)) != ReadStatus::Ok) {
        bi.no_gpu_reason = "the worker did not answer: " + proc_->take_output();
        stop_worker();
        return bi;
    }
    bi.has_gpu = a.json.value("has_gpu", false);
    bi.no_gpu_reason = a.json.value("no_gpu_reason", "");
    // Device details travel in a result-shaped frame so one decoder serves both.
    if (a.json.contains("device")) {
        Frame df;
        df.json = a.json["device"];
        RunResult tmp = decode_result(df);
        if (tmp.device) bi.devices.push_back(*tmp.device);
    }
    return bi;
}

RunResult WorkerBackend::run(const RunRequest& req) {
    std::lock_guard<std::mutex> lock(run_mutex_);
    cancelled_ = false;
    if (req.sanitizer != SanitizerTool::None) return run_sanitized(req);
    return run_locked(req);
}

RunResult WorkerBackend::run_locked(const RunRequest& req) {
    RunResult r = initial_result(req);  // what is known before the worker answers, for the failures below
    std::string why;
    if (!ensure_worker(why)) {
        r.status = RunStatus::Crashed;
        r.message = why;
        return r;
    }
    const double timeout = run_timeout(req);
    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + std::chrono::milliseconds(long(timeout * 1000));
    std::string phase = "start";
    proc_->take_output();  // anything printed between runs is not this run's
    if (!write_frame(proc_->to_worker, encode_request(req))) {
        r.status = RunStatus::Crashed;
        r.message = "the worker process was gone before the run started";
        r.output = proc_->take_output();
        stop_worker();
        return r;
    }
    for (;;) {
        Frame f;
        ReadStatus st = read_frame(proc_->from_worker, f, deadline);
        if (st == ReadStatus::Ok && f.kind == FrameKind::Progress) {
            phase = f.json.value("phase", phase);
            if (req.on_phase) req.on_phase(phase.c_str());
            continue;
        }
        if (st == ReadStatus::Ok && f.kind == FrameKind::Result) {
            r = decode_result(f);
            r.output = proc_->take_output() + r.output;
            if (r.context_lost) {
                // The worker exits after a sticky fault; start the next one now,
                // so the student's next run does not wait for it.
                stop_worker();
                std::string ignored;
                ensure_worker(ignored);
                r.hint += r.hint.empty() ? "" : "; ";
                r.hint += "the GPU process was replaced, so the next run starts clean";
            }
            return r;
        }
        // Timed out, closed, or garbage: the worker is replaced in every case.
        bool timed_out = st == ReadStatus::TimedOut;
        int status = 0;
        pid_t pid = proc_->pid;
        if (timed_out) ::kill(-pid, SIGKILL);
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        ::kill(-pid, SIGKILL);  // anything the worker left behind in its group
        proc_->pid = -1;
        pid_ = 0;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // let the reader drain the last output
        r.output = proc_->take_output();
        stop_worker();
        if (cancelled_) {
            r.status = RunStatus::Stopped;
            r.message = "stopped " + phase_text(phase);
        } else if (timed_out) {
            r.status = RunStatus::TimedOut;
            char buf[32];
            std::snprintf(buf, sizeof buf, "%g", timeout);
            r.message = std::string("timed out after ") + buf + " s " + phase_text(phase);
            r.hint = phase == "gpu" || phase == "timing"
                         ? "the kernel did not finish: look for a loop whose condition never becomes false, or a "
                           "__syncthreads() that not every thread reaches"
                         : "the deadline is the lesson's checks.timeout_s; a case may set its own";
        } else if (WIFSIGNALED(status)) {
            r.status = RunStatus::Crashed;
            r.message = "the worker process died of " + signal_text(WTERMSIG(status)) + " " + phase_text(phase);
            if (phase == "reference") r.hint = "the CPU reference crashed: check its loops and indices";
        } else {
            r.status = RunStatus::Crashed;
            r.message = "the worker process exited unexpectedly (status " +
                        std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ") " + phase_text(phase);
            if (st == ReadStatus::Corrupt) r.message += "; its last message was garbled";
        }
        // A fresh worker for the next run.
        std::string ignored;
        ensure_worker(ignored);
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
            c.message = tool + " needs a GPU, so nothing ran under it; " + c.message;
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
    pid_ = sp->pid;  // cancel() reaches the sanitized run
    const double timeout = sanitized_timeout(req);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(long(timeout * 1000));
    std::string phase = "start";
    bool answered = false;
    ReadStatus st = ReadStatus::Closed;
    if (write_frame(sp->to_worker, encode_request(req))) {
        for (;;) {
            Frame f;
            st = read_frame(sp->from_worker, f, deadline);
            if (st == ReadStatus::Ok && f.kind == FrameKind::Progress) {
                phase = f.json.value("phase", phase);
                if (req.on_phase) req.on_phase(phase.c_str());
                continue;
            }
            if (st == ReadStatus::Ok && f.kind == FrameKind::Result) {
                try {
                    r = decode_result(f);
                    answered = true;
                } catch (const Error& e) {
                    st = ReadStatus::Corrupt;
                }
            }
            break;
        }
    }
    // Closing its requests ends the worker; the tool then writes its summary and exits.
    ::close(sp->to_worker);
    sp->to_worker = -1;
    const pid_t pid = sp->pid;
    int status = 0;
    bool exited = false;
    const auto wait_until = answered ? std::min(deadline, std::chrono::steady_clock::now() + std::chrono::seconds(60)) : std::chrono::steady_clock::now();
    while (!cancelled_) {
        pid_t w = ::waitpid(pid, &status, WNOHANG);
        if (w == pid) { exited = true; break; }
        if (w < 0 && errno != EINTR) break;
        if (std::chrono::steady_clock::now() >= wait_until) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ::kill(-pid, SIGKILL);  // the worker under the tool, and anything either left behind
    if (!exited)
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    sp->pid = -1;
    pid_ = proc_ ? proc_->pid : 0;
    for (int i = 0; i < 200 && !sp->reader_done; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::string output = sp->take_output();

    if (answered) {
        r.output = output + r.output;
    } else {
        r.output = output;
        if (cancelled_) {
            r.status = RunStatus::Stopped;
            r.message = "stopped " + phase_text(phase);
        } else if (st == ReadStatus::TimedOut) {
            r.status = RunStatus::TimedOut;
            r.message = "timed out after " + seconds_text(timeout) + " s under " + tool + " " + phase_text(phase);
            r.hint = "kernels run 10-100x slower under compute-sanitizer: try a smaller case";
        } else if (WIFSIGNALED(status)) {
            r.status = RunStatus::Crashed;
            r.message = "the worker under " + tool + " died of " + signal_text(WTERMSIG(status)) + " " + phase_text(phase);
        } else {
            r.status = RunStatus::Crashed;
            r.message = "the worker under " + tool + " exited unexpectedly (status " +
                        std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ") " + phase_text(phase);
            if (st == ReadStatus::Corrupt) r.message += "; its last message was garbled";
        }
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
            a.json = {{"has_gpu", bi.has_gpu}, {"no_gpu_reason", bi.no_gpu_reason}};
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
