// app/trust.hpp — whether the open lesson may be compiled and run.
//
// The shipped lessons are trusted. Any other lesson (from --lessons DIR,
// or $WB_LESSONS_DIR) carries a CPU reference in C++
// that would be compiled and run on this computer, and kernels that run on
// the GPU, so the app asks once per folder, in a modal (panels/trust_prompt.cpp),
// and remembers a "Trust" in <config dir>/trusted_folders.json
// (runtime/core/trust.hpp). Until then compiling and running are off for the
// lesson, with the reason on the Run button and in the status bar; the
// instructions can still be read. No GUI code here.
#pragma once

#include <string>

namespace wb::app {

struct AppState;

// Works out trust for the selected lesson when the selection changed, and
// opens the prompt the first time this session a folder needs an answer.
// Called once per frame before the script and the panels.
void update_trust(AppState& state);

// Why the open lesson may not be compiled or run, or "" when it may.
std::string untrusted_reason(const AppState& state);

// The student's answer to the prompt. Yes: the folder is remembered (and the
// editor's text compiled); no: nothing is remembered, the next start asks again.
void answer_trust(AppState& state, bool yes);

}  // namespace wb::app
