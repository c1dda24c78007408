// runtime/pipeline/worker_process.cpp — starting a worker process and seeing
// it end (see worker_process.hpp): finding the worker program, spawning it in
// a process group of its own with its request, result and output pipes, and
// the waits and kills that never leave the supervisor stuck on a dead or
// stuck worker, and the scratch folders its killed compilers leave; and a
// worker command (remote.hpp) started in its place, with the relay that takes
// its one stream apart into the frames and output pipes a local worker has. What is sent to it and made of its answers is worker.cpp's.
#include "pipeline/worker_process.hpp"

#include "compile/host_library.hpp"
#include "pipeline/builder.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <climits>
#include <poll.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/stat.h>

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

// Starts `args` as the leader of a process group of its own, so a kill of
// the group reaches what it starts too; `search_path` looks argv[0] up on
// PATH. posix_spawn's error number, 0 when it started.
int spawn_group_leader(std::vector<std::string>& args, const posix_spawn_file_actions_t* fa, bool search_path,
                       pid_t& pid) {
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    const int rc = search_path ? posix_spawnp(&pid, argv[0], fa, &attr, argv.data(), environ)
                               : posix_spawn(&pid, argv[0], fa, &attr, argv.data(), environ);
    posix_spawnattr_destroy(&attr);
    return rc;
}

// Starts the builder beside a contained worker (pipeline/builder.hpp), in a
// sandbox of its own, a process group of its own and a pids cgroup of its
// own; `to` and `from` are its request and answer pipes, of which this
// keeps the worker's ends: to[1] and from[0]. -1 and `why` when it cannot.
pid_t spawn_builder(const fs::path& executable, const SandboxFolders& view, int to[2], int from[2],
                    std::unique_ptr<WorkerCgroup>& cgroup, std::string& why) {
    if (::pipe2(to, O_CLOEXEC) != 0) {
        why = std::string("pipe: ") + std::strerror(errno);
        return -1;
    }
    if (::pipe2(from, O_CLOEXEC) != 0) {
        why = std::string("pipe: ") + std::strerror(errno);
        ::close(to[0]), ::close(to[1]);
        return -1;
    }
    const SandboxChoice sandbox = worker_sandbox(view, SandboxRole::Builder);
    std::string no_cgroup;
    cgroup = WorkerCgroup::make(worker_task_cap(), no_cgroup);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, to[0], kWorkerIn);
    posix_spawn_file_actions_adddup2(&fa, from[1], kWorkerOut);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    // Its compilers' output comes back in its answers; nothing else it says is shown.
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    if (cgroup) posix_spawn_file_actions_adddup2(&fa, cgroup->join_fd(), kWorkerCgroupFd);
    std::vector<std::string> args = sandbox.wrapper;
    args.push_back(executable.string());
    args.push_back("--builder");
    if (cgroup) {
        args.push_back("--cgroup-fd");
        args.push_back(std::to_string(kWorkerCgroupFd));
    }
    pid_t pid = -1;
    const int rc = spawn_group_leader(args, &fa, true, pid);
    posix_spawn_file_actions_destroy(&fa);
    ::close(to[0]);
    ::close(from[1]);
    if (cgroup) cgroup->close_join_fd();
    if (rc != 0) {
        why = "could not start the builder " + args[0] + ": " + std::strerror(rc);
        ::close(to[1]), ::close(from[0]);
        cgroup.reset();
        return -1;
    }
    return pid;
}

}  // namespace

