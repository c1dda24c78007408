// runtime/pipeline/stdio_worker.cpp — `cuda-workbook-worker --stdio`, the far
// end of a worker command (see remote.hpp): frames in on stdin, frames and
// Output frames out on stdout, each request run by a WorkerBackend of its own
// (contained, under its deadline, its faults replaced), and an exit as soon
// as stdin closes.
#include "pipeline/remote.hpp"

#include "core/error.hpp"
#include "pipeline/worker.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace wb {

namespace {

// The real stdout, which carries frames only, and the pipe that fds 1 and 2
// now write into, whose bytes leave as Output frames. One frame at a time.
class Stream {
public:
    Stream(int frames_fd, int output_fd) : frames_(frames_fd), output_(output_fd) {
        ::pipe2(stop_, O_CLOEXEC);
        forwarder_ = std::thread([this] { forward(); });
    }
    ~Stream() {
        while (::write(stop_[1], "x", 1) < 0 && errno == EINTR) {}
        forwarder_.join();
        for (int fd : {stop_[0], stop_[1], output_}) ::close(fd);
    }

    // Sends what was printed before it first, so output never follows the
    // answer that came after it. False when the front end is gone.
    bool send(const Frame& f) {
        std::lock_guard<std::mutex> lock(mutex_);
        std::fflush(stdout);
        std::fflush(stderr);
        while (take_output(0)) {}
        return write_frame(frames_, f);
    }

private:
    // Sends what is in the output pipe as one Output frame, waiting at most
    // `timeout_ms` for it; false when there was nothing (or it closed). Called
    // under mutex_.
    bool take_output(int timeout_ms) {
        pollfd p{output_, POLLIN, 0};
        if (::poll(&p, 1, timeout_ms) <= 0) return false;
        char buf[65536];
        const ssize_t n = ::read(output_, buf, sizeof buf);
        if (n <= 0) return false;
        Frame o;
        o.kind = FrameKind::Output;
        o.json = nlohmann::json::object();
        o.blob.assign(buf, std::size_t(n));
        write_frame(frames_, o);
        return true;
    }

    void forward() {
        for (;;) {
            pollfd fds[2] = {{output_, POLLIN, 0}, {stop_[0], POLLIN, 0}};
            if (::poll(fds, 2, -1) < 0) {
                if (errno == EINTR) continue;
                return;
            }
            if (fds[1].revents) return;
            if (fds[0].revents & (POLLHUP | POLLERR) && !(fds[0].revents & POLLIN)) return;
            std::lock_guard<std::mutex> lock(mutex_);
            if (!take_output(0) && (fds[0].revents & POLLHUP)) return;
        }
    }

    int frames_, output_;
    int stop_[2] = {-1, -1};
    std::mutex mutex_;
    std::thread forwarder_;
};

// What arrived on stdin, read by a thread of its own so that stdin closing is
// seen while a run is in progress.
struct Inbox {
    std::mutex mutex;
    std::condition_variable arrived;
    std::deque<Frame> frames;
    bool closed = false;
};

// The private folder the requests' files are written into, removed at the
// end: $TMPDIR/wb-remote-<pid>-XXXXXX. Those of workers that no longer exist
// (killed, so they could not remove theirs) are removed when the next starts.
struct MirrorFolder {
    fs::path path;
    MirrorFolder() {
        const char* tmp = std::getenv("TMPDIR");
        const fs::path dir = tmp && *tmp ? tmp : "/tmp";
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(dir, ec)) {
            const std::string name = e.path().filename().string();
            if (name.rfind("wb-remote-", 0) != 0) continue;
            const long pid = std::strtol(name.c_str() + 10, nullptr, 10);
            std::error_code owner_ec;
            if (pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH &&
                fs::status(e.path(), owner_ec).type() == fs::file_type::directory) {
                struct stat st{};
                if (::lstat(e.path().c_str(), &st) == 0 && st.st_uid == ::getuid()) fs::remove_all(e.path(), owner_ec);
            }
        }
        std::string pattern = (dir / ("wb-remote-" + std::to_string(::getpid()) + "-XXXXXX")).string();
        if (::mkdtemp(pattern.data())) path = pattern;
    }
    ~MirrorFolder() {
        std::error_code ec;
        if (!path.empty()) fs::remove_all(path, ec);
    }
};

}  // namespace

