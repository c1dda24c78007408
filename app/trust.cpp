// app/trust.cpp — trust in the open lesson's folder (trust.hpp).
#include "trust.hpp"

#include "app_state.hpp"

#include "core/data_dirs.hpp"
#include "core/error.hpp"
#include "core/trust.hpp"

namespace wb::app {

void update_trust(AppState& state) {
    TrustState& t = state.trust;
    const LessonEntry* entry = selected_entry(state);
    const std::filesystem::path file = entry ? entry->file : std::filesystem::path();
    if (file == t.lesson_file) return;
    t.lesson_file = file;
    t.folder.clear();
    t.trusted = true;
    if (file.empty() || is_shipped_lesson(file)) return;
    t.folder = lesson_trust_folder(file);
    t.trusted = lesson_is_trusted(file);
    if (t.trusted) return;
    log_line(state, "lessons in " + t.folder.string() + " are not trusted yet: " + untrusted_lesson_explanation());
    if (t.asked.insert(t.folder).second) t.prompt_open = true;
}

std::string untrusted_reason(const AppState& state) {
    const TrustState& t = state.trust;
    if (t.trusted) return {};
    return render({{"trust.not_trusted", {t.folder.string(), "@trust.explanation"}}}, state.lang);
}

void answer_trust(AppState& state, bool yes) {
    TrustState& t = state.trust;
    t.prompt_open = false;
    if (t.folder.empty()) return;
    if (!yes) {
        log_line(state, "not trusted: compiling and running stay off for lessons in " + t.folder.string());
        return;
    }
    t.trusted = true;
    try {
        remember_lesson_trusted(t.lesson_file);
        log_line(state, "trusted lessons in " + t.folder.string() + " (remembered in " +
                            trusted_folders_file().string() + ")");
    } catch (const Error& e) {
        log_line(state, "trusted lessons in " + t.folder.string() + " for this session; could not remember it: " +
                            e.describe(), true);
    }
    state.requests.compile = true;
}

}  // namespace wb::app
