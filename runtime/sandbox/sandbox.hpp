// runtime/sandbox/sandbox.hpp — containment: the one place that decides what
// the worker, and so everything it runs for a step (an emulated kernel, the
// CPU reference, a host step's run()), and its builder (NVRTC, the host
// compiler and nvcc, pipeline/builder.hpp) may reach.
//
// The supervisor starts the worker inside bubblewrap (`bwrap`, Debian's
// bubblewrap package) when bwrap is there and can make namespaces:
//   - no network: a network namespace of its own, with no interface up;
//   - a process namespace of its own: the worker sees and signals only its own
//     processes, and all of them end with it (--die-with-parent; the
//     namespace's init takes the rest down with it);
//   - the system read-only; /home, /root, $HOME, /run, /mnt, /media and
//     /var/tmp hidden under empty read-only folders; readable again: the
//     lesson's folders, the workbook's own folders and the CUDA Toolkit;
//     /dev holds the usual few devices and the NVIDIA GPUs' (/dev/nvidia*);
//   - writable: /tmp, a private tmpfs of kScratchBytes that the worker empties
//     after every run (the run's scratch folder); the workbook's cache
//     folder, where the compiled libraries it loads live, is read-only;
//   - beside it, its builder (pipeline/builder.hpp, the same program with
//     --builder), in a sandbox of its own made the same way but with the
//     cache folder writable and no GPU: it alone compiles into the cache
//     (NVRTC's entries, the host compiler's and nvcc's libraries, the
//     headers they read), never loads what it builds, and names every
//     output from the hash of its inputs. So nothing a student's code does
//     in the worker can change what a later run loads;
//   - it starts in the front end's folder (empty when that is hidden), so a
//     relative lesson path names the same file.
// In the worker, with or without bwrap (apply_worker_limits): a memory cap
// (RLIMIT_DATA: what the worker maps when it starts, the emulator's fiber
// stacks, and a budget), and, inside bwrap's user namespace, where the count
// is the namespace's own, a process cap (RLIMIT_NPROC; it counts threads;
// Linux exempts root's processes from it, in every namespace).
// The process cap that holds for root too is a pids cgroup of the worker's
// own (WorkerCgroup), with or without bwrap, wherever this process may make
// one: a child of its own cgroup in cgroup v1's pids hierarchy, or in cgroup
// v2 where the pids controller can be enabled for its children (root, or a
// delegated subtree). The supervisor makes it with pids.max set and passes
// its cgroup.procs, open for writing, to the worker as fd kWorkerCgroupFd;
// the worker's first act is to write 0 there (join_worker_cgroup), so it and
// everything it starts are counted. When the worker is gone, the supervisor
// kills, by pid, whatever is still in the cgroup and removes it.
// A host step's run() is under the same caps, since it runs in the worker.
// Where bwrap is missing or cannot make namespaces (an unprivileged
// container), runs are not contained and work as before; WorkerBackend says
// so once, with the sandbox.not_contained sentence. Where bwrap works but
// root runs it and no pids cgroup can be made, it says so once with
// sandbox.no_process_cap.
//
// The worker works in an empty folder that no longer exists
// (leave_working_folder): NVRTC looks for a "..." include in the folder of
// the file that includes it, which for a source named without a folder is
// the working folder, so a file there named like a toolkit header would be
// read instead; no file can be found in, or created in, a removed folder.
// The folder the worker started in, the front end's, is kept to resolve the
// relative lesson paths its requests name (from_start_folder).
#pragma once

#include "core/phrase.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace wb {

constexpr std::uint64_t kScratchBytes = std::uint64_t(512) << 20;  // the contained worker's /tmp

// What a contained worker sees besides the system: folders it may read, and
// folders it may write.
struct SandboxFolders {
    std::vector<std::filesystem::path> read;
    std::vector<std::filesystem::path> write;
};

// The folders every worker needs: the worker's program folder, the shipped
// data (lessons, the source tree of a build), the CUDA Toolkit to read, and
// the cache folder, which only the builder writes.
SandboxFolders worker_folders(const std::filesystem::path& worker_executable);

// The folders a lesson's run reads (lesson_trust_folders of `lesson_file`).
std::vector<std::filesystem::path> lesson_folders(const std::filesystem::path& lesson_file);

// True when `folder` can be read by a worker contained with `view`: it lies
// under no hidden folder, or inside one of view's folders.
bool visible_in(const SandboxFolders& view, const std::filesystem::path& folder);

