// runtime/grade/gradebook.hpp — one row per student and step of a graded
// lesson, and its CSV form (gradebook.csv): what `cuda-workbook-cli grade`
// writes, what `grade --collect` merges from a Slurm array's tasks, what a
// resumed grade reads back, and what the leaderboard (leaderboard.hpp) is
// built from.
//
// The CSV: RFC 4180 (fields with a comma, a quote or a line break quoted,
// quotes doubled), a header row, UTF-8, "\n" line ends; an empty field is a
// figure that is not known (no GPU time for a step that failed, say).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace wb {

struct GradeRow {
    std::string student;  // the submission's id: its folder's name, or the manifest's
    std::string lesson;   // the lesson's id
    int step = 0;         // from 1
    std::string step_id;
    int cases_passed = 0;
    int cases_total = 0;
    // "passed"; "missing" (no file for this step: a zero, not an error); or the
    // first failing case's status as the result JSON names it ("mismatch",
    // "compile-error", "timed-out", "crashed", "cuda-error", "refused", ...).
    std::string verdict;
    double score = 0;  // points given: max_score x cases_passed / cases_total
    double max_score = 0;
    // The timed case: the kernels' median time (ms), where it ran ("NVIDIA H200",
    // "CPU emulator"), and the baseline's or target's time over it (1.0: as fast
    // as the baseline; 0.5: half its speed). Unset when the step was not timed
    // or did not pass.
    std::optional<double> time_ms;
    std::string device;
    std::optional<double> share;
    std::string share_of;  // what `share` compares with: "cuBLAS", "CUB BlockScan", "target", ...
};

// The column names, in order.
const std::vector<std::string>& gradebook_columns();

std::string gradebook_csv(const std::vector<GradeRow>& rows);

// Throws wb::Error (naming `origin` and the line) when the text is not a gradebook.
std::vector<GradeRow> parse_gradebook_csv(const std::string& text, const std::string& origin);

// One CSV field, quoted when it needs to be.
std::string csv_field(const std::string& text);

}  // namespace wb
