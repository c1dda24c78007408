// tests/app/lesson_text_lint_test.cpp — every shipped lesson's text, rendered as the app renders
// it (parse_markdown, md4c with the app's flags), in English and Chinese: no `**` or backquote
// may survive into the text a student reads (md4c does not close `**` after full-width
// punctuation when a CJK character follows, so `**线程束（warp）**为` shows its asterisks), and
// the Chinese keeps to the term list (runtime/core/terms.hpp, the window's too): the words it
// replaced are refused. Titles, summaries and param descriptions are checked as well as the
// steps' instructions and hints. A failure names the lesson file, the step, the language and the
// offending text.
#include "widgets/markdown.hpp"

#include "core/terms.hpp"
#include "core/untranslated.hpp"
#include "lesson/loader.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace wb::app {
namespace {

std::string visible_text(const std::string& markdown) {
    std::string out;
    for (const MdBlock& b : parse_markdown(markdown)) {
        if (b.kind == MdBlockKind::Code) continue;  // code is shown as written
        for (const MdSpan& s : b.spans)
            if (!s.code) out += s.text;
        for (const auto& cell : b.cells)
            for (const MdSpan& s : cell)
                if (!s.code) out += s.text;
        out += "\n";
    }
    return out;
}

std::vector<std::string> problems_in(const std::string& text, const std::string& lang) {
    std::vector<std::string> found;
    const std::string shown = visible_text(text);
    for (const char* mark : {"**", "`"}) {
        const std::size_t at = shown.find(mark);
        if (at != std::string::npos)
            found.push_back(std::string("a literal ") + mark + " is shown: \"" +
                            shown.substr(at >= 30 ? at - 30 : 0, 60) + "\"");
    }
    if (lang == "zh") {
        for (const ReplacedTerm& t : chinese_term_problems(shown))
            found.push_back("\"" + std::string(t.word) + "\": the term list says " + std::string(t.term));
        // Multiples say what they mean: 是它的四倍, not 多三倍 or 少了 8 倍.
        // Alternation, not a character class: std::regex sees UTF-8 bytes, not characters.
        static const std::regex ambiguous("(多|少了?|少)\\s*(一|二|三|四|五|六|七|八|九|十|两|[0-9.]+)\\s*倍");
        std::smatch m;
        if (std::regex_search(shown, m, ambiguous)) found.push_back("an ambiguous multiple: \"" + m.str(0) + "\"");
    }
    return found;
}

TEST(LessonTextLint, EveryLessonRendersWithoutMarkupLeftAndKeepsTheChineseTerms) {
    int texts = 0;
    std::vector<std::string> report;
    for (const auto& file : list_lessons(WB_SOURCE_DIR "/lessons")) {
        const LoadResult loaded = load_lesson(file);
        ASSERT_TRUE(loaded.ok()) << file;
        for (const auto& [where, text] : std::vector<std::pair<std::string, const LocalizedText*>>{
                 {"title", &loaded.lesson->title}, {"summary", &loaded.lesson->summary}})
            for (const auto& [lang, body] : text->by_lang) {
                ++texts;
                for (const std::string& p : problems_in(body, lang))
                    report.push_back(fs::path(file).filename().string() + " " + where + " (" + lang + "): " + p);
            }
        for (const Step& step : loaded.lesson->steps) {
            std::vector<std::pair<std::string, const LocalizedText*>> pieces = {{"instructions", &step.instructions},
                                                                                  {"title", &step.title}};
            for (const Param& p : step.params) pieces.push_back({"params." + p.name + ".description", &p.description});
            for (std::size_t h = 0; h < step.hints.size(); ++h)
                pieces.push_back({"hints[" + std::to_string(h) + "]", &step.hints[h]});
            for (const auto& [where, text] : pieces)
                for (const auto& [lang, body] : text->by_lang) {
                    ++texts;
                    for (const std::string& p : problems_in(body, lang))
                        report.push_back(fs::path(file).filename().string() + " step " + step.id + " " + where + " (" +
                                         lang + "): " + p);
                }
        }
    }
    std::string all;
    for (const std::string& r : report) all += "\n  " + r;
    EXPECT_TRUE(report.empty()) << report.size() << " problems in " << texts << " texts:" << all;
    EXPECT_GT(texts, 100);
}

// The lesson list and the step list draw every lesson's and step's title in the window, where
// expect-no-english checks the frame: a Chinese title holds no English ("Tensor Core 与混合精度"
// did; 张量核心 is the term).
TEST(LessonTextLint, EveryChineseTitleTheWindowDrawsIsChinese) {
    for (const auto& file : list_lessons(WB_SOURCE_DIR "/lessons")) {
        const LoadResult loaded = load_lesson(file);
        ASSERT_TRUE(loaded.ok()) << file;
        std::vector<std::pair<std::string, const LocalizedText*>> titles = {{"title", &loaded.lesson->title}};
        for (const Step& step : loaded.lesson->steps) titles.push_back({"step " + step.id + " title", &step.title});
        for (const auto& [where, text] : titles) {
            const auto zh = text->by_lang.find("zh");
            if (zh == text->by_lang.end()) continue;
            for (const EnglishFound& f : english_in(zh->second))
                ADD_FAILURE() << fs::path(file).filename().string() << " " << where << ": '" << f.words << "' in " << zh->second;
        }
    }
}

// The lint itself: each rule fires on the mistake it names, and not on the fix.
TEST(LessonTextLint, TheRulesCatchWhatTheyName) {
    EXPECT_FALSE(problems_in("以**线程束（warp）**为单位", "zh").empty());
    EXPECT_TRUE(problems_in("以**线程束**（warp）为单位", "zh").empty());
    EXPECT_FALSE(problems_in("**动手试试：**在核函数里", "zh").empty());
    EXPECT_TRUE(problems_in("**动手试试**：在核函数里", "zh").empty());
    EXPECT_FALSE(problems_in("和基线比较", "zh").empty());
    EXPECT_FALSE(problems_in("写入字节数多三倍", "zh").empty());
    EXPECT_FALSE(problems_in("线程少了 8 倍", "zh").empty());
    EXPECT_TRUE(problems_in("是它的四倍，线程数只有八分之一", "zh").empty());
    EXPECT_TRUE(problems_in("Use `__syncthreads()` and **bold** text.", "en").empty());
    EXPECT_FALSE(problems_in("an unclosed ``code span", "en").empty());
}

}  // namespace
}  // namespace wb::app
