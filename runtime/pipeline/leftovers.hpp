// runtime/pipeline/leftovers.hpp — the worker's side of "every process a run
// started is gone when the run ends".
//
// The worker is its descendants' subreaper (PR_SET_CHILD_SUBREAPER): a process
// that a kernel, a reference or run() started and that left the worker's
// process group (setsid, a double fork) is reparented to the worker, not to
// init. Between runs the worker has no children of its own, so every child it
// has then is a leftover of the run that just ended, and is killed by its pid
// and reaped, with what it started in turn. The supervisor's side, for a
// worker that is itself killed, is WorkerBackend::Process::kill_leftovers.
#pragma once

namespace wb {

// Makes this process the subreaper of its descendants; false where the
// kernel refuses (then leftovers of a run go to init, as before).
bool become_subreaper();

// Kills and reaps every child of this process, and their children as they
// are reparented here; returns how many were killed.
int end_leftover_children();

}  // namespace wb
