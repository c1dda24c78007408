// cli/junit.hpp — JUnit XML for `cuda-workbook-cli check --junit FILE`, so CI
// systems (GitLab, Jenkins, GitHub test reporters) show one line per check.
//
// One <testsuite> per lesson file, one <testcase> per check line: classname is
// "lesson_id/step_id", name is what was checked ("starter compiles", or the
// case with its params). A failure carries the run's message; a case that only
// compiled (compile-only) is <skipped>, because no kernel ran. Text is escaped
// for XML 1.0: & < > " ' become entities, and bytes XML cannot hold (control
// characters, invalid UTF-8) become U+FFFD.
#pragma once

#include <string>
#include <vector>

namespace wb::cli {

struct JunitCase {
    std::string classname;  // "vector_add/one_thread_per_element"
    std::string name;       // "starter compiles", "ragged (N=1000)"
    double seconds = 0;
    enum class Outcome { Passed, Failed, Skipped } outcome = Outcome::Passed;
    std::string type;     // the run's status for a failure ("mismatch"), or the reason kind for a skip
    std::string message;  // one line
    std::string details;  // failure text: diagnostics, first mismatches, lesson issues
};

struct JunitSuite {
    std::string name;  // the lesson id, or the file when it did not load
    std::string file;
    std::vector<JunitCase> cases;
};

// The whole document, <?xml ...?> first.
std::string junit_xml(const std::vector<JunitSuite>& suites);

// Text made safe for XML 1.0 content and attribute values.
std::string xml_escape(const std::string& text);

}  // namespace wb::cli
