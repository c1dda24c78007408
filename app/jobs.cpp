// app/jobs.cpp — the worker thread and its result queue (jobs.hpp).
#include "jobs.hpp"

#include "core/error.hpp"
#include "pipeline/worker.hpp"

#include <chrono>
#include <exception>

namespace wb::app {

bool ended_in_error(const JobOutcome& outcome) {
    if (outcome.id == 0 || outcome.discarded) return false;  // the device report; a Stop
    if (!outcome.failure.empty()) return true;
    if (outcome.kind != JobKind::Run) return false;
    switch (outcome.result.status) {
    case RunStatus::Passed:
    case RunStatus::Mismatch:
    case RunStatus::AccessLimit:
    case RunStatus::CompileOnly:
    case RunStatus::Stopped:
        return false;
    default:
        return true;
    }
}

JobRunner::JobRunner(std::function<void(AppState&, JobOutcome&)> on_done, std::function<void()> wake,
                     std::vector<std::string> worker_command)
    : on_done_(std::move(on_done)), wake_(std::move(wake)), command_(std::move(worker_command)) {
    thread_ = std::thread([this] { worker_loop(); });
}

JobRunner::~JobRunner() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        quit_ = true;
        queue_.clear();
        if (worker_) worker_->cancel_running();  // closing the window never waits for a kernel
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void JobRunner::set_worker_command(std::vector<std::string> command) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        next_command_ = std::move(command);
        ready_ = false;  // idle() again once the new backend's report is posted
    }
    cv_.notify_all();
}

std::uint64_t JobRunner::submit(JobKind kind, RunRequest request, std::uint64_t revision) {
    std::uint64_t id = 0;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        id = next_id_++;
        if (kind == JobKind::Compile)
            for (auto it = queue_.begin(); it != queue_.end();)
                it = it->kind == JobKind::Compile ? queue_.erase(it) : it + 1;
        request.cancel_token = id;
        queue_.push_back(Job{id, kind, std::move(request), revision});
    }
    cv_.notify_one();
    return id;
}

bool JobRunner::stop() {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.clear();
    if (!running_) return false;
    discard_running_ = true;
    // Names the job: a Stop that comes before its run starts still stops it,
    // and one that comes after never touches the idle worker or the next job.
    if (worker_) worker_->cancel(running_id_);
    return true;
}

void JobRunner::post(Apply apply) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        results_.push_back(std::move(apply));
        ready_ = true;
    }
    if (wake_) wake_();
}

void JobRunner::drain(AppState& state) {
    std::deque<Apply> ready;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        ready.swap(results_);
    }
    for (Apply& apply : ready) apply(state);
}

bool JobRunner::idle() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return ready_ && queue_.empty() && !running_ && results_.empty();
}

std::optional<JobKind> JobRunner::running_kind() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return running_;
}

int JobRunner::worker_pid() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return worker_ ? worker_->worker_pid() : 0;
}

std::optional<JobRunner::Progress> JobRunner::progress() const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!running_) return std::nullopt;
    return Progress{*running_, running_phase_,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - running_since_).count(),
                    running_sanitizer_};
}

std::string JobRunner::running_text() const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!running_) return {};
    return *running_ == JobKind::Compile ? "compiling" : "running";
}

void JobRunner::worker_loop() {
    std::unique_ptr<RunBackend> backend;
    // Starts the backend for command_ and posts its device report.
    auto start_backend = [&] {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            worker_ = nullptr;
        }
        backend.reset();  // the old worker (or connection) ends first
        auto shared = std::make_shared<JobOutcome>();
        try {
            // Kernels and CPU references run in a worker process: a faulting or
            // endless kernel cannot take the app down, and Stop works at any moment.
            // This process never creates a CUDA context.
            WorkerOptions options;
            options.command = command_;
            auto worker = std::make_unique<WorkerBackend>(std::move(options));
            {
                std::lock_guard<std::mutex> lock(mutex_);
                worker_ = worker.get();
            }
            WorkerBackend* w = worker.get();
            backend = std::move(worker);
            const BackendInfo info = backend->info();
            // Backend facts travel as an outcome with id 0 (no job), so AppState
            // stays free of this class: the first device, or why there is none.
            shared->result.device_note = info.has_gpu ? "" : info.no_gpu_reason;
            if (!info.has_gpu) shared->result.device_note_said = info.no_gpu_said;
            if (!info.devices.empty()) shared->result.device = info.devices.front();
            shared->where = w->where();
        } catch (const std::exception& e) {
            shared->result.device_note = std::string("the run backend could not start: ") + e.what();
        }
        post([this, shared](AppState& state) { on_done_(state, *shared); });
    };
    start_backend();

    for (;;) {
        Job job;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            cv_.wait(lock, [this] { return quit_ || !queue_.empty() || next_command_; });
            if (quit_) {
                worker_ = nullptr;
                return;
            }
            if (next_command_) {  // Apply in the device panel
                command_ = std::move(*next_command_);
                next_command_.reset();
                lock.unlock();
                start_backend();
                continue;
            }
            job = std::move(queue_.front());
            queue_.pop_front();
            running_ = job.kind;
            running_id_ = job.id;
            running_phase_.clear();
            running_sanitizer_ = job.request.sanitizer;
            running_since_ = std::chrono::steady_clock::now();
            discard_running_ = false;
        }
        // The worker reports each phase as it starts; the UI shows it.
        job.request.on_phase = [this](const char* phase) {
            std::lock_guard<std::mutex> lock(mutex_);
            running_phase_ = phase;
        };
        auto outcome = std::make_shared<JobOutcome>();
        outcome->id = job.id;
        outcome->kind = job.kind;
        outcome->revision = job.revision;
        const auto start = std::chrono::steady_clock::now();
        try {
            if (!backend) throw Error(ErrorKind::Internal, "no run backend");
            outcome->result = backend->run(job.request);
        } catch (const wb::Error& e) {
            outcome->failure = e.describe();
        } catch (const std::exception& e) {
            outcome->failure = e.what();
        }
        outcome->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        {
            std::lock_guard<std::mutex> lock(mutex_);
            outcome->discarded = discard_running_;
            if (outcome->discarded) outcome->result = RunResult{};  // nobody may look at it
            // Posted and marked not running in one step, so idle() never sees a gap.
            results_.push_back([this, outcome](AppState& state) { on_done_(state, *outcome); });
            running_.reset();
            discard_running_ = false;
        }
        if (wake_) wake_();
    }
}

}  // namespace wb::app
