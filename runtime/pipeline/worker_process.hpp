// runtime/pipeline/worker_process.hpp — one worker process as its supervisor
// sees it: WorkerBackend::Process (its pid, its pipes, and the thread that
// collects what it prints), and how the supervisor learns that a worker ended
// and ends one. Private to pipeline/worker.cpp and pipeline/worker_process.cpp.
#pragma once

#include "compile/host_library.hpp"
#include "lesson/lesson_files.hpp"
#include "pipeline/wire.hpp"
#include "pipeline/worker.hpp"
#include "sandbox/sandbox.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace wb {

constexpr std::size_t kMaxOutput = 256 * 1024;  // what a worker printed that a result keeps
// What a run under Nsight Compute may print: its source page has a row per
// SASS instruction, about 0.6 MB per launch of lesson 06's register-tiled kernel.
constexpr std::size_t kMaxProfileOutput = std::size_t(64) << 20;
constexpr const char* kOutputTruncated = "\n[output truncated at ";

bool has_ended(pid_t pid);  // below

// One running worker: its pid, its pipes, and a thread that collects what it prints.
struct WorkerBackend::Process {
    pid_t pid = -1;           // bwrap's, for a contained worker: the worker dies with it
    bool contained = false;   // started inside the sandbox (sandbox/sandbox.hpp)
    // The pids cgroup the worker joins (sandbox/sandbox.hpp); what is left in
    // it is killed, and it is removed, when this Process ends.
    std::unique_ptr<WorkerCgroup> cgroup;
    // The builder beside a contained worker (pipeline/builder.hpp): its
    // bwrap's pid, and its own pids cgroup. It lives and dies with the worker.
    pid_t builder_pid = -1;
    std::unique_ptr<WorkerCgroup> builder_cgroup;
    int to_worker = -1;
    int from_worker = -1;
    int output_fd = -1;
    // Written to the reader: kStopReader makes it drain what is there and
    // stop, kSyncReader drain what is there and go on (sync_output).
    int stop_reader = -1;
    int stop_reader_read = -1;
    static constexpr char kStopReader = 1, kSyncReader = 2;
    std::thread reader;
    std::mutex output_mutex;
    std::string output;
    bool output_truncated = false;
    std::size_t max_output = kMaxOutput;  // set before the reader starts
    std::condition_variable output_synced;
    unsigned long long syncs_done = 0;  // drains the reader finished for sync_output
    bool reader_done = false;           // the reader has returned

    // A worker command's (remote.hpp): `pid` is the command's (ssh, srun),
    // and the relay thread takes its stdout apart: frames into the pipe
    // `from_worker` reads, Output frames' bytes into the output pipe, which
    // the command's stderr writes into too.
    bool remote = false;
    std::thread relay;
    int relay_stop = -1, relay_stop_read = -1;  // written to: the relay stops
    std::atomic<bool> relay_done{false};
    // The lesson files this far end has, at the stamps they were sent with (attach_lesson_files).
    std::map<std::string, FileStamp> files_sent;

    ~Process() {
        if (to_worker >= 0) ::close(to_worker);
        if (from_worker >= 0) ::close(from_worker);
        // A worker command's far end ends when its stdin closes, and tidies up
        // as it goes (its workers, its lesson folder): it gets a moment for that.
        for (int i = 0; remote && pid > 0 && i < 400 && !has_ended(pid); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        if (pid > 0) {
            ::kill(-pid, SIGKILL);
            int st;
            while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
            remove_compiler_scratch(pid);
        }
        finish_relay(std::chrono::milliseconds(0));
        if (relay_stop >= 0) ::close(relay_stop);
        if (relay_stop_read >= 0) ::close(relay_stop_read);
        end_builder();
        kill_leftovers(-1);
        cgroup.reset();
        finish_output();
        if (output_fd >= 0) ::close(output_fd);
        if (stop_reader >= 0) ::close(stop_reader);
        if (stop_reader_read >= 0) ::close(stop_reader_read);
    }

    // Starts `reader`, which collects what the worker prints from
    // `output_fd` (max_output of it), stopped and synced through `stop_reader`.
    void start_reader();

    // Lets the relay pass on what the command still sends until it ends
    // (EOF), for at most `grace`, then stops it. Call after the command was
    // killed, before finish_output(), so the far end's last words are kept.
    void finish_relay(std::chrono::milliseconds grace) {
        if (!relay.joinable()) return;
        const auto until = std::chrono::steady_clock::now() + grace;
        while (!relay_done && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        while (::write(relay_stop, "x", 1) < 0 && errno == EINTR) {}
        relay.join();
    }

    // Kills the builder's process group (its compile too), by pid, and reaps it.
    void end_builder() {
        if (builder_pid > 0) {
            ::kill(-builder_pid, SIGKILL);
            int st;
            while (::waitpid(builder_pid, &st, 0) < 0 && errno == EINTR) {}
        }
        builder_pid = -1;
        builder_cgroup.reset();
    }

    // Kills, by pid, every process but `keep` that still holds the worker's
    // output pipe: what the worker started (a reference's child, a kernel's
    // fork) and left behind, even out of its process group (setsid), since
    // only the worker and its descendants ever had the pipe's write end.
    void kill_leftovers(pid_t keep) const;

    // Takes what the worker printed that is already in the pipe, and stops
    // the reader: it never waits for the pipe to close, which a process that
    // escaped the worker's group could keep open for as long as it runs.
    void finish_output() {
        if (reader.joinable()) {
            while (::write(stop_reader, &kStopReader, 1) < 0 && errno == EINTR) {}
            reader.join();
        }
    }

    // Waits until the reader has taken everything that is in the pipe now.
    // The worker flushes what it printed before it sends a result, so after
    // the result, this is all of the run's output; without the wait the
    // reader could still be behind, and what it read later was thrown away
    // as printed between runs.
    void sync_output() {
        std::unique_lock<std::mutex> lock(output_mutex);
        if (!reader.joinable() || reader_done) return;
        const unsigned long long target = syncs_done + 1;
        lock.unlock();
        while (::write(stop_reader, &kSyncReader, 1) < 0 && errno == EINTR) {}
        lock.lock();
        output_synced.wait_for(lock, std::chrono::seconds(2), [&] { return syncs_done >= target || reader_done; });
    }

    std::string take_output() {
        std::lock_guard<std::mutex> lock(output_mutex);
        std::string out = std::move(output);
        if (output_truncated) out += kOutputTruncated + std::to_string(max_output / 1024) + " KiB]\n";
        output.clear();
        output_truncated = false;
        return out;
    }
};

// The end of a worker that failed a request, and who ended it.
struct WorkerExit {
    int status = 0;
    bool died_by_itself = false;  // it was gone before the supervisor killed it
    // bwrap passes on a worker's death by signal N as exit status 128 + N;
    // `status` then holds the signal, and this the status bwrap gave, for a
    // worker whose exit(128 + N) the progress frames announced.
    std::optional<int> sandbox_exit_code;
};

// True when `pid` (a child, not yet reaped) has ended; it stays a zombie.
bool has_ended(pid_t pid);

// Kills the worker's process group, after `grace` for it to end on its own,
// then reaps the worker and removes its compilers' scratch folders. For a
// `contained` worker, `pid` is bwrap's; the status says how the worker ended.
WorkerExit kill_and_reap(pid_t pid, std::chrono::milliseconds grace, bool contained = false);

// Waits until the worker has something to say on `fd`, the deadline passes,
// or the worker is gone.
ReadStatus wait_for_frame(int fd, pid_t pid, std::chrono::steady_clock::time_point deadline);

}  // namespace wb
