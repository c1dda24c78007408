// runtime/pipeline/verdict.hpp — what a run's outputs say, decided once for
// every executor (the GPU, host steps, the CPU emulator).
#pragma once

#include "compare/compare.hpp"
#include "data/buffers.hpp"
#include "pipeline/executor.hpp"
#include "pipeline/run.hpp"

#include <string>
#include <vector>

namespace wb {

// The result for a launch that broke a limit: checked before it ran, and again
// with the compiled kernel's registers and static shared memory.
void set_refused(RunResult& r, const LaunchReport& lr);

// The verdict of two validation runs against the reference: each compared
// output, then an out-of-bounds write (which fails the run even when every
// compared cell is right), said once. True when the run passed.
bool judge_outputs(RunResult& r, const std::vector<CompareSpec>& compare, const std::vector<HostBuffer>& run_a,
                   const std::vector<HostBuffer>& run_b, const std::vector<HostBuffer>& reference_out,
                   const Sentence& out_of_bounds);

// The step's access limits (lesson checks.access) against what the CPU
// emulator counted: each limit's verdict into r.access_limits, in the
// lesson's order. A broken limit of a run whose outputs passed fails it
// (AccessLimit), said with the first broken limit's worst thread, element or
// line, its count, the bound, and the lesson's `why`. With `counts` null the
// limits were not judged, and each says `not_judged`: a case whose `fails`
// is true then fails too (the emulator could not run it: nothing shows the
// limits kept), otherwise it passes on its outputs (the step's other cases
// judge the limits).
void judge_access_limits(RunResult& r, const std::vector<AccessLimitBounds>& limits, const AccessCounts* counts,
                         const Sentence& not_judged = {}, bool fails = false);

// The check after timing: the outputs the last timed run left, against the
// reference by the same rules. A kernel that computed once and replayed the
// answer, cached across samples, or noticed it was being timed gives other
// outputs than its validated runs: the run fails, "its result changed while
// it was timed", naming the first output that did. True when they still match.
bool judge_after_timing(RunResult& r, const std::vector<CompareSpec>& compare, const std::vector<HostBuffer>& after,
                        const std::vector<HostBuffer>& reference_out);

// The first error among compiler diagnostics, as text; "" when none.
std::string first_error(const std::vector<Diagnostic>& diags);

// Adds the first error to r's message (": kernel.cu:3:1: error: ..."), in
// catalogue phrases where it is a refused #include of `source_text`
// (compile/include_policy.hpp), so a Chinese UI says it in Chinese; verbatim
// where it is the compiler's text. Nothing when there is no error.
void say_first_error(RunResult& r, const std::vector<Diagnostic>& diags, const std::string& source_text);

}  // namespace wb
