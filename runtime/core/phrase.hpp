// runtime/core/phrase.hpp — what the workbook says to a student, in every
// language it speaks: the one catalogue of sentences, for the runtime, the
// CLI and the desktop app (whose labels are its "ui.*" keys; app/ui_text.hpp).
//
// A run's message, its hint and the reason there is no GPU are decided here, in
// the runtime, once. Each is kept twice: as English text (RunResult::message,
// for the CLI, logs and JSON) and as a Sentence, the catalogue keys and
// arguments it was made from, so a front end can show the same words in the
// student's language. The English text is always render(sentence, "en").
//
// A Phrase is one catalogue entry with its arguments. Templates carry their own
// leading separators ("; ", " (…)"), so a Sentence renders by concatenation.
// An argument written "@key" is itself a catalogue entry without arguments
// (a phase such as "@phase.gpu"). The key "" is verbatim text: its first
// argument, the same in every language. Compiler output and a refusal's
// arithmetic stay verbatim; they are English in every language. The key
// "=lesson" is a lesson author's own words (lesson_text()): in each language
// the author gave, not the catalogue's.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

struct Phrase {
    std::string key;                // a catalogue key; "" = verbatim args[0]
    std::vector<std::string> args;  // for {0}, {1}, ...
    bool operator==(const Phrase&) const = default;
};

using Sentence = std::vector<Phrase>;

Phrase verbatim(std::string text);

// A lesson author's text in a sentence (a limit's "why"), by language tag
// ("en", "zh", "zh-Hans"; "" for a plain string): rendered in the student's
// language when the author gave it, else in English, else the plain string.
Phrase lesson_text(const std::map<std::string, std::string>& by_lang);

// The sentence in `lang` ("en", "zh", "zh-Hant": any Chinese tag gives Chinese,
// Traditional where the tag asks for it, core/zh_hant.hpp; another falls back to English). An
// unknown key renders as "" in every language, so the check in
// render_checked() sees it.
std::string render(const Sentence& s, std::string_view lang);

// `english` in `lang`, by its sentence, when the sentence still renders to
// `english` in English; otherwise (an unknown key from a newer worker, text
// edited after the sentence was made) `english` itself. A stale sentence is
// never shown.
std::string render_checked(const std::string& english, const Sentence& s, std::string_view lang);

// Whether the catalogue has `key`, for the wire decoder and the tests.
bool phrase_known(std::string_view key);

// The student's language from the environment, as a program that follows the
// locale would take it: LC_ALL, else LC_MESSAGES, else LANG; "zh-Hant" for
// zh_TW, zh_HK and zh_MO, "zh" for another zh (zh_CN.UTF-8), else "en".
std::string language_from_environment();

// Every key of the catalogue, for the test that every entry has both languages.
std::vector<std::string_view> phrase_keys();

}  // namespace wb
