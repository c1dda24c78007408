// runtime/core/zh_hant.hpp — Traditional Chinese (zh-Hant) for the window and the lessons.
//
// The workbook's Chinese is written once, in Simplified. At build time every Simplified string
// of the catalogue (core/phrase.cpp) and of the shipped lessons goes through OpenCC's Taiwan
// conversion with phrases, then the workbook's own terms (core/zh_hant_terms.tsv); the result
// is compiled in (scripts/zh-hant-table.py). A lesson may also give "zh-Hant" text of its own,
// which wins. Text the build never saw (a lesson written or edited since) shows in Simplified,
// which a reader of Traditional reads too, rather than in a conversion of lesser quality.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace wb {

// Whether `lang` asks for Chinese in either script: "zh", "zh-Hans", "zh-Hant", "zh-TW".
bool is_chinese(std::string_view lang);

// Whether `lang` asks for Traditional Chinese: "zh-Hant" (also "zh-Hant-TW"), "zh-TW", "zh-HK", "zh-MO".
bool is_traditional_chinese(std::string_view lang);

// The workbook's language for `lang`: "zh-Hant" for Traditional Chinese, "zh" for any other
// Chinese, else "en".
std::string_view workbook_language(std::string_view lang);

// `text`, written in language `written`, as a reader of `asked` gets it: the build's Traditional
// text when Traditional is asked of Simplified text it converted, else `text` itself.
const std::string& for_reader(const std::string& text, std::string_view written, std::string_view asked);

// The Traditional text the build made for `simplified`, or nullptr for a string it did not see.
const std::string* traditional_text(std::string_view simplified);

// `simplified` in Traditional where the build converted it, else `simplified` itself.
std::string_view to_traditional(std::string_view simplified);

// How many strings the build converted, for the tests.
std::size_t traditional_text_count();

}  // namespace wb
