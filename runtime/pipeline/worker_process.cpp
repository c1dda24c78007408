// runtime/pipeline/worker_process.cpp — starting a worker process and seeing
// it end (see worker_process.hpp): finding the worker program, spawning it in
// a process group of its own with its request, result and output pipes, and
// the waits and kills that never leave the supervisor stuck on a dead or
// stuck worker, and the scratch folders its killed compilers leave. What is sent to it and made of its answers is worker.cpp's.
#include "pipeline/worker_process.hpp"

#include "compile/host_library.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>

extern char** environ;

namespace fs = std::filesystem;

namespace wb {

namespace {

constexpr int kWorkerIn = 3;   // the worker reads requests here
constexpr int kWorkerOut = 4;  // and writes results here

fs::path self_dir() {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
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
    // A compiler killed with the worker leaves its scratch folder (nvcc's tmpxft_* files).
    remove_compiler_scratch(pid);
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

}  // namespace wb
