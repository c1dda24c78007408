// app/app_state.cpp — selection, editor text and launch settings of AppState
// (app_state.hpp). Pure state changes: no drawing, no jobs.
#include "app_state.hpp"

#include "student_work.hpp"

#include "core/error.hpp"
#include "core/fs.hpp"
#include "core/phrase.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace wb::app {

const LessonEntry* selected_entry(const AppState& state) {
    if (state.selected_lesson < 0 || state.selected_lesson >= static_cast<int>(state.lessons.size()))
        return nullptr;
    return &state.lessons[static_cast<std::size_t>(state.selected_lesson)];
}

const Step* selected_step(const AppState& state) {
    const LessonEntry* entry = selected_entry(state);
    if (entry == nullptr || !entry->ok()) return nullptr;
    const auto& steps = entry->lesson->steps;
    if (state.selected_step < 0 || state.selected_step >= static_cast<int>(steps.size())) return nullptr;
    return &steps[static_cast<std::size_t>(state.selected_step)];
}

std::string no_gpu_text(const AppState& state) {
    return render_checked(state.no_gpu_reason, state.no_gpu_said, state.lang);
}

std::string step_key(const AppState& state) {
    const LessonEntry* entry = selected_entry(state);
    const Step* step = selected_step(state);
    return entry && step ? entry->id() + "/" + step->id : std::string();
}

void export_kernel_to_python(AppState& state, PythonHome home) {
    if (!state.lesson || state.selected_step < 0 || std::size_t(state.selected_step) >= state.lesson->steps.size()) return;
    const Lesson& lesson = *state.lesson;
    PythonExportRequest q;
    q.lesson = &lesson;
    q.step = &lesson.steps[std::size_t(state.selected_step)];
    q.home = home;
    for (const TestCase& tc : q.step->checks.cases)
        if (tc.name == state.launch.test_case) q.test_case = &tc;
    if (!q.test_case && !q.step->checks.cases.empty()) q.test_case = &q.step->checks.cases.front();
    q.params = state.launch.params;
    q.source = {state.editor.text, state.editor.origin, ""};
    try {
        const PythonExport x = export_python(q);
        const std::filesystem::path file = data_dir() / "exports" / x.file_name;
        std::filesystem::create_directories(file.parent_path());
        write_file_atomic(file, x.text);
        log_line(state, render({{"ui.exported_python", {file.string()}}}, state.lang));
    } catch (const Error& e) {
        const std::string why = e.said().empty() ? e.message() : render(e.said(), state.lang);
        log_line(state, render({{"ui.export_failed", {why}}}, state.lang), true);
    } catch (const std::exception& e) {
        log_line(state, render({{"ui.export_failed", {e.what()}}}, state.lang), true);
    }
}

void log_line(AppState& state, std::string text, bool error) {
    // A long session must not grow without bound; the oldest lines go first.
    constexpr std::size_t kMaxLog = 500;
    if (state.log.size() >= kMaxLog) state.log.erase(state.log.begin(), state.log.begin() + 100);
    state.log.push_back({std::move(text), error});
}

void record_run(AppState& state, RunResult result) {
    // A student may run hundreds of times in a session; the plot only needs the recent ones.
    constexpr std::size_t kMaxHistory = 200;
    std::vector<RunRecord>& runs = state.run_history[result.lesson_id + "/" + result.step_id];
    if (runs.size() >= kMaxHistory) runs.erase(runs.begin());
    RunRecord record;
    record.case_name = result.case_name;
    record.status = result.status;
    record.gpu_ms = result.gpu_time ? result.gpu_time->median_ms : -1;
    record.wall_ms = result.wall_time ? result.wall_time->median_ms : -1;
    record.cpu_ms = result.cpu_ms;
    record.bytes = result.bytes;
    record.flops = result.flops;
    runs.push_back(std::move(record));
    if (const ResultsTab tab = tab_after_run(result, state.results_tab); tab != state.results_tab)
        show_results_tab(state, tab);
    state.last_run = std::move(result);
    state.run_stopped = false;
    ++state.run_serial;
}

const std::vector<RunRecord>& step_history(const AppState& state) {
    static const std::vector<RunRecord> kNone;
    const auto it = state.run_history.find(step_key(state));
    return it == state.run_history.end() ? kNone : it->second;
}

void set_editor_text(AppState& state, std::string text) {
    if (text == state.editor.text) return;
    state.editor.text = std::move(text);
    ++state.editor.revision;
    state.editor.last_edit_time = state.now;
}

