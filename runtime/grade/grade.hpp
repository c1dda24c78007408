// runtime/grade/grade.hpp — grading one student's submission of a lesson:
// every case of every step (hidden ones included) through a RunBackend, the
// same pipeline as a student's Run, and what the grade gives back: the
// gradebook's rows, Gradescope's results.json, and the log the student reads.
//
// The caller gives each submission a backend of its own (a fresh
// WorkerBackend: contained, deadlines, a replaced worker after a crash), so
// one submission cannot change another's result. A step with no file is a
// zero ("missing"); a file that cannot be read, or is over kMaxSubmissionBytes,
// fails that step with the reason. After a case that ran past its deadline, the
// step's later cases fail as timed out without running: an endless kernel
// would otherwise cost the whole deadline once per case. The CPU reference's
// outputs are made once per case before any submission (prepare_references).
#pragma once

#include "grade/gradebook.hpp"
#include "grade/submissions.hpp"
#include "pipeline/run.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wb {

inline constexpr std::size_t kMaxSubmissionBytes = 1 << 20;

struct GradeOptions {
    Executor executor = Executor::Auto;
    std::string arch;           // "" = the device's own
    double timeout_s = 0;       // > 0: each run's deadline instead of the lesson's (a case's own longer one stays)
    bool timing = true;         // time the timing cases that pass (on a GPU)
    std::string lang = "en";    // of the log and results.json
};

// One case of one step, as graded.
struct CaseGrade {
    int step = 0;  // from 1
    std::string step_id, case_name;
    bool hidden = false;
    bool passed = false;
    std::string status;   // run_status_name ("passed", "mismatch", ...), or "missing"
    std::string message;  // in GradeOptions::lang
    std::string hint;
    std::string output;   // what the kernel printed, at most 4 KiB
    double seconds = 0;   // the run's wall time
    std::optional<double> time_ms;
    std::string device;
    std::optional<double> share;
    std::string share_of;
};

struct StudentGrade {
    std::string student;
    std::vector<GradeRow> rows;   // one per step, in step order
    std::vector<CaseGrade> cases; // every case of every step with a file
    std::vector<std::string> notes;
    double seconds = 0;
};

// The cases a grade runs of a step: every one on a GPU; on the CPU emulator
// those the lesson lets it run (TestCase::emulate).
std::vector<const TestCase*> graded_cases(const Step& step, bool emulated);

// One case's CPU reference, run before any submission (prepare_references).
struct PreparedReference {
    int step = 0;  // from 1
    std::string step_id, case_name;
    bool ok = false;
    bool kept = false;     // the store had it from an earlier grade
    double seconds = 0;
    std::string message;   // why it failed, in the language asked
};

// Runs the CPU reference of every graded case once, in this process
// (a RunRequest with reference_only, under the lesson's own deadline, not
// GradeOptions::timeout_s), so the workers of the submissions read its
// outputs from the store (pipeline/reference_store.hpp) instead of each
// running it again inside a student's deadline. `each` is called after
// every case. A case whose reference fails is the lesson's error: the grade
// should stop and say so. Only for workers on this machine: a remote
// worker's cache is its own.
std::vector<PreparedReference> prepare_references(const std::shared_ptr<const Lesson>& lesson, bool emulated,
                                                  const std::string& lang,
                                                  const std::function<void(const PreparedReference&)>& each = {});

StudentGrade grade_submission(RunBackend& backend, const std::shared_ptr<const Lesson>& lesson, const Submission& s,
                              const GradeOptions& options);

// Gradescope's results.json: the score, and one test per case ("step 2 tiled:
// case ragged"), a hidden case's with its name and score only.
nlohmann::json gradescope_results(const StudentGrade& g, const std::string& lang);

// The verdicts as the student would read them in the app, one block per step.
std::string student_log(const StudentGrade& g, const Lesson& lesson, const std::string& lang);

// A StudentGrade's own form, which a resumed grade reads back.
nlohmann::json to_json(const StudentGrade& g);
StudentGrade student_grade_from_json(const nlohmann::json& j);

}  // namespace wb
