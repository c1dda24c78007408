// app/host_step_text.hpp — what the results panel says about a host step's
// run (RunResult::host_step): run()'s wall time, what its timeline adds up
// to, and the target's verdict, in the window's language.
//
// Every figure and the verdict come from the RunResult: the runtime decides
// whether a target applies and is met (TargetResult::applies, met); these
// only put it into words, so they are tested without a window.
#pragma once

#include "pipeline/run.hpp"

#include <string>

namespace wb::app {

// "run() 3.104 ms median of 25 calls (2.981 ms – 3.312 ms, noise 0.4%)"; for a
// run that was not timed, the one traced call's "run() 6.120 ms (one call, not
// timed)"; "" when neither is known.
std::string wall_time_text(const RunResult& r, const std::string& lang);

// The Timeline tab's line above the lanes: the wall time, then the kernels'
// and copies' summed times, the bytes copied, how long copies overlapped
// kernels, and the GPUs that did something. Each of those figures is kept on
// one line (no-break spaces), so a narrow panel wraps between them.
std::string timeline_summary_text(const RunResult& r, const std::string& lang);

// "target: ≤ 0.6 × one_stream's wall time — yours 3.104 ms vs 6.930 ms =
// 0.45× ✓ met", "... ✗ not met", or "target: ... — does not apply here: WHY".
// `other` names the step compared with (its id).
std::string target_text(const TargetResult& t, const std::string& other, const std::string& lang);

}  // namespace wb::app
