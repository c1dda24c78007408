// runtime/pipeline/worker_main.cpp — the worker process's side (see
// worker.hpp): the loop that reads requests, runs each with a LocalBackend and
// writes back its progress and result. The supervisor's side is worker.cpp.
#include "pipeline/worker.hpp"

#include "core/data_dirs.hpp"
#include "core/error.hpp"
#include "pipeline/leftovers.hpp"
#include "pipeline/wire.hpp"
#include "sandbox/sandbox.hpp"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <system_error>

namespace wb {

namespace {

// The result pipe while a request runs, else -1: exit() during a request
// (a host step's run() calling it) tells the supervisor its status.
std::atomic<int> g_exit_fd{-1};

void on_exit_during_request(int status, void*) {
    const int fd = g_exit_fd.exchange(-1);
    if (fd < 0) return;
    Frame p;
    p.kind = FrameKind::Progress;
    p.json = {{"exit_called", status}};
    write_frame(fd, p);
}

}  // namespace

int worker_main(int in_fd, int out_fd, int ordinal) {
    std::signal(SIGPIPE, SIG_IGN);
    leave_working_folder();  // NVRTC finds no "..." include in the front end's folder (sandbox/sandbox.hpp)
    become_subreaper();
    ::on_exit(on_exit_during_request, nullptr);
    auto backend = make_local_backend(ordinal);
    backend->info();  // load the driver and make the context now, not during the first run
    // Caps on what a run may take (sandbox/sandbox.hpp), after what the worker keeps is loaded.
    apply_worker_limits(worker_limits());
    for (;;) {
        Frame q;
        ReadStatus st = read_frame(in_fd, q, std::chrono::steady_clock::time_point::max());
        if (st == ReadStatus::Closed) return 0;
        if (st != ReadStatus::Ok) return 2;
        if (q.kind == FrameKind::Quit) return 0;
        if (q.json.contains("info")) {
            if (!write_frame(out_fd, encode_info(backend->info()))) return 0;
            continue;
        }
        RunResult r;
        const long cap_refusals = task_cap_refusals();
        bool cap_reached = false;
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
            // A multi-pass step launches the same kernel many times: said once per change.
            req.on_kernel = [out_fd, last = std::string()](const std::string& kernel) mutable {
                if (kernel == last) return;
                last = kernel;
                Frame p;
                p.kind = FrameKind::Progress;
                p.json = {{"kernel", kernel}};
                write_frame(out_fd, p);
            };
            g_exit_fd = out_fd;
            r = backend->run(req);
        } catch (const Error& e) {
            r.status = RunStatus::InputError;
            r.message = e.what();
        } catch (const std::system_error& e) {
            // A thread or process the worker needed was refused (RLIMIT_NPROC, or the cgroup's pids.max).
            cap_reached = e.code() == std::errc::resource_unavailable_try_again;
            r.status = RunStatus::InputError;
            r.message = std::string("internal error: ") + e.what();
        } catch (const std::exception& e) {
            r.status = RunStatus::InputError;
            r.message = std::string("internal error: ") + e.what();
        }
        // The process cap refused a fork or a thread during the run: what the
        // student's code started (and left running) is the cause, and the run
        // fails with it even where it would have passed, since the cap changed
        // what the code did (a refused fork the code shrugged off is still a
        // fork bomb), and whether something later in the run needed a thread
        // of its own is a matter of timing.
        if (cap_reached || task_cap_refusals() > cap_refusals) {
            r.status = RunStatus::CudaError;
            r.say({{"sandbox.task_cap_reached", {std::to_string(worker_task_cap())}}});
            r.hint.clear();
            r.hint_said.clear();
        }
        end_leftover_children();  // the run is over: what it started and left running goes with it
        clear_run_scratch();      // and what it wrote in its scratch folder
        g_exit_fd = -1;
        std::fflush(stdout);
        std::fflush(stderr);
        if (!write_frame(out_fd, encode_result(r))) return 0;
        if (r.context_lost) return 0;  // its CUDA context is ruined, or run()'s threads still run; the supervisor starts another
    }
}

}  // namespace wb