void WorkerBackend::Process::start_reader() {
    Process* raw = this;
    const int stop_fd = stop_reader_read;
    // Reads until every writer is gone (EOF) or it is told to stop; told to
    // stop or to sync, it takes what is already in the pipe without waiting
    // for more, and on a sync goes on.
    reader = std::thread([raw, stop_fd] {
        char buf[4096];
        auto take = [&](int timeout_ms) {
            pollfd p{raw->output_fd, POLLIN, 0};
            if (::poll(&p, 1, timeout_ms) <= 0) return false;
            const ssize_t n = ::read(raw->output_fd, buf, sizeof buf);
            if (n <= 0) return false;
            std::lock_guard<std::mutex> lock(raw->output_mutex);
            std::size_t room = raw->max_output > raw->output.size() ? raw->max_output - raw->output.size() : 0;
            raw->output.append(buf, std::min<std::size_t>(room, std::size_t(n)));
            if (std::size_t(n) > room) raw->output_truncated = true;
            return true;
        };
        for (;;) {
            pollfd fds[2] = {{raw->output_fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
            if (::poll(fds, 2, -1) < 0) {
                if (errno == EINTR) continue;
                break;
            }
            if (fds[0].revents) {
                if (!take(0)) break;  // EOF: every writer is gone
                continue;
            }
            if (fds[1].revents) {
                char told = Process::kStopReader;
                if (::read(stop_fd, &told, 1) < 0 && errno == EINTR) continue;
                while (take(0)) {}
                if (told == Process::kSyncReader) {
                    std::lock_guard<std::mutex> lock(raw->output_mutex);
                    ++raw->syncs_done;
                    raw->output_synced.notify_all();
                    continue;
                }
                break;
            }
        }
        std::lock_guard<std::mutex> lock(raw->output_mutex);
        raw->reader_done = true;
        raw->output_synced.notify_all();
    });
}

namespace {

// Writes `n` bytes into the pipe `fd` in pieces of at most PIPE_BUF, each
// after poll() says there is room, so that a reader that stopped reading
// never leaves the relay stuck: `stop_fd` readable ends the wait. False when
// stopped or the reader is gone.
bool relay_write(int fd, const char* p, std::size_t n, int stop_fd) {
    while (n > 0) {
        pollfd fds[2] = {{fd, POLLOUT, 0}, {stop_fd, POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        if (fds[1].revents || (fds[0].revents & (POLLERR | POLLHUP | POLLNVAL))) return false;
        const ssize_t w = ::write(fd, p, std::min<std::size_t>(n, PIPE_BUF));
        if (w < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return false;
        }
        p += w;
        n -= std::size_t(w);
    }
    return true;
}

// A worker command's stdout taken apart (remote.hpp): each frame but Output
// goes on whole to `frames_fd`, where the supervisor reads it as from a
// local worker; an Output frame's bytes go to `output_fd`, beside what the
// command writes on stderr. Until the first frame, bytes that are no frame
// (a login script that prints) count as output; after it, the stream is
// passed on as it is, and a broken frame is the supervisor's to refuse.
// Closes its three fds and sets `done` when the command's stdout ends or
// `stop_fd` is written to.
void relay_stream(int from_cmd, int frames_fd, int output_fd, int stop_fd, std::atomic<bool>& done) {
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);  // a gone reader is EPIPE, never the process's end
    constexpr char kMagic[4] = {'W', 'B', 'W', '1'};
    std::string buf;
    bool synced = false, passthrough = false, ok = true, eof = false;
    std::uint64_t skip = 0, pass = 0;
    int pass_fd = -1;
    // The first place at or after `from` where a frame could start (all of
    // "WBW1", or its beginning at the end of what is there).
    auto next_magic = [&](std::size_t from) {
        for (std::size_t k = from; k < buf.size(); ++k)
            if (std::memcmp(buf.data() + k, kMagic, std::min<std::size_t>(4, buf.size() - k)) == 0) return k;
        return buf.size();
    };
    char chunk[65536];
    while (ok && !eof) {
        pollfd fds[2] = {{from_cmd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (fds[1].revents) break;
        const ssize_t n = ::read(from_cmd, chunk, sizeof chunk);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) eof = true;
        else buf.append(chunk, std::size_t(n));
        std::size_t at = 0;
        while (ok && at < buf.size()) {
            const std::size_t left = buf.size() - at;
            if (skip > 0) {
                const std::size_t take = std::size_t(std::min<std::uint64_t>(skip, left));
                at += take;
                skip -= take;
                continue;
            }
            if (pass > 0 || passthrough) {
                const std::size_t take = passthrough ? left : std::size_t(std::min<std::uint64_t>(pass, left));
                ok = relay_write(pass_fd, buf.data() + at, take, stop_fd);
                at += take;
                if (!passthrough) pass -= take;
                continue;
            }
            if (!synced && std::memcmp(buf.data() + at, kMagic, std::min<std::size_t>(4, left)) != 0) {
                const std::size_t k = next_magic(at + 1);
                ok = relay_write(output_fd, buf.data() + at, k - at, stop_fd);
                at = k;
                continue;
            }
            if (left < kFrameHeaderBytes) break;  // the rest of the header is still on its way
            std::uint32_t kind;
            std::uint64_t jl, bl;
            std::memcpy(&kind, buf.data() + at + 4, 4);
            std::memcpy(&jl, buf.data() + at + 8, 8);
            std::memcpy(&bl, buf.data() + at + 16, 8);
            const bool sane = std::memcmp(buf.data() + at, kMagic, 4) == 0 && kind >= 1 && kind <= kLastFrameKind &&
                              jl < (std::uint64_t(1) << 62) && bl < (std::uint64_t(1) << 62);
            if (!sane && !synced) {  // "WBW1" in a login script's words: output too
                const std::size_t k = next_magic(at + 1);
                ok = relay_write(output_fd, buf.data() + at, k - at, stop_fd);
                at = k;
                continue;
            }
            synced = true;
            if (!sane) {
                passthrough = true;
                pass_fd = frames_fd;
            } else if (FrameKind(kind) == FrameKind::Output) {
                at += kFrameHeaderBytes;
                skip = jl;
                pass = bl;
                pass_fd = output_fd;
            } else {
                pass = kFrameHeaderBytes + jl + bl;  // the header included
                pass_fd = frames_fd;
            }
        }
        buf.erase(0, at);
    }
    if (ok && !synced && !buf.empty()) relay_write(output_fd, buf.data(), buf.size(), stop_fd);
    ::close(from_cmd);
    ::close(frames_fd);
    ::close(output_fd);
    done = true;
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

std::unique_ptr<WorkerBackend::Process> WorkerBackend::spawn(const std::vector<std::string>& wrapper, std::string& why,
                                                             std::size_t max_output) {
    if (remote()) return spawn_remote(why);
    if (options_.executable.empty()) {
        why = "the worker program cuda-workbook-worker was not found (set WB_WORKER to its path)";
        return nullptr;
    }
    int req[2], resp[2], out[2], stop[2];
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
    if (::pipe2(stop, O_CLOEXEC) != 0) {
        why = std::string("pipe: ") + std::strerror(errno);
        for (int fd : {req[0], req[1], resp[0], resp[1], out[0], out[1]}) ::close(fd);
        return nullptr;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, req[0], kWorkerIn);
    posix_spawn_file_actions_adddup2(&fa, resp[1], kWorkerOut);
    posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&fa, out[1], STDERR_FILENO);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);  // nothing a run does reads the front end's terminal
    // Contained when the sandbox can be had (sandbox/sandbox.hpp), around the wrapper too.
    const SandboxChoice sandbox = worker_sandbox(view_);
    if (!sandbox.contained() && not_contained_.empty()) not_contained_ = sandbox.not_contained;
    // The process cap that holds for root too: a pids cgroup the worker joins first thing.
    std::string no_cgroup;
    std::unique_ptr<WorkerCgroup> cgroup = WorkerCgroup::make(worker_task_cap(), no_cgroup);
    if (!cgroup && sandbox.contained() && ::geteuid() == 0 && not_contained_.empty())
        not_contained_ = {{"sandbox.no_process_cap", {no_cgroup}}};
    if (cgroup) posix_spawn_file_actions_adddup2(&fa, cgroup->join_fd(), kWorkerCgroupFd);
    // A contained worker reads the cache only: its builds go to a builder beside it.
    int to_builder[2] = {-1, -1}, from_builder[2] = {-1, -1};
    std::unique_ptr<WorkerCgroup> builder_cgroup;
    pid_t builder_pid = -1;
    if (sandbox.contained()) {
        builder_pid = spawn_builder(options_.executable, view_, to_builder, from_builder, builder_cgroup, why);
        if (builder_pid < 0) {
            posix_spawn_file_actions_destroy(&fa);
            for (int fd : {req[0], req[1], resp[0], resp[1], out[0], out[1], stop[0], stop[1]}) ::close(fd);
            return nullptr;
        }
        posix_spawn_file_actions_adddup2(&fa, to_builder[1], kBuilderRequestFd);
        posix_spawn_file_actions_adddup2(&fa, from_builder[0], kBuilderAnswerFd);
    }
    // Ends the builder, when the worker does not start.
    auto end_builder = [&] {
        if (builder_pid > 0) {
            ::kill(-builder_pid, SIGKILL);
            int st;
            while (::waitpid(builder_pid, &st, 0) < 0 && errno == EINTR) {}
        }
    };
    std::vector<std::string> args = sandbox.wrapper;
    args.insert(args.end(), wrapper.begin(), wrapper.end());
    args.push_back(options_.executable.string());
    args.push_back("--ordinal");
    args.push_back(std::to_string(options_.ordinal));
    if (cgroup) {
        args.push_back("--cgroup-fd");
        args.push_back(std::to_string(kWorkerCgroupFd));
    }
    if (builder_pid > 0) args.push_back("--builder-fds");
    // The worker leads a process group of its own, so a kill reaches what it
    // started too (the host compiler, or the worker under compute-sanitizer).
    pid_t pid = -1;
    const bool bare = sandbox.wrapper.empty() && wrapper.empty();  // args[0] is the worker's own path
    const int rc = spawn_group_leader(args, &fa, !bare, pid);
    posix_spawn_file_actions_destroy(&fa);
    ::close(req[0]);
    ::close(resp[1]);
    ::close(out[1]);
    if (cgroup) cgroup->close_join_fd();  // the worker's copy is the only one
    if (builder_pid > 0) ::close(to_builder[1]), ::close(from_builder[0]);  // the worker's alone
    if (rc != 0) {
        why = "could not start " + args[0] + ": " + std::strerror(rc);
        for (int fd : {req[1], resp[0], out[0], stop[0], stop[1]}) ::close(fd);
        end_builder();
        return nullptr;
    }
    auto p = std::make_unique<Process>();
    p->max_output = max_output > 0 ? max_output : kMaxOutput;
    p->pid = pid;
    p->builder_pid = builder_pid;
    p->builder_cgroup = std::move(builder_cgroup);
    p->contained = sandbox.contained();
    p->cgroup = std::move(cgroup);
    p->to_worker = req[1];
    p->from_worker = resp[0];
    p->output_fd = out[0];
    p->stop_reader = stop[1];
    p->stop_reader_read = stop[0];  // closed with the Process, after the reader is joined
    p->start_reader();
    return p;
}

std::unique_ptr<WorkerBackend::Process> WorkerBackend::spawn_remote(std::string& why) {
    // Its stdin, its stdout (taken apart by the relay), the frames and the
    // output the relay passes on, and the stop pipes of the reader and the relay.
    int in[2] = {-1, -1}, cmd_out[2] = {-1, -1}, frames[2] = {-1, -1}, out[2] = {-1, -1}, stop[2] = {-1, -1},
        relay_stop[2] = {-1, -1};
    std::vector<int*> pipes = {in, cmd_out, frames, out, stop, relay_stop};
    for (int* p : pipes)
        if (::pipe2(p, O_CLOEXEC) != 0) {
            why = std::string("pipe: ") + std::strerror(errno);
            for (int* q : pipes)
                for (int i : {0, 1})
                    if (q[i] >= 0) ::close(q[i]);
            return nullptr;
        }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&fa, cmd_out[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&fa, out[1], STDERR_FILENO);  // ssh's and srun's own words are output too
    // Not inside the local sandbox: ssh needs the network and ~/.ssh, and the
    // far end contains its runs itself (remote.hpp). A group of its own, so
    // a kill reaches the command and what it started.
    std::vector<std::string> args = options_.command;
    pid_t pid = -1;
    const int rc = spawn_group_leader(args, &fa, true, pid);
    posix_spawn_file_actions_destroy(&fa);
    ::close(in[0]);
    ::close(cmd_out[1]);
    if (rc != 0) {
        why = "could not start the worker command " + args[0] + ": " + std::strerror(rc);
        for (int fd : {in[1], cmd_out[0], frames[0], frames[1], out[0], out[1], stop[0], stop[1], relay_stop[0],
                       relay_stop[1]})
            ::close(fd);
        return nullptr;
    }
    auto p = std::make_unique<Process>();
    p->remote = true;
    p->pid = pid;
    p->to_worker = in[1];
    p->from_worker = frames[0];
    p->output_fd = out[0];
    p->stop_reader = stop[1];
    p->stop_reader_read = stop[0];
    p->relay_stop = relay_stop[1];
    p->relay_stop_read = relay_stop[0];
    p->start_reader();
    std::atomic<bool>* done = &p->relay_done;
    p->relay = std::thread([from = cmd_out[0], to = frames[1], output = out[1], stop_fd = relay_stop[0], done] {
        relay_stream(from, to, output, stop_fd, *done);
    });
    return p;
}

void WorkerBackend::Process::kill_leftovers(pid_t keep) const {
    struct stat pipe_stat{};
    if (output_fd < 0 || ::fstat(output_fd, &pipe_stat) != 0) return;
    const std::string target = "pipe:[" + std::to_string(pipe_stat.st_ino) + "]";
    const pid_t self = ::getpid();
    std::error_code ec;
    for (const auto& proc : fs::directory_iterator("/proc", ec)) {
        const std::string name = proc.path().filename().string();
        if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit)) continue;
        const pid_t other = pid_t(std::stol(name));
        if (other == self || other == keep) continue;
        std::error_code fd_ec;
        for (const auto& fd : fs::directory_iterator(proc.path() / "fd", fd_ec)) {
            std::error_code link_ec;
            if (fs::read_symlink(fd.path(), link_ec).string() == target) {
                ::kill(other, SIGKILL);
                break;
            }
        }
    }
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
WorkerExit kill_and_reap(pid_t pid, std::chrono::milliseconds grace, bool contained) {
    WorkerExit e;
    const auto until = std::chrono::steady_clock::now() + grace;
    while (!(e.died_by_itself = has_ended(pid)) && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ::kill(-pid, SIGKILL);
    while (::waitpid(pid, &e.status, 0) < 0 && errno == EINTR) {}
    if (contained && WIFEXITED(e.status) && WEXITSTATUS(e.status) > 128 && WEXITSTATUS(e.status) < 128 + NSIG) {
        e.sandbox_exit_code = WEXITSTATUS(e.status);
        e.status = WEXITSTATUS(e.status) - 128;  // as waitpid reports a death by that signal
    }
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