bool save_open_work(AppState& state, bool say_so) {
    const LessonEntry* entry = selected_entry(state);
    const Step* step = selected_step(state);
    if (!entry || !step) return true;
    if (state.editor.saved_revision == state.editor.revision && !say_so) return true;
    try {
        save_work(entry->id(), step->id, state.editor.text);
    } catch (const Error& e) {
        const bool first = state.save_error.empty();
        state.save_error = e.describe();
        state.save_retry_at = state.now + kSaveRetrySeconds;
        if (first) log_line(state, "could not save: " + state.save_error, true);
        return false;
    }
    state.editor.saved_revision = state.editor.revision;
    if (!state.save_error.empty()) log_line(state, "saved again: " + work_file(entry->id(), step->id).string());
    else if (say_so) log_line(state, "saved " + work_file(entry->id(), step->id).string());
    state.save_error.clear();
    // Our own write must not look like an external edit.
    std::error_code ec;
    if (state.external.pid && state.external.file == work_file(entry->id(), step->id))
        state.external.mtime = std::filesystem::last_write_time(state.external.file, ec);
    return true;
}

bool select_step(AppState& state, int index) {
    if (!save_open_work(state)) return false;
    open_step(state, index);
    return true;
}

void open_step(AppState& state, int index) {
    state.selected_step = index;
    const LessonEntry* entry = selected_entry(state);
    const Step* step = selected_step(state);
    EditorState fresh;
    // Revisions keep growing across steps, so a late compile of the previous
    // step's text can never be taken for this one's.
    fresh.revision = state.editor.revision + 1;
    fresh.saved_revision = fresh.revision;
    fresh.last_edit_time = state.now;
    if (step) {
        std::optional<std::string> saved = load_work(entry->id(), step->id);
        fresh.text = saved ? *saved : step->starter.text;
        fresh.origin = step->starter.origin.empty() || step->starter.origin == "<inline>"
                           ? std::string("kernel.cu")
                           : std::filesystem::path(step->starter.origin).filename().string();
    }
    state.editor = std::move(fresh);
    state.compile.reset();
    state.last_run.reset();
    state.run_stopped = false;
    state.results_views.reset();  // its buffer copies belong to the step being left
    state.access_view = AccessViewState{};  // its row was a line of the step being left
    state.show_diff = false;
    reset_launch(state, "");
}

bool select_lesson(AppState& state, int index) {
    if (!save_open_work(state)) return false;
    state.selected_lesson = index;
    const LessonEntry* entry = selected_entry(state);
    state.lesson = entry && entry->ok() ? std::make_shared<const Lesson>(*entry->lesson) : nullptr;
    open_step(state, 0);
    return true;
}

void replace_editor_text(AppState& state, std::string text, const std::string& what) {
    const LessonEntry* entry = selected_entry(state);
    const Step* step = selected_step(state);
    if (text == state.editor.text) return;
    if (entry && step && !state.editor.text.empty()) {
        try {
            const auto kept = save_work_history(entry->id(), step->id, state.editor.text);
            log_line(state, "kept the replaced text in " + kept.string());
        } catch (const Error& e) {
            log_line(state, "could not keep a copy of the replaced text: " + e.describe() + " (Ctrl+Z still brings it back)",
                     true);
        }
    }
    set_editor_text(state, std::move(text));
    state.editor.replace_undoably = true;
    log_line(state, what);
}

LaunchSettings default_launch(const Step& step, const std::string& test_case, std::string& error) {
    LaunchSettings s;
    s.test_case = test_case;
    if (s.test_case.empty() && !step.checks.cases.empty()) s.test_case = step.checks.cases.front().name;
    s.timeout_s = static_cast<float>(step.checks.timeout_s);
    if (const TestCase* c = step.find_case(s.test_case); c && c->timeout_s > 0) s.timeout_s = static_cast<float>(c->timeout_s);
    try {
        s.params = resolve_params(step, step.find_case(s.test_case), {});
        if (!step.launches.empty()) {
            const LaunchDims dims = resolve_launch(step.launches[step.tuned_launch()], s.params);
            for (int i = 0; i < 3; ++i) {
                s.block[i] = static_cast<int>(std::clamp<long long>(dims.block[i], 0, std::numeric_limits<int>::max()));
                s.grid[i] = static_cast<int>(std::clamp<long long>(dims.grid[i], 0, std::numeric_limits<int>::max()));
            }
            s.shared_bytes = static_cast<int>(dims.shared_bytes);
        }
    } catch (const Error& e) {
        error = e.describe();
    }
    return s;
}

void reset_launch(AppState& state, const std::string& test_case) {
    const Step* step = selected_step(state);
    if (step == nullptr) {
        state.launch = LaunchSettings{};
        state.launch.test_case = test_case;
        return;
    }
    std::string error;
    state.launch = default_launch(*step, test_case, error);
    if (!error.empty()) log_line(state, error, true);
}

void set_lessons_collapsed(AppState& state, bool collapsed) {
    state.layout.lessons_collapsed = state.layout_committed.lessons_collapsed = collapsed;
}

void set_instructions_popped(AppState& state, bool popped) {
    state.layout.instructions_popped = state.layout_committed.instructions_popped = popped;
}

void change_text_zoom(AppState& state, int direction) {
    state.text_zoom = direction == 0 ? 1.0f : clamp_text_zoom(state.text_zoom + static_cast<float>(direction) * kTextZoomStep);
}

void show_results_tab(AppState& state, ResultsTab tab) {
    state.results_tab = tab;
    state.results_tab_requested = true;
}

