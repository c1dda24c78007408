// runtime/grade/leaderboard.cpp — the leaderboard's static HTML pages
// (leaderboard.hpp): index.html and one page per step.
#include "grade/leaderboard.hpp"

#include "core/error.hpp"
#include "core/fs.hpp"
#include "core/phrase.hpp"
#include "core/zh_hant.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace wb {

namespace {

// The page's style, inline: nothing is fetched. Numbers are right-aligned in
// tabular figures so times line up.
constexpr std::string_view kStyle = R"(body{font-family:system-ui,"Noto Sans CJK SC","WenQuanYi Micro Hei",sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1a1a1a;background:#fff}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}
nav a,li a{color:#0645ad}
table{border-collapse:collapse;width:100%;margin:1rem 0}
th,td{padding:.35rem .6rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
th{background:#f3f3f3}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.student{overflow-wrap:anywhere}
p.counts{color:#555})";

std::string say(std::string key, std::vector<std::string> args, const std::string& lang) {
    return render({Phrase{std::move(key), std::move(args)}}, lang);
}

bool has_time(const GradeRow& r) { return r.time_ms && std::isfinite(*r.time_ms) && *r.time_ms >= 0; }

// What one step's rows come to.
struct StepBoard {
    int step = 0;
    std::string step_id;
    std::vector<const GradeRow*> timed;  // passed with a time, fastest first
    int passed_untimed = 0, not_passed = 0;
};

std::vector<StepBoard> boards(const std::vector<GradeRow>& rows) {
    std::map<int, StepBoard> by_step;
    for (const GradeRow& r : rows) {
        StepBoard& b = by_step[r.step];
        b.step = r.step;
        if (b.step_id.empty()) b.step_id = r.step_id;
        if (r.verdict != "passed") ++b.not_passed;
        else if (has_time(r)) b.timed.push_back(&r);
        else ++b.passed_untimed;
    }
    std::vector<StepBoard> out;
    for (auto& [step, b] : by_step) {
        std::sort(b.timed.begin(), b.timed.end(), [](const GradeRow* x, const GradeRow* y) {
            if (*x->time_ms != *y->time_ms) return *x->time_ms < *y->time_ms;
            return x->student < y->student;
        });
        out.push_back(std::move(b));
    }
    return out;
}

std::string step_name(const StepBoard& b, const std::string& lang) {
    const std::string n = std::to_string(b.step);
    return b.step_id.empty() ? say("grade.board.step_number", {n}, lang)
                             : say("grade.board.step", {n, b.step_id}, lang);
}

std::string step_file(int step) { return "step-" + std::to_string(step) + ".html"; }

// The grader's own words among a row's fields, in the page's language; the
// rest (GPU names, baselines such as cuBLAS) as written.
std::string device_text(const std::string& device, const std::string& lang) {
    if (device == say("cli.emulator", {}, "en")) return say("cli.emulator", {}, lang);
    return device;
}

std::string share_text(const GradeRow& r, const std::string& lang) {
    if (!r.share || !std::isfinite(*r.share)) return "\u2014";
    const std::string percent = three_significant_digits(*r.share * 100);
    if (r.share_of.empty()) return say("grade.board.share_of_baseline", {percent}, lang);
    if (r.share_of == "target") return say("grade.board.share_of_target", {percent}, lang);
    return say("grade.board.share_of", {percent, r.share_of}, lang);
}

std::string page(const std::string& lang, const std::string& title, const std::string& body) {
    std::string h = "<!DOCTYPE html>\n<html lang=\"" + std::string(workbook_language(lang)) + "\">\n<head>\n";
    h += "<meta charset=\"utf-8\">\n";
    h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    // Nothing but the inline style may load or run, whatever a row holds.
    h += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n";
    h += "<title>" + html_escape(title) + "</title>\n<style>\n" + std::string(kStyle) + "\n</style>\n</head>\n";
    h += "<body>\n" + body + "</body>\n</html>\n";
    return h;
}

std::string index_page(const std::string& lesson_title, const std::vector<StepBoard>& steps, const std::string& lang) {
    const std::string title = say("grade.board.heading", {lesson_title}, lang);
    std::string body = "<header><h1>" + html_escape(title) + "</h1></header>\n<main>\n";
    body += "<h2>" + html_escape(say("grade.board.steps", {}, lang)) + "</h2>\n";
    if (steps.empty()) body += "<p>" + html_escape(say("grade.board.no_rows", {}, lang)) + "</p>\n";
    else body += "<ul>\n";
    for (const StepBoard& b : steps) {
        const std::string counts = say("grade.board.index_counts",
                                       {std::to_string(b.timed.size()), std::to_string(b.passed_untimed),
                                        std::to_string(b.not_passed)},
                                       lang);
        body += "<li><a href=\"" + step_file(b.step) + "\">" + html_escape(step_name(b, lang)) + "</a>" +
                html_escape(say("grade.board.index_separator", {counts}, lang)) + "</li>\n";
    }
    if (!steps.empty()) body += "</ul>\n";
    body += "</main>\n";
    return page(lang, title, body);
}

std::string step_page(const std::string& lesson_title, const StepBoard& b, const std::string& lang) {
    const std::string title = say("grade.board.step_title", {lesson_title, step_name(b, lang)}, lang);
    std::string body = "<header><h1>" + html_escape(title) + "</h1>\n<nav><a href=\"index.html\">" +
                       html_escape(say("grade.board.all_steps", {}, lang)) + "</a></nav></header>\n<main>\n";
    body += "<section id=\"step-" + std::to_string(b.step) + "\">\n";
    body += "<h2>" + html_escape(step_name(b, lang)) + "</h2>\n";
    if (b.timed.empty()) {
        body += "<p class=\"empty\">" + html_escape(say("grade.board.no_times", {}, lang)) + "</p>\n";
    } else {
        body += "<p>" + html_escape(say("grade.board.intro", {}, lang)) + "</p>\n<table>\n<thead><tr>";
        body += "<th scope=\"col\" class=\"num\">" + html_escape(say("grade.board.col_rank", {}, lang)) + "</th>";
        body += "<th scope=\"col\">" + html_escape(say("grade.board.col_student", {}, lang)) + "</th>";
        body += "<th scope=\"col\" class=\"num\">" + html_escape(say("grade.board.col_time", {}, lang)) + "</th>";
        body += "<th scope=\"col\">" + html_escape(say("grade.board.col_device", {}, lang)) + "</th>";
        body += "<th scope=\"col\" class=\"num\">" + html_escape(say("grade.board.col_share", {}, lang)) + "</th>";
        body += "</tr></thead>\n<tbody>\n";
        std::size_t rank = 0;
        for (std::size_t i = 0; i < b.timed.size(); ++i) {
            const GradeRow& r = *b.timed[i];
            // Competition ranking: equal times share a rank, the next rank skips.
            if (i == 0 || *r.time_ms != *b.timed[i - 1]->time_ms) rank = i + 1;
            body += "<tr><td class=\"num rank\">" + std::to_string(rank) + "</td><td class=\"student\">" +
                    html_escape(r.student) + "</td><td class=\"num time\">" + three_significant_digits(*r.time_ms) +
                    "</td><td class=\"device\">" + html_escape(device_text(r.device, lang)) +
                    "</td><td class=\"num share\">" + html_escape(share_text(r, lang)) + "</td></tr>\n";
        }
        body += "</tbody>\n</table>\n";
    }
    body += "<p class=\"counts\">" +
            html_escape(say("grade.board.counts", {std::to_string(b.passed_untimed), std::to_string(b.not_passed)},
                            lang)) +
            "</p>\n</section>\n</main>\n";
    return page(lang, title, body);
}

}  // namespace

std::string html_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

std::string three_significant_digits(double ms) {
    if (!std::isfinite(ms)) return "\u2014";
    if (ms == 0) return "0";
    // Rounded first, then the decimals counted from the rounded value, so
    // 9.996 gives "10.0", not "10.00".
    int exponent = int(std::floor(std::log10(std::fabs(ms))));
    const double unit = std::pow(10.0, exponent - 2);
    const double rounded = std::round(ms / unit) * unit;
    exponent = int(std::floor(std::log10(std::fabs(rounded))));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", std::max(0, 2 - exponent), rounded);
    return buf;
}

std::vector<LeaderboardPage> leaderboard_pages(const std::string& lesson_title, const std::vector<GradeRow>& rows,
                                               const std::string& lang) {
    std::set<std::string> lessons;
    for (const GradeRow& r : rows) lessons.insert(r.lesson);
    if (lessons.size() > 1) {
        std::string names;
        for (const std::string& l : lessons) names += (names.empty() ? "'" : ", '") + l + "'";
        throw Error(ErrorKind::Usage, "the gradebook holds rows of " + std::to_string(lessons.size()) +
                                          " lessons (" + names + "); a leaderboard is built for one lesson");
    }
    const std::vector<StepBoard> steps = boards(rows);
    std::vector<LeaderboardPage> pages;
    pages.push_back({"index.html", index_page(lesson_title, steps, lang)});
    for (const StepBoard& b : steps) pages.push_back({step_file(b.step), step_page(lesson_title, b, lang)});
    return pages;
}

void write_leaderboard(const std::filesystem::path& dir, const std::vector<LeaderboardPage>& pages) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw Error(ErrorKind::Io, "cannot create the leaderboard's folder: " + ec.message(), {dir.string()});
    for (const LeaderboardPage& p : pages) write_file_atomic(dir / p.file, p.html);
}

}  // namespace wb
