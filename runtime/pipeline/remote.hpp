// runtime/pipeline/remote.hpp — a worker at the far end of a command: a GPU
// server reached over ssh, or a node that srun hands out (docs/remote-worker.md).
//
// WorkerBackend (worker.hpp) with WorkerOptions::command starts that command
// instead of the local worker, and speaks the same frames (wire.hpp) over its
// stdin and stdout: one byte stream each way. At the far end,
// `cuda-workbook-worker --stdio` (stdio_worker_main) serves them:
//   - its own fds 1 and 2, and so everything it starts, write into a pipe
//     whose bytes it sends as Output frames; the real stdout carries frames
//     only, so a kernel's printf can never land inside a frame;
//   - it is a supervisor itself: it runs each request through a WorkerBackend
//     of its own, so the server contains its runs (bwrap, the builder, the
//     pids cgroup: sandbox/sandbox.hpp) exactly as a front end on that machine
//     would, enforces each request's deadline itself, and replaces a worker
//     that faulted, hung or died; a kernel's output comes back in its result;
//   - when its stdin closes (the front end stopped a run by killing ssh, or
//     went away) it stops the run in progress and exits: ssh without a
//     terminal passes on no signal, but it does close the command's stdin;
//   - its answers name the machine ("where": gethostname()).
// Everything a run needs travels with the request (attach_lesson_files): the
// lesson's text, as before, and the files it was made from (its JSON, each
// step's starter, solution and reference sources, its images), which the
// server writes into a private folder (unpack_lesson_files). The server needs
// only the worker and the CUDA Toolkit.
#pragma once

#include "lesson/lesson.hpp"
#include "lesson/lesson_files.hpp"
#include "pipeline/wire.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace wb {

// A worker command as a shell splits simple quoting: words between blanks;
// '...' keeps everything inside as it is; "..." too, but \" and \\ stand for
// " and \; outside quotes a backslash keeps the next character. Throws
// wb::Error (Usage) for an unclosed quote or a command with no words.
std::vector<std::string> split_worker_command(const std::string& text);

// $WB_WORKER_COMMAND split (split_worker_command); empty when it is unset or blank.
std::vector<std::string> worker_command_from_environment();

// The front end's side: adds to `request` (an encode_request frame) the files
// `lesson` was made from (lesson_files) that `sent` does not already hold at
// their current size and time, as "files": [{"path", "offset", "bytes"}] with
// their contents in the blob, and records them in `sent` (one map per
// connection: a fresh worker gets every file again). Paths are absolute;
// "lesson_file" is made absolute too. A file that cannot be read is left out
// (the server's loader then names it, as a local worker's would).
void attach_lesson_files(Frame& request, const Lesson& lesson, std::map<std::string, FileStamp>& sent);

// The server's side: writes the request's files under `root` (each at
// root / its path on the front end's machine, so the lesson's relative names
// still hold), points "lesson_file" there, and drops "files" and the blob.
// Throws wb::Error (Internal) for a path that is not absolute and plain (no
// ".", "..", or empty part) or contents outside the blob.
void unpack_lesson_files(Frame& request, const std::filesystem::path& root);

// This machine's name (gethostname), as answers from a --stdio worker say it.
std::string this_host_name();

// `cuda-workbook-worker --stdio`: serves requests from stdin, answers on
// stdout (see the top of this file) with GPU `ordinal`. Returns the process's
// exit status: 0 when stdin closed or a Quit came.
int stdio_worker_main(int ordinal);

}  // namespace wb
