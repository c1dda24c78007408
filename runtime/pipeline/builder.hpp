// runtime/pipeline/builder.hpp — the builder process beside a contained
// worker, and the worker's side of talking to it.
//
// A contained worker gets the cache folder read-only (sandbox/sandbox.hpp),
// so nothing a student's code does there can plant a library that a later
// run loads. Its builds (NVRTC's .wbc entries, the host compiler's and nvcc's
// libraries) are made by `cuda-workbook-worker --builder`, which the
// supervisor starts beside it, contained too but with the cache writable,
// no GPU, and the worker's memory cap and its own pids cgroup. The builder
// only compiles: it never loads what it builds. A request cannot make it
// write anything but the right output for its inputs:
//   - it names every output itself, from the hash of the inputs (the cache key);
//   - a library's flags must be flags the workbook itself builds with
//     (reference, emulator, host step: allowed_library_flag), and nvcc is
//     found by the builder, not named by the worker;
//   - NVRTC options that write files are refused (nvrtc_option_writes_files).
// It also does the cache's trimming. Requests and answers are wire frames
// (BuildRequest, BuildAnswer: wire.hpp) on the worker's fds kBuilderRequestFd
// and kBuilderAnswerFd; each request runs on a thread of its own, so the
// emulator's two builds still run side by side. The builder lives and dies
// with its worker: the supervisor kills both, by pid, at a deadline and when
// it replaces the worker.
#pragma once

#include "compile/remote_build.hpp"

#include <memory>
#include <string>

namespace wb {

constexpr int kBuilderRequestFd = 6;  // in the worker: requests to its builder
constexpr int kBuilderAnswerFd = 7;   // and its answers

// The worker's RemoteBuilder over the pipes `to_builder` and `from_builder`.
std::unique_ptr<RemoteBuilder> make_pipe_builder(int to_builder, int from_builder);

// True for a flag a library request may carry: one the workbook's own builds
// use, or a library (-lNAME) or an architecture (-arch=sm_NN) of the forms a
// host step's carry.
bool allowed_library_flag(const std::string& flag);

// The builder process: answers requests from `in_fd` on `out_fd` until
// `in_fd` closes. Returns its exit status.
int builder_main(int in_fd, int out_fd);

}  // namespace wb
