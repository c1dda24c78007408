// runtime/compare/compare.hpp — checking a kernel's output against the CPU reference.
//
// Element rule (as numpy.isclose): |got - want| <= atol + rtol * |want|.
// Special values are handled on purpose:
//   - want is NaN: got must be NaN too (the reference meant it);
//   - want is +/-Inf: got must be the same infinity;
//   - got is NaN or Inf where want is finite: always a mismatch.
// Integers compare exactly unless atol > 0.
// Unwritten cells: the pipeline runs the kernel twice, with outputs poisoned
// by two different byte patterns. A cell that holds pattern A in the first run
// and pattern B in the second was never written.
// Each run is judged against the reference on its own. A cell that differs
// between the runs fails only when the output is deterministic (the spec says
// so, or by default an integer output): float sums built with atomics change
// with the order of additions and are right each time. Otherwise the change
// is a note when both runs pass, and the likely cause when one fails.
#pragma once

#include "core/phrase.hpp"
#include "data/buffers.hpp"
#include "lesson/lesson.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace wb {

enum class MismatchReason { Tolerance, NotANumber, Infinite, Unwritten, Nondeterministic };

const char* mismatch_reason_name(MismatchReason r);  // in English, for JSON and logs
const char* mismatch_reason_key(MismatchReason r);   // its catalogue key (core/phrase.hpp), for a front end

struct Mismatch {
    std::size_t flat = 0;
    std::vector<std::size_t> index;  // multi-dimensional, outermost first
    double got = 0;
    double want = 0;
    MismatchReason reason = MismatchReason::Tolerance;
};

// A stretch of consecutive mismatched elements, by flat index.
struct MismatchRun {
    std::size_t start = 0;
    std::size_t count = 0;
    bool operator==(const MismatchRun&) const = default;
};

// Runs kept per buffer; past this the outline shows the first ones and
// CompareResult::mismatch_runs_truncated says so.
constexpr std::size_t kMaxMismatchRuns = 65536;

struct CompareResult {
    std::string buffer;
    bool passed = false;
    std::size_t count = 0;           // elements compared
    std::size_t mismatches = 0;
    std::size_t unwritten = 0;
    std::size_t nondeterministic = 0;  // cells that changed between the two runs
    std::size_t changed_and_failed = 0;  // of those, cells that failed in a run
    bool deterministic = false;      // a change between runs was a failure
    double max_abs_error = 0;        // over finite pairs
    double max_rel_error = 0;        // over finite pairs with want != 0
    std::size_t max_abs_at = 0;      // flat index of the largest absolute error
    double atol = 0, rtol = 0;
    std::vector<Mismatch> first;     // the first few mismatches, in index order
    std::vector<MismatchRun> mismatch_runs;  // every mismatched element, as runs (up to kMaxMismatchRuns)
    bool mismatch_runs_truncated = false;
    std::string note;                // e.g. "output shape differs: got [4], want [5]": render(note_said, "en")
    Sentence note_said;              // the same, as catalogue phrases
    std::string note_in(std::string_view lang) const { return render_checked(note, note_said, lang); }
};

struct CompareOptions {
    std::size_t max_listed = 10;
};

// `got` is the first run (poison A), `got_b` the second run (poison B) or
// nullptr when only one run was made.
CompareResult compare_buffers(const HostBuffer& got, const HostBuffer* got_b, const HostBuffer& want,
                              const CompareSpec& spec, const CompareOptions& options = {});

// The verdict per element, 1 where the comparison failed, for `count`
// elements: what the front ends outline, so a picture never disagrees with
// the check. A comparison that could not be made (a shape or size problem,
// in `note`) marks every element.
std::vector<std::uint8_t> mismatch_mask(const CompareResult& result, std::size_t count);
// The same for the buffer a front end shows: whole, as above, or a sample
// (HostBuffer::sample_of), where a cell is marked when any element of the
// whole that it stands for failed, so one wrong element in 10^8 still shows.
std::vector<std::uint8_t> mismatch_mask(const CompareResult& result, const HostBuffer& shown);

}  // namespace wb
