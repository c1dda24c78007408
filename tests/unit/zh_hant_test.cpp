// tests/unit/zh_hant_test.cpp — the Traditional Chinese (zh-Hant) window and lessons: the
// build's OpenCC table covers every Chinese sentence the workbook ships, the workbook's own
// terms replaced OpenCC's, and the language tags, the catalogue and the lessons choose it.
#include "core/fs.hpp"
#include "core/phrase.hpp"
#include "core/untranslated.hpp"
#include "core/zh_hant.hpp"
#include "lesson/loader.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace wb;
namespace fs = std::filesystem;

namespace {

// runtime/core/zh_hant_terms.tsv's pairs: OpenCC's word, the workbook's word.
std::vector<std::pair<std::string, std::string>> our_terms() {
    std::vector<std::pair<std::string, std::string>> out;
    std::istringstream in(read_file(fs::path(WB_SOURCE_DIR) / "runtime/core/zh_hant_terms.tsv"));
    for (std::string line; std::getline(in, line);) {
        line = line.substr(0, line.find('#'));
        const auto tab = line.find('\t');
        if (tab == std::string::npos) continue;
        std::string right = line.substr(tab + 1);
        right = right.substr(0, right.find('\t'));
        while (!right.empty() && (right.back() == ' ' || right.back() == '\t')) right.pop_back();
        out.emplace_back(line.substr(0, tab), right);
    }
    return out;
}

// Every "zh" text of a lesson file, as the loader joins an array of lines, with its JSON path.
void zh_texts(const nlohmann::json& j, const std::string& path, std::vector<std::pair<std::string, std::string>>& out) {
    if (j.is_object()) {
        for (const auto& [key, value] : j.items()) {
            const std::string p = path + "." + key;
            if (key == "zh" && value.is_string()) {
                out.emplace_back(p, value.get<std::string>());
            } else if (key == "zh" && value.is_array() && !value.empty() && value[0].is_string()) {
                std::string joined;
                for (std::size_t i = 0; i < value.size(); ++i) joined += (i ? "\n" : "") + value[i].get<std::string>();
                out.emplace_back(p, joined);
            } else {
                zh_texts(value, p, out);
            }
        }
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i) zh_texts(j[i], path + "[" + std::to_string(i) + "]", out);
    }
}

std::vector<fs::path> shipped_lessons() {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(fs::path(WB_SOURCE_DIR) / "lessons"))
        if (e.path().extension() == ".json" && e.path().filename() != "lesson.schema.json") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST(ZhHant, LanguageTagsChooseTheScript) {
    for (const char* tag : {"zh", "zh-Hans", "zh-Hant", "zh-TW", "zh-Hant-TW", "ZH-hant", "zh-HK"})
        EXPECT_TRUE(is_chinese(tag)) << tag;
    for (const char* tag : {"en", "", "z", "zhx", "fr-zh"}) EXPECT_FALSE(is_chinese(tag)) << tag;
    for (const char* tag : {"zh-Hant", "zh-TW", "zh-Hant-TW", "zh-hant", "zh-HK", "zh-MO"})
        EXPECT_TRUE(is_traditional_chinese(tag)) << tag;
    for (const char* tag : {"zh", "zh-Hans", "zh-CN", "zh-Hans-TW", "en", "en-TW"})
        EXPECT_FALSE(is_traditional_chinese(tag)) << tag;
}

TEST(ZhHant, TheLocaleChoosesTraditionalForTaiwanHongKongAndMacau) {
    const char* saved[3] = {std::getenv("LC_ALL"), std::getenv("LC_MESSAGES"), std::getenv("LANG")};
    const std::string keep[3] = {saved[0] ? saved[0] : "", saved[1] ? saved[1] : "", saved[2] ? saved[2] : ""};
    ::unsetenv("LC_ALL");
    ::unsetenv("LC_MESSAGES");
    for (auto [locale, lang] : std::vector<std::pair<const char*, const char*>>{
             {"zh_TW.UTF-8", "zh-Hant"}, {"zh_HK.UTF-8", "zh-Hant"}, {"zh_MO", "zh-Hant"},
             {"zh_CN.UTF-8", "zh"}, {"zh_SG.UTF-8", "zh"}, {"zh", "zh"}, {"en_US.UTF-8", "en"}}) {
        ::setenv("LANG", locale, 1);
        EXPECT_EQ(language_from_environment(), lang) << locale;
    }
    const char* names[3] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    for (int i = 0; i < 3; ++i) {
        if (saved[i]) ::setenv(names[i], keep[i].c_str(), 1);
        else ::unsetenv(names[i]);
    }
}

