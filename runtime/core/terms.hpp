// runtime/core/terms.hpp — the Chinese term list (../shared/LESSONS.md), once,
// for the window's catalogue (core/phrase.cpp) and every lesson's text alike.
//
// The list is the words it replaced, each with the term to write instead:
// 基线 is 基准 (baseline), 脊点 is 拐点 (ridge point), and so on. Two lints
// enforce it: Phrase.EveryChineseSentenceKeepsTheTermList over the catalogue,
// and LessonTextLint over each lesson's title, summary, instructions, hints
// and param descriptions as the app renders them.
#pragma once

#include <string_view>
#include <vector>

namespace wb {

struct ReplacedTerm {
    std::string_view word;  // what the text must not say
    std::string_view term;  // what the term list says instead
};

// Every replaced word, with its term.
const std::vector<ReplacedTerm>& replaced_chinese_terms();

// The replaced words `text` (Chinese) uses, in list order; empty when it keeps to the list.
std::vector<ReplacedTerm> chinese_term_problems(std::string_view text);

}  // namespace wb
