// runtime/grade/grade.cpp — one submission, graded (grade.hpp).
#include "grade/grade.hpp"

#include "core/error.hpp"
#include "core/fs.hpp"
#include "core/phrase.hpp"
#include "pipeline/result_json.hpp"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace wb {

namespace {

constexpr std::size_t kOutputKept = 4096;

// Where a case ran, in `lang`: a GPU's name, or the emulator.
std::string device_label(const std::string& device, const std::string& lang) {
    return device == "CPU emulator" ? render({{"cli.emulator", {}}}, lang) : device;
}

std::string num(double v, const char* f = "%.3g") {
    char buf[32];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// The file's text, or why it cannot be graded.
std::optional<std::string> read_submission(const fs::path& p, Sentence& why) {
    std::error_code ec;
    const auto size = fs::is_regular_file(p, ec) ? fs::file_size(p, ec) : 0;
    if (ec) return why = {{"grade.file_unreadable", {p.filename().string(), ec.message()}}}, std::nullopt;
    if (size > kMaxSubmissionBytes)
        return why = {{"grade.file_too_large", {p.filename().string(), std::to_string(size), std::to_string(kMaxSubmissionBytes)}}},
               std::nullopt;
    try {
        return read_file(p, kMaxSubmissionBytes);  // refuses a FIFO or a device without waiting on it
    } catch (const Error& e) {
        return why = {{"grade.file_unreadable", {p.filename().string(), e.message()}}}, std::nullopt;
    }
}

// The figures of a passed timing case: its time, where, and its share of the baseline or target.
void timing_of(const RunResult& r, CaseGrade& c) {
    const Timing* t = r.step_time();
    c.device = r.emulated ? "CPU emulator" : r.device ? r.device->name : "";
    if (!t || t->median_ms <= 0) return;
    c.time_ms = t->median_ms;
    if (const double f = r.baseline_fraction(); f > 0) {
        c.share = f;
        c.share_of = r.baseline->label;
    } else if (r.target && r.target->applies() && r.target->this_ms > 0) {
        c.share = r.target->at_most * r.target->that_ms / r.target->this_ms;  // >= 1: the target is met
        c.share_of = "target";
    }
}

}  // namespace

std::vector<const TestCase*> graded_cases(const Step& step, bool emulated) {
    std::vector<const TestCase*> cases;
    for (const TestCase& c : step.checks.cases)
        if (!emulated || c.emulate) cases.push_back(&c);
    return cases;
}

std::vector<PreparedReference> prepare_references(const std::shared_ptr<const Lesson>& lesson, bool emulated,
                                                  const std::string& lang,
                                                  const std::function<void(const PreparedReference&)>& each) {
    std::vector<PreparedReference> out;
    const std::unique_ptr<RunBackend> backend = make_local_backend();
    for (std::size_t n = 0; n < lesson->steps.size(); ++n) {
        const Step& step = lesson->steps[n];
        for (const TestCase* tc : graded_cases(step, emulated)) {
            RunRequest req;
            req.lesson = lesson;
            req.step = step.id;
            req.test_case = tc->name;
            req.reference_only = true;
            req.executor = Executor::Cpu;  // no kernel runs, so no GPU context is made
            req.keep_buffers = false;
            req.trusted = true;
            const auto t0 = std::chrono::steady_clock::now();
            const RunResult r = backend->run(req);
            PreparedReference p;
            p.step = int(n + 1);
            p.step_id = step.id;
            p.case_name = tc->name;
            p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            p.ok = r.status == RunStatus::CompileOnly;
            p.kept = r.cpu_from_cache;
            if (!p.ok) {
                p.message = r.message_in(lang);
                while (!p.message.empty() && std::isspace(static_cast<unsigned char>(p.message.back()))) p.message.pop_back();
            }
            if (each) each(p);
            out.push_back(std::move(p));
        }
    }
    return out;
}

StudentGrade grade_submission(RunBackend& backend, const std::shared_ptr<const Lesson>& lesson, const Submission& s,
                              const GradeOptions& o) {
    const auto t0 = std::chrono::steady_clock::now();
    StudentGrade g;
    g.student = s.student;
    g.notes = s.notes;
    const bool emulated = o.executor == Executor::Cpu || (o.executor == Executor::Auto && !backend.info().has_gpu);
    for (std::size_t n = 0; n < lesson->steps.size(); ++n) {
        const Step& step = lesson->steps[n];
        GradeRow row;
        row.student = s.student;
        row.lesson = lesson->id;
        row.step = int(n + 1);
        row.step_id = step.id;
        const std::vector<const TestCase*> cases = graded_cases(step, emulated);
        row.cases_total = int(cases.size());
        row.max_score = row.cases_total;
        const auto file = s.files.find(step.id);
        if (file == s.files.end()) {
            row.verdict = "missing";
            g.rows.push_back(row);
            continue;
        }
        Sentence why;
        const std::optional<std::string> source = read_submission(file->second, why);
        bool timed_out = false;  // a kernel that ran past its deadline is not run again on the step's later cases
        for (const TestCase* tc : cases) {
            CaseGrade c;
            c.step = row.step;
            c.step_id = step.id;
            c.case_name = tc->name;
            c.hidden = tc->hidden;
            if (!source) {
                c.status = run_status_name(RunStatus::InputError);
                c.message = render(why, o.lang);
                g.cases.push_back(std::move(c));
                continue;
            }
            if (timed_out) {
                c.status = run_status_name(RunStatus::TimedOut);
                c.message = render({{"grade.not_run_after_timeout", {}}}, o.lang);
                g.cases.push_back(std::move(c));
                continue;
            }
            RunRequest req;
            req.lesson = lesson;
            req.step = step.id;
            req.test_case = tc->name;
            req.source = SourceChoice::Custom;
            req.custom_source = *source;
            req.custom_origin = file->second.filename().string();
            req.executor = o.executor;
            req.arch = o.arch;
            req.timing = o.timing && tc->timing;
            req.keep_buffers = false;
            req.trusted = true;  // the instructor's lesson; the student's code is contained by the backend
            // --timeout replaces the lesson's deadline, but not a longer one a case sets itself
            // (lesson 06's huge): the lesson's author said that case needs it.
            req.timeout_s = tc->timeout_s > o.timeout_s ? 0 : o.timeout_s;
            const auto r0 = std::chrono::steady_clock::now();
            const RunResult r = backend.run(req);
            c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - r0).count();
            c.passed = r.status == RunStatus::Passed;
            c.status = run_status_name(r.status);
            c.message = r.message_in(o.lang);
            while (!c.message.empty() && std::isspace(static_cast<unsigned char>(c.message.back()))) c.message.pop_back();
            c.hint = r.hint_in(o.lang);
            c.output = r.output.substr(0, kOutputKept);
            if (c.passed) timing_of(r, c);
            timed_out = r.status == RunStatus::TimedOut;
            g.cases.push_back(std::move(c));
        }
        // The step: its passed cases, the first failure's status, the timing case's figures.
        for (auto it = g.cases.end() - std::ptrdiff_t(cases.size()); it != g.cases.end(); ++it) {
            row.cases_passed += it->passed;
            if (!it->passed && row.verdict.empty()) row.verdict = it->status;
            if (it->time_ms) row.time_ms = it->time_ms, row.share = it->share, row.share_of = it->share_of;
            if (row.device.empty()) row.device = it->device;
        }
        if (row.verdict.empty()) row.verdict = cases.empty() ? "no-cases" : "passed";
        row.score = row.cases_passed;
        g.rows.push_back(row);
    }
    g.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return g;
}