// Every sentence of the catalogue has the build's Traditional text, the window renders it, and
// it is still Chinese with no English left in it.
TEST(ZhHant, EveryCatalogueSentenceHasItsTraditionalText) {
    ASSERT_GT(traditional_text_count(), 1000u) << "the build's table (scripts/zh-hant-table.py)";
    for (std::string_view key : phrase_keys()) {
        // Placeholders as arguments that show themselves: the entry's template as written.
        const Phrase p{std::string(key), {"{0}", "{1}", "{2}", "{3}", "{4}", "{5}", "{6}", "{7}", "{8}", "{9}"}};
        const std::string zh = render({p}, "zh");
        const std::string* hant = traditional_text(zh);
        ASSERT_NE(hant, nullptr) << key << ": the build did not convert '" << zh << "'";
        EXPECT_EQ(render({p}, "zh-Hant"), *hant) << key;
        if (key == "ui.english") continue;
        for (const EnglishFound& f : english_in(*hant)) ADD_FAILURE() << key << ": '" << f.words << "' in " << *hant;
    }
}

TEST(ZhHant, TheWindowSpeaksTraditionalWithTheWorkbooksTerms) {
    EXPECT_EQ(render({{"ui.chinese_traditional", {}}}, "zh-Hant"), "繁體中文");
    EXPECT_EQ(render({{"ui.chinese_traditional", {}}}, "zh"), "繁体中文");
    // OpenCC's Taiwan phrases: 内存 is 記憶體, 访问 becomes the workbook's 存取.
    EXPECT_EQ(render({{"ui.check_memory", {}}}, "zh"), "检查内存访问");
    EXPECT_EQ(render({{"ui.check_memory", {}}}, "zh-Hant"), "檢查記憶體存取");
    // A nested phrase is converted too, and "zh-TW" asks for the same as "zh-Hant".
    const Sentence s = {{"worker.stopped", {"@phase.gpu"}}};
    EXPECT_EQ(render(s, "zh-Hant"), "在執行核函式時被停止");
    EXPECT_EQ(render(s, "zh-TW"), render(s, "zh-Hant"));
    EXPECT_EQ(render(s, "zh-Hans"), render(s, "zh"));
}

// No Traditional text keeps a word of OpenCC's that runtime/core/zh_hant_terms.tsv replaces.
TEST(ZhHant, NoTraditionalTextKeepsAWordTheTermsReplace) {
    const auto terms = our_terms();
    ASSERT_GE(terms.size(), 5u);
    std::vector<std::string> all;
    for (std::string_view key : phrase_keys())
        all.push_back(render({{std::string(key), {"{0}", "{1}", "{2}", "{3}", "{4}", "{5}", "{6}", "{7}", "{8}", "{9}"}}}, "zh-Hant"));
    for (const fs::path& file : shipped_lessons()) {
        std::vector<std::pair<std::string, std::string>> texts;
        zh_texts(nlohmann::json::parse(read_file(file)), file.filename().string(), texts);
        for (const auto& [path, zh] : texts) all.push_back(std::string(to_traditional(zh)));
    }
    for (const std::string& text : all)
        for (const auto& [opencc_word, ours] : terms) {
            // A word that a later line writes back inside another (片上 in 照片上) may stay, and so
            // may the row, column and stream phrases: a row rule's 列 (行 -> 列) is a column
            // rule's word again by design, so those are checked by their effect below.
            bool written_back = false;
            for (const auto& [w, o] : terms) written_back |= o.find(opencc_word) != std::string::npos;
            for (const char* swapped : {"行", "列", "流"})
                written_back |= opencc_word.find(swapped) != std::string::npos;
            if (written_back) continue;
            EXPECT_EQ(text.find(opencc_word), std::string::npos)
                << "'" << opencc_word << "' where the workbook writes '" << ours << "': " << text.substr(0, 200);
        }
}