// How to start a worker: `wrapper` goes before its command line (empty: not
// contained, and `not_contained` says why, as catalogue phrases).
struct SandboxChoice {
    std::vector<std::string> wrapper;
    Sentence not_contained;
    bool contained() const { return !wrapper.empty(); }
};

// The bwrap command for `view`. bwrap is $WB_BWRAP, else `bwrap` on PATH;
// WB_SANDBOX=off turns containment off. Whether bwrap can make its
// namespaces here is tried once per process (a few milliseconds) and kept.
// Who runs in it: the worker, which runs a step's code and gets `view.write`
// read-only (its builds go to its builder: pipeline/builder.hpp), or the
// builder, which only compiles, gets `view.write` writable and no GPU.
enum class SandboxRole { Worker, Builder };

SandboxChoice worker_sandbox(const SandboxFolders& view, SandboxRole role = SandboxRole::Worker);

// The caps a worker puts on itself before it runs anything for a step.
struct WorkerLimits {
    std::uint64_t memory_bytes = 0;  // beyond what it maps when it starts and the emulator's stacks; 0: none
    long processes = 0;              // tasks (processes and threads) in its user namespace; 0: none
};

// For this machine: memory of half the RAM, at least 2 GiB
// (WB_WORKER_MEMORY_MB replaces it); in a contained worker, worker_task_cap()
// tasks.
WorkerLimits worker_limits();

// Applies `limits` to this process (and so to all it starts). Call after the
// worker loaded what it keeps (the driver, its context).
void apply_worker_limits(const WorkerLimits& limits);

// True in a worker that bwrap started (it sets WB_CONTAINED).
bool running_contained();

// The tasks (processes and threads) a worker and all it starts may have:
// WB_WORKER_PROCESSES, else 64 plus 4 per core, at least 256.
long worker_task_cap();

// Where the supervisor passes a worker its cgroup's cgroup.procs.
constexpr int kWorkerCgroupFd = 5;

// A pids cgroup for one worker (see the top of this file).
class WorkerCgroup {
public:
    // A new cgroup with pids.max = `max_tasks`; nullptr where none can be made
    // here, and `why` says why. Whether this process can make them is found
    // out once (a probe cgroup, made and removed) and kept.
    static std::unique_ptr<WorkerCgroup> make(long max_tasks, std::string& why);
    // Kills, by pid, what is still in the cgroup, and removes it.
    ~WorkerCgroup();
    WorkerCgroup(const WorkerCgroup&) = delete;
    WorkerCgroup& operator=(const WorkerCgroup&) = delete;

    // Its cgroup.procs, open for writing (close-on-exec): a process that
    // writes "0" to it moves itself, and so all it starts later, in.
    int join_fd() const { return join_fd_; }
    void close_join_fd();
    const std::filesystem::path& path() const { return path_; }
    // The pids of the processes in it now.
    std::vector<long> processes() const;

private:
    WorkerCgroup() = default;
    std::filesystem::path path_;
    int join_fd_ = -1;
};

// In a worker, first of all: moves this process into the cgroup whose
// cgroup.procs is open on `fd`, and closes `fd`; keeps the cgroup's
// pids.events open to read. False (and errno) when the kernel refused; false
// with EBADF, leaving `fd` alone, when `fd` is no cgroup.procs (a wrapper
// such as compute-sanitizer put a file of its own on that number).
bool join_worker_cgroup(int fd);

// In a worker that joined its cgroup: how many forks and new threads its
// pids.max has refused so far (pids.events' "max"); 0 without one.
long task_cap_refusals();

// In a worker, before it runs anything: remembers the working folder it was
// started in, and works from then on in an empty folder that is removed
// (made under $TMPDIR or /tmp, then deleted; left as it is when that fails).
// Relative CUDA_HOME, CUDA_PATH and WB_CUDA_DRIVER_DIR are made absolute first.
void leave_working_folder();

// `p` resolved against the folder the worker started in (leave_working_folder),
// or `p` itself when it is absolute or the worker never left its folder.
std::filesystem::path from_start_folder(const std::filesystem::path& p);

// In a contained worker: removes everything under /tmp, the run's scratch
// folder, once the run is over, but never what is bound into it (a cache or
// lesson folder that lies under the front end's /tmp). A no-op elsewhere.
void clear_run_scratch();

}  // namespace wb