json gradescope_results(const StudentGrade& g, const std::string& lang) {
    double score = 0;
    json tests = json::array();
    for (const GradeRow& row : g.rows) {
        score += row.score;
        if (row.verdict == "missing") {
            tests.push_back({{"name", render({{"grade.test_name", {std::to_string(row.step), row.step_id, "-"}}}, lang)},
                             {"score", 0},
                             {"max_score", row.max_score},
                             {"status", "failed"},
                             {"output", render({{"grade.log.missing", {std::to_string(row.cases_total)}}}, lang)}});
            continue;
        }
        for (const CaseGrade& c : g.cases) {
            if (c.step != row.step) continue;
            json t = {{"name", render({{"grade.test_name", {std::to_string(c.step), c.step_id, c.case_name}}}, lang)},
                      {"score", c.passed ? 1 : 0},
                      {"max_score", 1},
                      {"status", c.passed ? "passed" : "failed"}};
            if (c.hidden) {
                t["output"] = render({{"grade.log.hidden_case", {}}}, lang);
            } else {
                std::string out = c.message;
                if (!c.hint.empty()) out += "\n" + c.hint;
                if (c.time_ms) out += "\n" + render({{"grade.log.time", {num(*c.time_ms), device_label(c.device, lang)}}}, lang);
                if (!c.output.empty()) out += "\n" + c.output;
                t["output"] = out;
            }
            tests.push_back(std::move(t));
        }
    }
    std::string notes;
    for (const auto& n : g.notes) notes += n + "\n";
    json j = {{"score", score}, {"tests", tests}, {"visibility", "visible"}, {"stdout_visibility", "hidden"}};
    if (!notes.empty()) j["output"] = notes;
    return j;
}

std::string student_log(const StudentGrade& g, const Lesson& lesson, const std::string& lang) {
    std::ostringstream out;
    out << render({{"grade.log.title", {lesson.title.get(lang), g.student}}}, lang) << "\n";
    for (const auto& n : g.notes) out << n << "\n";
    for (const GradeRow& row : g.rows) {
        const Step* step = lesson.find_step(row.step_id);
        out << "\n"
            << render({{"grade.log.step", {std::to_string(row.step), step ? step->title.get(lang) : row.step_id,
                                            std::to_string(row.cases_passed), std::to_string(row.cases_total)}}},
                      lang)
            << "\n";
        if (row.verdict == "missing") {
            out << "  " << render({{"grade.log.missing", {std::to_string(row.cases_total)}}}, lang) << "\n";
            continue;
        }
        for (const CaseGrade& c : g.cases) {
            if (c.step != row.step) continue;
            const std::string mark = c.passed ? "PASS" : "FAIL";
            if (c.hidden) {
                out << "  " << mark << " " << render({{"grade.log.hidden_case", {}}}, lang) << "\n";
                continue;
            }
            out << "  " << mark << " " << c.case_name << ": " << c.message << "\n";
            if (!c.hint.empty()) out << "       " << c.hint << "\n";
            if (c.time_ms) out << "       " << render({{"grade.log.time", {num(*c.time_ms), device_label(c.device, lang)}}}, lang) << "\n";
        }
    }
    return out.str();
}

// The JSON form: result_json.hpp's rules (an unset optional is null, a
// missing key its default), as every other result type's.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(GradeRow, student, lesson, step, step_id, cases_passed, cases_total, verdict,
                                                score, max_score, time_ms, device, share, share_of)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CaseGrade, step, step_id, case_name, hidden, passed, status, message, hint,
                                                output, seconds, time_ms, device, share, share_of)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(StudentGrade, student, rows, cases, notes, seconds)

json to_json(const StudentGrade& g) { return json(g); }

StudentGrade student_grade_from_json(const json& j) { return j.get<StudentGrade>(); }

}  // namespace wb
