// runtime/grade/leaderboard.hpp — the leaderboard of a graded lesson
// (`cuda-workbook-cli grade ... --html`): static HTML pages built from the
// gradebook's rows (gradebook.hpp), one page per step of its fastest passing
// kernels and an index linking them. No JavaScript and nothing fetched: the
// CSS is inline, so the folder can be copied to any web server or opened
// from disk.
//
// Every sentence and heading is a catalogue phrase (core/phrase.hpp, keys
// "grade.board.*"), so lang "zh" gives Chinese pages. What comes from the
// rows (student ids, step ids, devices, what a share compares with) and the
// lesson's title is HTML-escaped and shown as written, except two of the
// grader's own words: the device "CPU emulator" and the share_of "target",
// which are shown in the page's language.
#pragma once

#include "grade/gradebook.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

struct LeaderboardPage {
    std::string file;  // "index.html", "step-1.html", ...
    std::string html;
};

// index.html first, then step-<N>.html for each step the rows have, in step
// order. A step's page (its section's id "step-<N>") ranks the rows whose
// verdict is "passed" and that have a time (finite, not negative) fastest
// first; equal times share a rank and are ordered by student id. Under the
// table: how many passed without a time and how many did not pass.
// `lesson_title` is the lesson's title in `lang` ("en", "zh"; another gives
// English). Throws wb::Error (Usage) when the rows are of more than one lesson.
std::vector<LeaderboardPage> leaderboard_pages(const std::string& lesson_title, const std::vector<GradeRow>& rows,
                                               const std::string& lang);

// Writes the pages into `dir` (created when missing), each atomically.
// Throws wb::Error (Io) naming the file that could not be written.
void write_leaderboard(const std::filesystem::path& dir, const std::vector<LeaderboardPage>& pages);

// `text` with & < > " ' replaced by their character references, safe inside
// an element and inside a quoted attribute.
std::string html_escape(std::string_view text);

// `ms` to 3 significant digits without an exponent: 0.0123, 1.23, 12.3, 123, 1230.
std::string three_significant_digits(double ms);

}  // namespace wb
