// runtime/sandbox/sandbox.hpp — containment: the one place that decides what
// the worker, and so everything it runs for a step (NVRTC in its own process,
// the host compiler and nvcc as its children, an emulated kernel, the CPU
// reference, a host step's run()), may reach.
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
//     after every run (the run's scratch folder: the compilers' temporary
//     files go there too), and the workbook's cache folder, where the
//     compiled libraries it loads live;
//   - it starts in the front end's folder (empty when that is hidden), so a
//     relative lesson path names the same file.
// In the worker, with or without bwrap (apply_worker_limits): a memory cap
// (RLIMIT_DATA: what the worker maps when it starts, the emulator's fiber
// stacks, and a budget), and, inside bwrap's user namespace, where the count
// is the namespace's own, a process cap (RLIMIT_NPROC; it counts threads;
// Linux exempts root's processes from it, in every namespace).
// A host step's run() is under the same caps, since it runs in the worker.
// Where bwrap is missing or cannot make namespaces (an unprivileged
// container), runs are not contained and work as before; WorkerBackend says
// so once, with the sandbox.not_contained sentence.
#pragma once

#include "core/phrase.hpp"

#include <cstdint>
#include <filesystem>
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
// the cache folder to write.
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
SandboxChoice worker_sandbox(const SandboxFolders& view);

// The caps a worker puts on itself before it runs anything for a step.
struct WorkerLimits {
    std::uint64_t memory_bytes = 0;  // beyond what it maps when it starts and the emulator's stacks; 0: none
    long processes = 0;              // tasks (processes and threads) in its user namespace; 0: none
};

// For this machine: memory of half the RAM, at least 2 GiB
// (WB_WORKER_MEMORY_MB replaces it); in a contained worker, 64 tasks plus 4
// per core, at least 256 (WB_WORKER_PROCESSES replaces it).
WorkerLimits worker_limits();

// Applies `limits` to this process (and so to all it starts). Call after the
// worker loaded what it keeps (the driver, its context).
void apply_worker_limits(const WorkerLimits& limits);

// True in a worker that bwrap started (it sets WB_CONTAINED).
bool running_contained();

// In a contained worker: removes everything under /tmp, the run's scratch
// folder, once the run is over, but never what is bound into it (a cache or
// lesson folder that lies under the front end's /tmp). A no-op elsewhere.
void clear_run_scratch();

}  // namespace wb
