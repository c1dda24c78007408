// runtime/lesson/progress.cpp — the step-done rule (progress.hpp).
#include "lesson/progress.hpp"

namespace wb {

std::vector<std::string> cases_to_pass(const Step& step, bool emulated) {
    std::vector<std::string> out;
    if (emulated && step.is_host()) return out;
    for (const TestCase& c : step.checks.cases)
        if (!emulated || c.emulate) out.push_back(c.name);
    return out;
}

void CaseTally::add(const std::string& digest, bool on_emulator, const std::string& case_name, bool run_passed) {
    if (digest != source_digest || on_emulator != emulated) {
        source_digest = digest;
        emulated = on_emulator;
        passed.clear();
    }
    if (run_passed) passed.insert(case_name);
    else passed.erase(case_name);
}

int CaseTally::passed_of(const Step& step) const {
    int n = 0;
    for (const std::string& c : cases_to_pass(step, emulated)) n += passed.count(c) > 0;
    return n;
}

bool CaseTally::done(const Step& step) const {
    const std::vector<std::string> want = cases_to_pass(step, emulated);
    return !want.empty() && passed_of(step) == static_cast<int>(want.size());
}

}  // namespace wb
