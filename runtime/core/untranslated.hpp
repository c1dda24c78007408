// runtime/core/untranslated.hpp — finds English left in text meant for
// another language: what the tests that drive the workbook in Chinese check
// the window and the CLI with.
//
// English is any run of two or more lowercase words ("outside tolerance",
// "never written"), or one word of the everyday English the workbook says
// ("mismatch", "the", "changed"). Not English: what the window shows as the
// student or the lesson wrote it — text in quotes ('out', `x`, "..."), code
// (threadIdx.x, WB_CHECK, run(), -march=native, file.cu:12), units and
// acronyms (GPU, ms, GB/s, MHz), and the names a caller allows (a lesson's
// buffers, params, cases and kernels).
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

struct EnglishFound {
    std::string words;  // the English, as written ("outside tolerance")
    std::string line;   // the line of `text` it is on
};

// Every stretch of English in `text`, in order; empty when there is none.
// `allowed` holds words (any case) that are names here, not English.
std::vector<EnglishFound> english_in(std::string_view text, const std::set<std::string>& allowed = {});

}  // namespace wb