int stdio_worker_main(int ordinal) {
    std::signal(SIGPIPE, SIG_IGN);
    // The stream keeps the real stdin and stdout; fds 0, 1 and 2 become
    // /dev/null and the output pipe, for this process and all it starts.
    const int in_fd = ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 10);
    const int frames_fd = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 10);
    int out[2];
    if (in_fd < 0 || frames_fd < 0 || ::pipe2(out, O_CLOEXEC) != 0) {
        std::fprintf(stderr, "cuda-workbook-worker --stdio: %s\n", std::strerror(errno));
        return 2;
    }
    std::fflush(stdout);
    ::dup2(out[1], STDOUT_FILENO);
    ::dup2(out[1], STDERR_FILENO);
    ::close(out[1]);
    if (const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC); null_fd >= 0) {
        ::dup2(null_fd, STDIN_FILENO);
        ::close(null_fd);
    }
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    Stream stream(frames_fd, out[0]);
    const std::string host = this_host_name();
    MirrorFolder mirror;
    if (mirror.path.empty()) {
        std::fprintf(stderr, "cuda-workbook-worker --stdio: no folder for the lessons' files: %s\n", std::strerror(errno));
        return 2;
    }

    WorkerOptions options;
    options.ordinal = ordinal;
    WorkerBackend backend(options);

    Inbox inbox;
    std::atomic<bool> done{false};
    std::thread reader([&] {
        FrameLimits limits;
        limits.max_blob = std::uint64_t(1) << 30;  // the lesson's files; a request has no buffers
        for (;;) {
            Frame f;
            const ReadStatus st = read_frame(in_fd, f, std::chrono::steady_clock::time_point::max(), limits);
            std::lock_guard<std::mutex> lock(inbox.mutex);
            if (st != ReadStatus::Ok) {
                inbox.closed = true;
                break;
            }
            inbox.frames.push_back(std::move(f));
            inbox.arrived.notify_all();
        }
        // The front end is gone (ssh was killed, or it quit): stop the run in
        // progress, so the main loop ends at once.
        backend.cancel_running();
        inbox.arrived.notify_all();
    });
    // Should the main loop not come back within 30 s, the process ends anyway:
    // a contained worker dies with it (bwrap --die-with-parent).
    std::thread backstop([&] {
        std::unique_lock<std::mutex> lock(inbox.mutex);
        inbox.arrived.wait(lock, [&] { return inbox.closed || done.load(); });
        if (done) return;
        if (!inbox.arrived.wait_for(lock, std::chrono::seconds(30), [&] { return done.load(); })) std::_Exit(3);
    });

    int status = 0;
    for (;;) {
        Frame q;
        {
            std::unique_lock<std::mutex> lock(inbox.mutex);
            inbox.arrived.wait(lock, [&] { return inbox.closed || !inbox.frames.empty(); });
            if (inbox.frames.empty()) break;  // closed, and nothing left to answer
            q = std::move(inbox.frames.front());
            inbox.frames.pop_front();
        }
        if (q.kind == FrameKind::Quit) break;
        if (q.kind != FrameKind::Request) {
            status = 2;
            break;
        }
        if (q.json.contains("info")) {
            Frame a = encode_info(backend.info());
            a.json["where"] = host;
            if (!stream.send(a)) break;
            continue;
        }
        RunResult r;
        try {
            unpack_lesson_files(q, mirror.path);
            RunRequest req = decode_request(q);
            req.on_phase = [&stream](const char* phase) {
                Frame p;
                p.kind = FrameKind::Progress;
                p.json = {{"phase", phase}};
                stream.send(p);
            };
            r = backend.run(req);
        } catch (const Error& e) {
            r.status = RunStatus::InputError;
            r.message = e.what();
        } catch (const std::exception& e) {
            r.status = RunStatus::InputError;
            r.message = std::string("internal error: ") + e.what();
        }
        Frame a = encode_result(r);
        a.json["where"] = host;
        if (!stream.send(a)) break;
    }
    {
        std::lock_guard<std::mutex> lock(inbox.mutex);
        done = true;
        inbox.arrived.notify_all();
    }
    backstop.join();
    // The reader may still wait on stdin (a Quit came): /dev/null in its place
    // ends that read within a second (read_frame polls once a second).
    if (const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC); null_fd >= 0) {
        ::dup3(null_fd, in_fd, O_CLOEXEC);
        ::close(null_fd);
    }
    reader.join();
    std::fflush(stdout);
    std::fflush(stderr);
    return status;
}

}  // namespace wb