void set_results_expanded(AppState& state, bool expanded) {
    if (expanded != state.results_expanded) show_results_tab(state, state.results_tab);
    state.results_expanded = expanded;
}

const char* results_tab_name(ResultsTab tab) {
    switch (tab) {
    case ResultsTab::Views: return "views";
    case ResultsTab::Timeline: return "timeline";
    case ResultsTab::Check: return "check";
    case ResultsTab::Timings: return "timings";
    case ResultsTab::Roofline: return "roofline";
    case ResultsTab::Buffers: return "buffers";
    case ResultsTab::Access: return "access";
    case ResultsTab::Sweep: return "sweep";
    case ResultsTab::Resources: return "resources";
    case ResultsTab::Ptx: return "ptx";
    case ResultsTab::Sass: return "sass";
    case ResultsTab::Count_: break;
    }
    return "?";
}

ResultsTab tab_after_run(const RunResult& result, ResultsTab current) {
    if (result.host_step && result.timeline && result.status == RunStatus::Passed) return ResultsTab::Timeline;
    if (current == ResultsTab::Timeline && !result.host_step) return ResultsTab::Views;
    return current;
}

void check_launch_settings(AppState& state) {
    state.launch_dims.reset();
    state.launch_refusal.clear();
    const Step* step = selected_step(state);
    if (step == nullptr || step->launches.empty()) return;
    const LaunchSettings& s = state.launch;
    LaunchOverride ov;
    ov.block = std::array<long long, 3>{s.block[0], s.block[1], s.block[2]};
    if (!s.auto_grid) ov.grid = std::array<long long, 3>{s.grid[0], s.grid[1], s.grid[2]};
    ov.shared_bytes = s.shared_bytes;
    for (int i = 0; i < 3; ++i) {
        if (s.block[i] < 1 || (!s.auto_grid && s.grid[i] < 1)) {
            state.launch_refusal = render({{"refuse.sizes_min", {}}}, state.lang);
            return;
        }
    }
    if (s.shared_bytes < 0) {
        state.launch_refusal = render({{"refuse.shared_negative", {}}}, state.lang);
        return;
    }
    try {
        // The runtime's rule for a run: every launch, every pass (runtime/pipeline/run.hpp).
        std::vector<LaunchOverride> overrides(step->launches.size());
        overrides[step->tuned_launch()] = ov;
        const DeviceLimits& limits = state.device ? state.device->limits : state.compile_only_limits;
        const std::vector<LaunchReport> reports = check_step_launches(*step, s.params, overrides, limits);
        for (const LaunchReport& lr : reports)
            if (lr.tuned) state.launch_dims = lr.dims;
        if (!reports.empty() && reports.back().refusal) {
            const LaunchReport& refused = reports.back();
            state.launch_refusal = (step->launches.size() > 1 ? refused.entry + ": " : std::string()) +
                                   refused.refusal->message_in(state.lang);
        }
    } catch (const Error& e) {
        // In the student's language when the runtime made it from catalogue phrases.
        state.launch_refusal = render_checked(e.message(), e.said(), state.lang);
    }
}

RunRequest make_request(const AppState& state, bool compile_only) {
    RunRequest r;
    r.lesson = state.lesson;
    if (const Step* step = selected_step(state)) r.step = step->id;
    r.source = SourceChoice::Custom;
    r.custom_source = state.editor.text;
    r.custom_origin = state.editor.origin;
    r.compile_only = compile_only;
    r.executor = state.use_emulator ? Executor::Cpu : Executor::Gpu;
    // The front end's trust decision goes with the request; the worker
    // refuses an outside lesson without it (core/trust.hpp).
    r.trusted = state.trust.trusted;
    // Compile-as-you-type wants diagnostics quickly: the lesson's first case
    // and its own launch, and no CPU reference (built and run on Run only).
    // A run uses what the launch panel says and keeps buffers for the views.
    r.reference = !compile_only;
    r.keep_buffers = !compile_only;
    r.sample_over = kSampleOver;  // the views draw a sample of a larger buffer; the whole stays in the worker
    if (compile_only) return r;
    r.test_case = state.launch.test_case;
    r.params = state.launch.params;
    const LaunchSettings& s = state.launch;
    LaunchOverride ov;
    ov.block = std::array<long long, 3>{s.block[0], s.block[1], s.block[2]};
    if (!s.auto_grid) ov.grid = std::array<long long, 3>{s.grid[0], s.grid[1], s.grid[2]};
    ov.shared_bytes = s.shared_bytes;
    // The panel edits the tuned launch; the others run as the lesson says.
    if (const Step* step = selected_step(state); step && !step->launches.empty()) {
        r.launches.resize(step->tuned_launch() + 1);
        r.launches.back() = ov;
    }
    r.timeout_s = s.timeout_s;
    // The Memory access tab draws the emulator's record of what the threads
    // read and wrote (docs/memory-access.md: at most 1.3 times the emulated
    // run); a GPU run says where to get it (RunResult::access).
    r.access = true;
    return r;
}

}  // namespace wb::app
