// app/jobs.hpp — the background worker that compiles and runs kernels, so the
// UI thread never waits on NVRTC, g++ or the GPU.
//
// One worker thread owns the wb::RunBackend. The UI submits RunRequests; the
// worker runs them one at a time and posts each result back as a closure that
// the UI thread applies to AppState when it drains the queue once per frame
// (Tracy's RunQueue pattern). A newer compile request replaces a queued older
// one, since only the latest text matters. Nothing here includes ImGui.
#pragma once

#include "pipeline/run.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace wb {
class WorkerBackend;
}

namespace wb::app {

struct AppState;

enum class JobKind { Compile, Run };

// What the UI learns when a job ends. `discarded` is set when Stop was pressed
// while it ran: the result is dropped, only the fact is reported.
struct JobOutcome {
    std::uint64_t id = 0;
    JobKind kind = JobKind::Compile;
    std::uint64_t revision = 0;  // the editor revision the job compiled
    bool discarded = false;
    RunResult result;
    std::string failure;         // an exception escaped the backend (a bug, said plainly)
    double seconds = 0;          // wall time of the job
    // With id 0: the machine a worker command's far end runs on; empty for this one.
    std::string where;
};

// A job that went wrong: an exception escaped the backend, or a run ended in
// anything but a verdict on the kernel (passed, mismatch, compile-only) or a
// Stop. The frame loop then saves the unsaved edit at once (app_run.cpp).
bool ended_in_error(const JobOutcome& outcome);

class JobRunner {
public:
    using Apply = std::function<void(AppState&)>;
    // `on_done` is applied on the UI thread for every finished job. `wake` is
    // called from the worker after posting, so a sleeping frame loop wakes up
    // (glfwPostEmptyEvent is safe to call from any thread).
    // `worker_command`: where runs go (WorkerOptions::command); empty: a local worker.
    JobRunner(std::function<void(AppState&, JobOutcome&)> on_done, std::function<void()> wake,
              std::vector<std::string> worker_command = {});
    ~JobRunner();
    JobRunner(const JobRunner&) = delete;
    JobRunner& operator=(const JobRunner&) = delete;

    // Queue a job; returns its id. A compile replaces a compile still waiting.
    std::uint64_t submit(JobKind kind, RunRequest request, std::uint64_t revision = 0);
    // Drops queued jobs and stops the running one: its worker process is
    // killed (and replaced for the next job), and its result is discarded.
    // Returns true when a job was running.
    bool stop();
    // Applies every posted result. UI thread only, once per frame.
    void drain(AppState& state);
    // No job queued or running and no result waiting to be applied.
    bool idle() const;
    // "compiling" / "running" while a job runs; empty when none does.
    std::string running_text() const;
    // The running job's phase as the worker reports it ("compile",
    // "reference", "gpu", "timing"; "" before the first report) and its
    // seconds so far; nothing when no job runs.
    struct Progress {
        JobKind kind = JobKind::Compile;
        std::string phase;
        double seconds = 0;
        SanitizerTool sanitizer = SanitizerTool::None;  // the run is under compute-sanitizer
    };
    std::optional<Progress> progress() const;
    std::optional<JobKind> running_kind() const;
    // The pid of this runner's warm cuda-workbook-worker, as the backend knows
    // it (WorkerBackend::worker_pid); 0 when there is none. For tests that must
    // kill this app's worker and no other (script command worker-pid).
    int worker_pid() const;

    // Runs go through `command` from the next job on (empty: a local worker):
    // the backend is replaced once the running job is over, and its device
    // report is posted again (JobOutcome id 0). Queued jobs wait for it.
    void set_worker_command(std::vector<std::string> command);

    // Backend info, queried once on the worker (it may dlopen the driver).
    // Posted as a closure; also available here once known.
    void post(Apply apply);

private:
    struct Job {
        std::uint64_t id = 0;
        JobKind kind = JobKind::Compile;
        RunRequest request;
        std::uint64_t revision = 0;
    };
    void worker_loop();

    std::function<void(AppState&, JobOutcome&)> on_done_;
    std::function<void()> wake_;
    mutable std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<Job> queue_;
    std::deque<Apply> results_;
    std::optional<JobKind> running_;
    std::uint64_t running_id_ = 0;
    std::string running_phase_;
    SanitizerTool running_sanitizer_ = SanitizerTool::None;
    std::chrono::steady_clock::time_point running_since_;
    bool discard_running_ = false;
    WorkerBackend* worker_ = nullptr;  // owned by the worker thread; guarded by mutex_
    bool quit_ = false;
    bool ready_ = false;  // the backend info has been posted
    std::optional<std::vector<std::string>> next_command_;  // set_worker_command's, not yet applied
    std::vector<std::string> command_;                      // the worker thread's
    std::uint64_t next_id_ = 1;
    std::thread thread_;  // last: started after every member it uses exists
};

}  // namespace wb::app