// Every Chinese text of every shipped lesson has the build's Traditional text, and the model's
// LocalizedText gives it for "zh-Hant": the table is rebuilt whenever a lesson changes.
TEST(ZhHant, EveryShippedLessonTextHasItsTraditionalText) {
    std::size_t texts_seen = 0;
    for (const fs::path& file : shipped_lessons()) {
        std::vector<std::pair<std::string, std::string>> texts;
        zh_texts(nlohmann::json::parse(read_file(file)), file.filename().string(), texts);
        for (const auto& [path, zh] : texts) {
            ++texts_seen;
            EXPECT_NE(traditional_text(zh), nullptr) << path << ": the build did not convert it";
        }
        auto r = load_lesson(file.string());
        ASSERT_TRUE(r.ok()) << file;
        const Lesson& lesson = *r.lesson;
        EXPECT_EQ(lesson.title.get("zh-Hant"), to_traditional(lesson.title.get("zh"))) << file;
        for (const Step& step : lesson.steps) {
            const std::string& zh = step.instructions.get("zh");
            const std::string& hant = step.instructions.get("zh-Hant");
            EXPECT_EQ(hant, to_traditional(zh)) << file << " " << step.id;
            EXPECT_NE(hant, zh) << file << " " << step.id << ": instructions left in Simplified";
        }
    }
    EXPECT_GT(texts_seen, 500u);
}

// A lesson's own "zh-Hant" wins; Chinese the build never saw (an instructor's new lesson) shows
// as written, in Simplified, rather than not at all.
TEST(ZhHant, ALessonsOwnTraditionalWinsAndUnseenTextStaysAsWritten) {
    LocalizedText own{{{"en", "Run"}, {"zh", "运行"}, {"zh-Hant", "跑一次"}}};
    EXPECT_EQ(own.get("zh-Hant"), "跑一次");
    EXPECT_EQ(own.get("zh"), "运行");
    LocalizedText unseen{{{"en", "x"}, {"zh", "一个从未编译进表里的句子：线程块"}}};
    EXPECT_EQ(traditional_text(unseen.get("zh")), nullptr);
    EXPECT_EQ(unseen.get("zh-Hant"), "一个从未编译进表里的句子：线程块");
    const Sentence why = {lesson_text({{"en", "x"}, {"zh", "检查内存访问"}})};
    EXPECT_EQ(render(why, "zh-Hant"), "檢查記憶體存取") << "a limit's reason from the lesson, converted";
}

// Rows and columns read as Taiwan reads them: Simplified 行 (row) and 列 (column) become 列 and 欄
// in the matrix lessons' sentences, a line of code stays 行, and a CUDA stream is 串流.
TEST(ZhHant, RowsColumnsAndStreamsReadAsTaiwanReadsThem) {
    std::string all;
    for (const fs::path& file : shipped_lessons()) {
        std::vector<std::pair<std::string, std::string>> texts;
        zh_texts(nlohmann::json::parse(read_file(file)), file.filename().string(), texts);
        for (const auto& [path, zh] : texts) all += std::string(to_traditional(zh)) + "\n";
    }
    for (const char* taiwan : {"A 的一列和 B 的一欄", "欄優先", "預設串流"})
        EXPECT_NE(all.find(taiwan), std::string::npos) << taiwan;
    for (const char* mainland : {"A 的一行和 B 的一列", "列主序", "預設流"})
        EXPECT_EQ(all.find(mainland), std::string::npos) << mainland;
    // A code line keeps 行, words with 列 in them keep it, and the SM keeps its 流.
    for (const char* kept : {"行號", "陣列", "佇列", "流式多處理器"}) EXPECT_NE(all.find(kept), std::string::npos) << kept;
}
