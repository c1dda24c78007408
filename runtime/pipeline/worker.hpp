// runtime/pipeline/worker.hpp — runs the pipeline in a supervised worker process.
//
// Students' kernels fault. After an illegal address, a misaligned access, a
// trap or a device assert, the CUDA context of that process is broken for
// good, and a kernel that never ends blocks synchronisation forever (a GPU
// without a display has no watchdog). So GPU work, and the natively compiled
// CPU reference, run in `cuda-workbook-worker`, and the front ends (GUI, CLI)
// only talk to it through WorkerBackend:
//   - the worker stays warm between runs, so isolation costs no time;
//   - every run has a deadline; past it the worker is killed and replaced
//     (RunStatus::TimedOut, "timed out after N s");
//   - a sticky fault is reported with its explanation, then the worker exits
//     and a fresh one is started at once, ready for the next run;
//   - a worker that dies (a crashing reference) becomes RunStatus::Crashed,
//     naming the phase it died in;
//   - cancel() stops a run at any moment from another thread;
//   - whatever the kernel printed (printf, assert messages) comes back in
//     RunResult::output.
// The process that holds a WorkerBackend never creates a CUDA context.
#pragma once

#include "pipeline/run.hpp"

#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace wb {

// $WB_WORKER, else cuda-workbook-worker beside this executable, in ../cli
// (a build tree) or ../bin. Empty when none is found.
std::filesystem::path find_worker_executable();

struct WorkerOptions {
    std::filesystem::path executable;   // empty: find_worker_executable()
    std::vector<std::string> wrapper;   // run the worker under this, e.g. {"compute-sanitizer", "--tool", "memcheck"}
    int ordinal = 0;                    // GPU
    std::filesystem::path cuda_home;    // where to look for compute-sanitizer; empty: cuda_home(), then PATH
};

class WorkerBackend final : public RunBackend {
public:
    explicit WorkerBackend(WorkerOptions options = {});
    ~WorkerBackend() override;
    WorkerBackend(const WorkerBackend&) = delete;
    WorkerBackend& operator=(const WorkerBackend&) = delete;

    BackendInfo info() override;
    // A request with `sanitizer` set runs in a one-shot worker under
    // compute-sanitizer (sanitizer_wrapper()), with sanitized_timeout() as its
    // deadline and no timing; the report is parsed into the result's
    // sanitizer_findings. Without a GPU it is a compile-only run that says so.
    RunResult run(const RunRequest& request) override;

    // Stops the run in progress, if any, from any thread: the worker is killed
    // and run() returns RunStatus::Stopped. A no-op when idle.
    void cancel();

    int workers_started() const { return started_.load(); }
    int worker_pid() const { return pid_.load(); }

private:
    struct Process;
    bool ensure_worker(std::string& why);
    std::unique_ptr<Process> spawn(const std::vector<std::string>& wrapper, std::string& why);
    BackendInfo info_locked();
    RunResult run_locked(const RunRequest& request);
    RunResult run_sanitized(const RunRequest& request);
    void stop_worker();

    WorkerOptions options_;
    std::mutex run_mutex_;              // one run at a time
    std::unique_ptr<Process> proc_;
    std::atomic<int> pid_{0};
    std::atomic<bool> cancelled_{false};
    std::atomic<int> started_{0};
};

// The worker's main loop: reads requests on `in_fd`, runs them with a
// LocalBackend, writes results on `out_fd`. Returns when the pipe closes or
// after a sticky fault (the supervisor then starts a fresh worker).
int worker_main(int in_fd, int out_fd, int ordinal);

}  // namespace wb
