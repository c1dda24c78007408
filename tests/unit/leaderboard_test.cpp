// tests/unit/leaderboard_test.cpp — the leaderboard pages (grade/leaderboard.hpp):
// fastest passing kernels first with shared ranks for equal times, the counts of
// the rest, a hostile student id shown as text, and a Chinese page with no English
// sentence of the catalogue in it. tests/html/leaderboard_chromium.sh checks the
// same pages in a browser.
#include "core/error.hpp"
#include "core/phrase.hpp"
#include "core/untranslated.hpp"
#include "grade/leaderboard.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

using namespace wb;

namespace {

GradeRow row(std::string student, int step, std::string verdict, std::optional<double> time_ms = std::nullopt,
             std::optional<double> share = std::nullopt, std::string share_of = "") {
    GradeRow r;
    r.student = std::move(student);
    r.lesson = "01_vector_add";
    r.step = step;
    r.step_id = step == 1 ? "add" : "grid_stride";
    r.cases_total = 3;
    r.cases_passed = verdict == "passed" ? 3 : 1;
    r.verdict = std::move(verdict);
    r.max_score = 10;
    r.score = r.cases_passed * 10.0 / 3;
    r.time_ms = time_ms;
    if (time_ms) r.device = "NVIDIA H200";
    r.share = share;
    r.share_of = std::move(share_of);
    return r;
}

// A class: step 2's rows come first, a tie, a failing kernel faster than
// everyone, an untimed pass, a missing file, and two hostile ids.
std::vector<GradeRow> a_class() {
    return {
        row("zoe", 2, "passed", 0.5),
        row("bob", 1, "passed", 2.0, 0.5, "device memcpy a -> c"),
        row("carol", 1, "passed", 1.0, 1.0, "device memcpy a -> c"),
        row("alice", 1, "passed", 2.0, 0.5, "device memcpy a -> c"),
        row("dave", 1, "mismatch", 0.1),
        row("eve", 1, "passed"),
        row("frank", 1, "missing"),
        row("<script>alert(1)</script>", 1, "passed", 3.0, 0.25, "target"),
        row("\"quoted\",id", 1, "passed", 4.0),
    };
}

const LeaderboardPage& page_named(const std::vector<LeaderboardPage>& pages, const std::string& file) {
    for (const LeaderboardPage& p : pages)
        if (p.file == file) return p;
    throw std::runtime_error("no page " + file);
}

// The students of a step page's table, top to bottom, as the HTML writes them.
std::vector<std::string> students_in_order(const std::string& html) {
    std::vector<std::string> out;
    const std::string open = "<td class=\"student\">";
    for (std::size_t at = html.find(open); at != std::string::npos; at = html.find(open, at + 1)) {
        const std::size_t start = at + open.size();
        out.push_back(html.substr(start, html.find("</td>", start) - start));
    }
    return out;
}

std::vector<std::string> ranks_in_order(const std::string& html) {
    std::vector<std::string> out;
    const std::string open = "<td class=\"num rank\">";
    for (std::size_t at = html.find(open); at != std::string::npos; at = html.find(open, at + 1)) {
        const std::size_t start = at + open.size();
        out.push_back(html.substr(start, html.find("</td>", start) - start));
    }
    return out;
}

// The text a reader sees: the page without its tags and its style sheet, one
// element's text a line, character references left as they are.
std::string visible_text(const std::string& html) {
    std::string out;
    const std::size_t style_end = html.find("</style>");
    for (std::size_t i = style_end == std::string::npos ? 0 : style_end; i < html.size(); ++i) {
        if (html[i] == '<') {
            i = html.find('>', i);
            out += '\n';
            if (i == std::string::npos) break;
        } else {
            out += html[i];
        }
    }
    return out;
}

}  // namespace

