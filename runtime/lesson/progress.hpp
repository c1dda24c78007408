// runtime/lesson/progress.hpp — when a step counts as done: the rule `check` applies to a
// solution, applied to a student's work, decided here once for the app and the CLI.
//
// A case passes when its outputs match and the step's access limits held (checks.access: on a GPU
// an extra emulated run judges them; the timing case leaves them to the step's other cases).
// A step is done when one text of the kernel has passed every case that applies where it ran:
// on a GPU, every case; on the CPU emulator, every case the lesson does not mark
// "emulate": false (as `check --backend cpu` skips them). A host step is never done on the
// emulator, which does not run run(). Passing one case is one case passed, never the step: the
// Numba habit `int i = threadIdx.x;` passes a small case and fails a large one. A change of text
// starts the count again, so no mix of two texts adds up to a pass.
#pragma once

#include "lesson/lesson.hpp"

#include <set>
#include <string>
#include <vector>

namespace wb {

// The cases that must pass for the step to be done, in the lesson's order.
std::vector<std::string> cases_to_pass(const Step& step, bool emulated);

// One step's passed cases, for one text of the kernel.
struct CaseTally {
    std::string source_digest;       // sha256 of the text the cases passed with
    bool emulated = false;           // where they ran: a GPU's passes and the emulator's are not mixed
    std::set<std::string> passed;    // case names

    // Counts a run of `case_name` with the text whose digest is `digest`. A pass adds the case;
    // a failure takes it out; a new text or another executor starts a new tally.
    void add(const std::string& digest, bool on_emulator, const std::string& case_name, bool run_passed);
    // How many of the cases to pass have passed.
    int passed_of(const Step& step) const;
    // Every case to pass has passed with this text.
    bool done(const Step& step) const;

    bool operator==(const CaseTally&) const = default;
};

}  // namespace wb
