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
//   - cancel(token) stops the one request named by RunRequest::cancel_token,
//     whether it is running or not started yet; it never touches the idle
//     warm worker or another request;
//   - a worker that died while idle (the OOM killer, a kill from outside) is
//     noticed before or after the request is written, replaced, and the
//     request sent again once; writing to a dead worker never raises SIGPIPE;
//   - every failure kills the worker's process group before waiting for it,
//     and a frame larger than the request could produce is a protocol error;
//   - whatever the kernel printed (printf, assert messages) comes back in
//     RunResult::output;
//   - the worker is contained (sandbox/sandbox.hpp): no network, no home, no
//     writes but its scratch and the cache, capped memory and processes; it
//     sees the folders of the lessons it was asked to run, and is replaced by
//     one that sees more when a lesson from another folder comes. Where the
//     sandbox cannot be had, the first result says so (RunResult::notice_said)
//     and runs go on uncontained.
//   - with a worker command (WorkerOptions::command: ssh to a GPU server,
//     srun), the worker is at the far end of it, speaking the same frames
//     over the command's stdin and stdout (pipeline/remote.hpp). That far end
//     contains, times and replaces its own workers; here a run gets the
//     request's deadline plus kRemoteSlack_s for the link, a Stop kills the
//     command's process group (the far end exits when its stdin closes), and
//     a command that ended is started again for the next run. The lesson's
//     files travel with the request.
// The process that holds a WorkerBackend never creates a CUDA context.
#pragma once

#include "pipeline/run.hpp"
#include "sandbox/sandbox.hpp"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
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
    // A worker command, e.g. {"ssh", "gpu-server", "cuda-workbook-worker", "--stdio"}
    // (pipeline/remote.hpp: split_worker_command); empty: the local worker.
    // `executable`, `wrapper` and `ordinal` are then the far end's business.
    std::vector<std::string> command;
};

// What a run through a worker command may take beyond its own deadline, which
// the far end enforces itself: starting the command, and the link.
constexpr double kRemoteSlack_s = 30;

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
    // A request with `profile` set (on a GPU) runs in a one-shot worker under
    // Nsight Compute (profile/ncu.hpp); its table is RunResult::profile.
    RunResult run(const RunRequest& request) override;

    // Stops the request whose cancel_token is `token`, from any thread: if it
    // is running, its worker is killed and run() returns RunStatus::Stopped;
    // if it has not started, run() returns Stopped as soon as it is called.
    // Nothing else is touched: not the idle warm worker, not another request.
    void cancel(std::uint64_t token);
    // Stops whatever request is running now (closing the window). A no-op when idle.
    void cancel_running();

    int workers_started() const { return started_.load(); }
    int worker_pid() const { return pid_.load(); }
    // The machine a worker command's far end runs on, as its last answer
    // named it (gethostname there); empty for the local worker, and before
    // the first answer.
    std::string where() const;
    bool remote() const { return !options_.command.empty(); }

private:
    struct Process;
    bool ensure_worker(std::string& why);
    bool ensure_live_worker(std::string& why);  // replaces a warm worker that died while idle
    // `max_output`: how much of what it prints is kept; 0 for kMaxOutput (worker_process.hpp).
    std::unique_ptr<Process> spawn(const std::vector<std::string>& wrapper, std::string& why, std::size_t max_output = 0);
    std::unique_ptr<Process> spawn_remote(std::string& why);
    RunResult run_remote(const RunRequest& request);
    BackendInfo info_locked();
    RunResult run_locked(const RunRequest& request);
    RunResult run_sanitized(const RunRequest& request);
    RunResult run_profiled(const RunRequest& request);
    RunResult run_one_shot(const RunRequest& req, const std::vector<std::string>& wrapper, const std::string& tool,
                           RunResult r, std::string& output, bool tool_output_shown, std::size_t max_output = 0);
    void stop_worker();
    // Adds the request's lesson folders to what a worker sees, replacing a
    // contained worker that cannot see them.
    void make_visible(const RunRequest& request);
    // Puts why runs are not contained on the first result (once per backend).
    void say_once_if_not_contained(RunResult& r);
    // The request in flight, for cancel(): begin_request() is false when the
    // token was cancelled before the run started.
    bool begin_request(std::uint64_t token);
    void set_active_pid(int pid);
    bool end_request();  // true when the request was cancelled
    bool cancelled() const;

    WorkerOptions options_;
    std::mutex run_mutex_;              // one run at a time
    std::unique_ptr<Process> proc_;
    std::atomic<int> pid_{0};           // the warm worker, 0 when there is none
    std::atomic<int> started_{0};
    SandboxFolders view_;               // what the next worker started sees (run_mutex_)
    Sentence not_contained_;            // why workers are not contained; empty when they are
    bool containment_said_ = false;     // not_contained_ went out on a result
    // A contained worker reads the cache only, so the GPU ceilings a result
    // brings are saved here when the cache lacks them, once per backend.
    bool ceilings_kept_ = false;
    void keep_ceilings(const RunResult& r);

    mutable std::mutex active_mutex_;   // guards the five below; never held while waiting
    std::string where_;                 // where(): the far end's machine
    bool active_ = false;               // a request is in flight
    std::uint64_t active_token_ = 0;
    int active_pid_ = 0;                // the worker serving it; 0 between workers
    bool active_cancelled_ = false;
    std::set<std::uint64_t> cancelled_tokens_;  // cancelled before they started
};

// The worker's main loop: reads requests on `in_fd`, runs them with a
// LocalBackend, writes results on `out_fd`. Returns when the pipe closes or
// after a sticky fault (the supervisor then starts a fresh worker).
int worker_main(int in_fd, int out_fd, int ordinal);

}  // namespace wb