TEST(HtmlEscape, ReplacesTheFiveCharactersThatEndTextOrAnAttribute) {
    EXPECT_EQ(html_escape("a & b < c > d \" e ' f"), "a &amp; b &lt; c &gt; d &quot; e &#39; f");
    EXPECT_EQ(html_escape("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
    EXPECT_EQ(html_escape("&amp;"), "&amp;amp;") << "text that looks escaped is escaped again";
    EXPECT_EQ(html_escape("学生 7"), "学生 7") << "UTF-8 passes through";
    EXPECT_EQ(html_escape(""), "");
}

TEST(Leaderboard, TimesHaveThreeSignificantDigitsAndNoExponent) {
    EXPECT_EQ(three_significant_digits(0.0123456), "0.0123");
    EXPECT_EQ(three_significant_digits(1.23456), "1.23");
    EXPECT_EQ(three_significant_digits(12.345), "12.3");
    EXPECT_EQ(three_significant_digits(123.4), "123");
    EXPECT_EQ(three_significant_digits(1234.0), "1230");
    EXPECT_EQ(three_significant_digits(9.996), "10.0") << "rounding up adds no fourth digit";
    EXPECT_EQ(three_significant_digits(2.0), "2.00");
    EXPECT_EQ(three_significant_digits(0.0), "0");
}

TEST(Leaderboard, AnIndexAndOnePagePerStepInStepOrder) {
    const auto pages = leaderboard_pages("Vector add", a_class(), "en");
    ASSERT_EQ(pages.size(), 3u);
    EXPECT_EQ(pages[0].file, "index.html");
    EXPECT_EQ(pages[1].file, "step-1.html");
    EXPECT_EQ(pages[2].file, "step-2.html");
    const std::string& index = pages[0].html;
    EXPECT_LT(index.find("<a href=\"step-1.html\">Step 1: add</a>"), index.find("<a href=\"step-2.html\">"));
    EXPECT_NE(index.find("Step 1: add</a>: 5 passed with a time, 1 passed without one, 2 did not pass"),
              std::string::npos)
        << index;
    EXPECT_NE(pages[1].html.find("<section id=\"step-1\">"), std::string::npos);
    EXPECT_NE(pages[2].html.find("<section id=\"step-2\">"), std::string::npos);
    for (const LeaderboardPage& p : pages) {
        EXPECT_EQ(p.html.rfind("<!DOCTYPE html>\n<html lang=\"en\">", 0), 0u) << p.file;
        EXPECT_NE(p.html.find("<meta charset=\"utf-8\">"), std::string::npos) << p.file;
        EXPECT_EQ(p.html.find("<script"), std::string::npos) << p.file << ": no JavaScript";
        std::string without_csp = p.html;
        without_csp.erase(without_csp.find("http-equiv"), 10);
        EXPECT_EQ(without_csp.find("http"), std::string::npos) << p.file << ": nothing fetched";
        EXPECT_EQ(p.html.find(" src="), std::string::npos) << p.file;
    }
}

TEST(Leaderboard, PassingTimedKernelsFastestFirstEqualTimesShareARankByStudentId) {
    const std::string html = page_named(leaderboard_pages("Vector add", a_class(), "en"), "step-1.html").html;
    EXPECT_EQ(students_in_order(html),
              (std::vector<std::string>{"carol", "alice", "bob", "&lt;script&gt;alert(1)&lt;/script&gt;",
                                        "&quot;quoted&quot;,id"}))
        << "dave's failing 0.1 ms kernel is not on the board";
    EXPECT_EQ(ranks_in_order(html), (std::vector<std::string>{"1", "2", "2", "4", "5"}));
    EXPECT_NE(html.find("<td class=\"num time\">1.00</td>"), std::string::npos);
    EXPECT_NE(html.find("<td class=\"device\">NVIDIA H200</td>"), std::string::npos);
    EXPECT_NE(html.find("<td class=\"num share\">100% of device memcpy a -&gt; c</td>"), std::string::npos);
    EXPECT_NE(html.find("<td class=\"num share\">25.0% of the target</td>"), std::string::npos);
    EXPECT_NE(html.find("<td class=\"num share\">\u2014</td>"), std::string::npos) << "no share known";
}

TEST(Leaderboard, SaysHowManyPassedWithoutATimeAndHowManyDidNotPass) {
    const auto pages = leaderboard_pages("Vector add", a_class(), "en");
    EXPECT_NE(page_named(pages, "step-1.html").html.find("Passed without a time: 1. Did not pass: 2."),
              std::string::npos)
        << "eve passed untimed; dave failed and frank's file was missing";
    EXPECT_NE(page_named(pages, "step-2.html").html.find("Passed without a time: 0. Did not pass: 0."),
              std::string::npos);
    const auto nobody = leaderboard_pages("Vector add", {row("eve", 1, "passed"), row("dave", 1, "crashed")}, "en");
    const std::string& html = page_named(nobody, "step-1.html").html;
    EXPECT_NE(html.find("No kernel passed this step with a time."), std::string::npos);
    EXPECT_EQ(html.find("<table"), std::string::npos) << "no empty table";
}

TEST(Leaderboard, AHostileStudentIdOrTitleIsTextNotMarkup) {
    std::vector<GradeRow> rows = a_class();
    rows[0].device = "<img src=x onerror=alert(2)>";
    rows[0].step_id = "\"><b>step</b>";
    const auto pages = leaderboard_pages("<i>Vector</i> & 'add'", rows, "en");
    for (const LeaderboardPage& p : pages) {
        EXPECT_EQ(p.html.find("<script"), std::string::npos) << p.file;
        EXPECT_EQ(p.html.find("<img"), std::string::npos) << p.file;
        EXPECT_EQ(p.html.find("<b>"), std::string::npos) << p.file;
        EXPECT_EQ(p.html.find("<i>"), std::string::npos) << p.file;
        EXPECT_NE(p.html.find("&lt;i&gt;Vector&lt;/i&gt; &amp; &#39;add&#39;"), std::string::npos) << p.file;
    }
    EXPECT_NE(page_named(pages, "step-2.html").html.find("&lt;img src=x onerror=alert(2)&gt;"), std::string::npos);
}

TEST(Leaderboard, AChinesePageHasNoEnglishSentenceOfTheCatalogue) {
    std::vector<GradeRow> rows = a_class();
    rows[1].device = "CPU emulator";
    const auto pages = leaderboard_pages("向量加法", rows, "zh");
    // The ids and names the rows hold are the class's, not English sentences.
    const std::set<std::string> names = {"zoe", "bob", "carol", "alice", "quoted", "id", "script", "alert",
                                         "add", "grid_stride", "device", "memcpy"};
    for (const LeaderboardPage& p : pages) {
        EXPECT_EQ(p.html.rfind("<!DOCTYPE html>\n<html lang=\"zh\">", 0), 0u) << p.file;
        const std::string text = visible_text(p.html);
        EXPECT_NE(text.find("排行榜"), std::string::npos) << p.file << ": the heading is in the text looked at";
        for (const EnglishFound& f : english_in(text, names)) ADD_FAILURE() << p.file << ": '" << f.words << "' in " << f.line;
        for (std::string_view key : phrase_keys()) {
            if (!key.starts_with("grade.board.")) continue;
            // Each stretch of the English template between its placeholders.
            const std::string en = render({{std::string(key), {"\x01", "\x01", "\x01"}}}, "en");
            std::size_t start = 0;
            for (std::size_t cut; start <= en.size(); start = cut + 1) {
                cut = en.find('\x01', start);
                if (cut == std::string::npos) cut = en.size();
                const std::string piece = en.substr(start, cut - start);
                if (piece.size() > 3) {
                    EXPECT_EQ(text.find(piece), std::string::npos) << p.file << ": " << key;
                }
            }
        }
    }
    const std::string& step1 = page_named(pages, "step-1.html").html;
    EXPECT_NE(step1.find("通过但没有计时：1 人。未通过：2 人。"), std::string::npos);
    EXPECT_NE(step1.find("<td class=\"device\">CPU 模拟器</td>"), std::string::npos) << "the grader's own words";
    EXPECT_NE(step1.find("目标的 25.0%"), std::string::npos);
}

TEST(Leaderboard, RowsOfTwoLessonsAreRefused) {
    std::vector<GradeRow> rows = a_class();
    rows[2].lesson = "06_matmul";
    try {
        leaderboard_pages("Vector add", rows, "en");
        FAIL() << "two lessons were put on one board";
    } catch (const Error& e) {
        EXPECT_NE(e.message().find("'01_vector_add', '06_matmul'"), std::string::npos) << e.message();
    }
}

TEST(Leaderboard, AnEmptyGradebookGivesAnIndexThatSaysSo) {
    const auto pages = leaderboard_pages("Vector add", {}, "en");
    ASSERT_EQ(pages.size(), 1u);
    EXPECT_NE(pages[0].html.find("The gradebook has no rows."), std::string::npos);
}

TEST(Leaderboard, WritesEveryPageIntoTheFolder) {
    std::random_device rd;
    const auto dir = std::filesystem::temp_directory_path() / ("wb-board-test-" + std::to_string(rd())) / "leaderboard";
    const auto pages = leaderboard_pages("Vector add", a_class(), "en");
    write_leaderboard(dir, pages);
    for (const LeaderboardPage& p : pages) EXPECT_TRUE(std::filesystem::is_regular_file(dir / p.file)) << p.file;
    std::filesystem::remove_all(dir.parent_path());
}
