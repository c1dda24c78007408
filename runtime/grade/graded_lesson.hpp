// runtime/grade/graded_lesson.hpp — the lesson as a grade runs it: the
// shipped lesson, plus the instructor's hidden cases, with its random inputs
// drawn from a seed the students do not know.
//
// Hidden cases come from a second file kept beside the lesson and never
// shipped, {"steps": {"<step id or N>": [<case>, ...]}} with cases in the
// lesson's own case format (docs/lesson-format.md), or from cases the lesson
// itself marks "hidden": true. Each is appended to its step's cases and marked
// hidden: its verdict counts, but a student's results.json shows only its name
// and score, not its output or inputs (grade.hpp).
//
// The seed: every "uniform" and "normal" input, of a buffer or of a case, gets
// a seed mixed from its own and the grade's, so the inputs differ from the ones
// a student ran, and an output cannot be hard-coded. The mix is the same on
// every machine, so a regrade with the same seed gives the same inputs.
#pragma once

#include "lesson/lesson.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>

namespace wb {

// Throws wb::Error naming the file and JSON path: a lesson that does not load,
// a hidden-cases file that does not read, a step it names that the lesson does
// not have, or a hidden case the loader refuses (its path in the hidden file).
std::shared_ptr<const Lesson> graded_lesson(const std::filesystem::path& lesson_file,
                                            const std::optional<std::filesystem::path>& hidden_file,
                                            std::optional<std::uint64_t> seed);

// The seed an input gets: SplitMix64 of its own seed and the grade's, kept
// under 2^53 so the lesson's JSON number holds it exactly.
std::uint64_t mixed_seed(std::uint64_t own, std::uint64_t grade_seed);

}  // namespace wb
