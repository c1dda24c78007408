// app/app_run.cpp — start-up, the frame loop, the window layout, and turning
// the panels' requests into jobs, saves and file operations.
//
// Lessons are found and loaded before any window exists, so a usage mistake
// (a wrong --lesson) is reported without needing a display. Each frame:
// apply finished jobs (JobRunner::drain), run one script command, draw the
// panels, then act on what they asked for (AppState::requests). The layout is
// fixed and scales with the window (Debian's ImGui 1.86 has no docking):
// lessons and device on the left, editor over diagnostics in the middle,
// instructions, launch settings and results on the right. The window's size
// and place are remembered in <config dir>/state.json, ImGui's own settings in
// <config dir>/imgui.ini.
//
// Every orderly exit saves the unsaved edit first, not only the autosave a
// second after typing: the window closed, a script's quit or end, SIGTERM and
// SIGINT (quit_signals.hpp; exit status 128 + the signal's number). A job
// that ends in an error saves it at once too (jobs.hpp, ended_in_error).
#include "app_run.hpp"

#include "app_state.hpp"
#include "external_editor.hpp"
#include "fonts.hpp"
#include "gl_window.hpp"
#include "jobs.hpp"
#include "lesson_catalog.hpp"
#include "lesson_reload.hpp"
#include "panels/panels.hpp"
#include "quit_signals.hpp"
#include "screenshot.hpp"
#include "script.hpp"
#include "student_work.hpp"
#include "trust.hpp"
#include "ui_text.hpp"
#include "widgets/draw_text.hpp"
#include "widgets/keys.hpp"
#include "widgets/widget_text.hpp"

#include "compile/nvrtc.hpp"
#include "core/error.hpp"
#include "core/fs.hpp"
#include "core/sha256.hpp"
#include "pipeline/remote.hpp"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace wb::app {
namespace {

// Dear ImGui's context and its two backends, torn down in reverse order and
// before the window they draw into.
class ImGuiSession {
public:
    // ImGui keeps `ini_file` (collapsed panels, table columns) there rather
    // than in the current folder, which would litter wherever the app started.
    ImGuiSession(GLFWwindow* window, std::string ini_file) : ini_file_(std::move(ini_file)) {
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        // ImGui holds the pointer, not a copy: ini_file_ lives as long as the context.
        ImGui::GetIO().IniFilename = ini_file_.c_str();
        ImGui_ImplGlfw_InitForOpenGL(window, true);
        ImGui_ImplOpenGL3_Init("#version 330 core");
    }
    ~ImGuiSession() {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    ImGuiSession(const ImGuiSession&) = delete;
    ImGuiSession& operator=(const ImGuiSession&) = delete;

private:
    std::string ini_file_;
};

// The window's size, place and maximised state now. A minimised window has
// no useful size: the last known geometry is kept instead.
WindowGeometry window_geometry(GLFWwindow* window, const WindowGeometry& last) {
    if (glfwGetWindowAttrib(window, GLFW_ICONIFIED)) return last;
    WindowGeometry g;
    glfwGetWindowSize(window, &g.width, &g.height);
    if (g.width < 200 || g.height < 150) return last;
    glfwGetWindowPos(window, &g.x, &g.y);
    g.has_position = true;
    g.maximized = glfwGetWindowAttrib(window, GLFW_MAXIMIZED) != 0;
    return g;
}

// Puts the window back where it was, unless that place is on no monitor any
// more (a laptop undocked from its second screen must not open off-screen).
void restore_window_place(GLFWwindow* window, const WindowGeometry& saved) {
    if (saved.has_position) {
        int count = 0;
        GLFWmonitor** monitors = glfwGetMonitors(&count);
        for (int i = 0; i < count; ++i) {
            int mx = 0, my = 0, mw = 0, mh = 0;
            glfwGetMonitorWorkarea(monitors[i], &mx, &my, &mw, &mh);
            // Enough of the title bar visible to grab it.
            if (saved.x >= mx - saved.width + 100 && saved.x <= mx + mw - 100 && saved.y >= my && saved.y <= my + mh - 50) {
                glfwSetWindowPos(window, saved.x, saved.y);
                break;
            }
        }
    }
    if (saved.maximized) glfwMaximizeWindow(window);
}

void apply_style(float scale, bool dark) {
    ImGuiStyle& style = ImGui::GetStyle();
    style = ImGuiStyle();  // ScaleAllSizes multiplies: start from the unscaled defaults
    if (dark) ImGui::StyleColorsDark();
    else ImGui::StyleColorsLight();
    style.WindowRounding = 0.0f;
    style.ChildRounding = 4.0f;
    style.FrameRounding = 3.0f;
    style.TabRounding = 3.0f;
    style.WindowBorderSize = 0.0f;
    style.ScaleAllSizes(scale);
}

// Every lesson string a student may see, so its characters get into the font
// atlas even when they are outside the common Chinese set.
std::string lesson_text_for_glyphs(const std::vector<LessonEntry>& lessons) {
    std::string text;
    auto add = [&](const LocalizedText& t) {
        for (const auto& [lang, s] : t.by_lang) text += s;
        text += t.get("zh-Hant");  // the build's Traditional text (core/zh_hant.hpp)
    };
    for (const LessonEntry& entry : lessons) {
        if (!entry.ok()) continue;
        add(entry.lesson->title);
        add(entry.lesson->summary);
        for (const Step& step : entry.lesson->steps) {
            add(step.title);
            add(step.instructions);
            text += step.starter.text;
            for (const LocalizedText& hint : step.hints) add(hint);
        }
    }
    return text;
}

int find_lesson(const std::vector<LessonEntry>& lessons, const std::string& id) {
    for (int i = 0; i < static_cast<int>(lessons.size()); ++i) {
        const LessonEntry& entry = lessons[static_cast<std::size_t>(i)];
        if (entry.id() == id || entry.file.stem() == id) return i;
    }
    return -1;
}

// The boundaries between panels: each a thin invisible button over the seam
// that the student drags (the cursor shows which way). A drag moves the
// layout live; releasing it commits the layout for the session file.
void draw_splitters(AppState& state, const Layout& layout, ImVec2 body) {
    const ImGuiIO& io = ImGui::GetIO();
    constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                        ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBackground |
                                        ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                                        ImGuiWindowFlags_NoScrollbar;
    for (int i = 0; i < static_cast<int>(Splitter::Count_); ++i) {
        const PanelRect& r = layout.splitters[static_cast<std::size_t>(i)];
        if (r.size.x <= 0 || r.size.y <= 0) continue;
        const bool vertical = r.size.y > r.size.x;
        ImGui::SetNextWindowPos(r.pos);
        ImGui::SetNextWindowSize(r.size);
        ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
        ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1, 1));
        const std::string id = "##splitter" + std::to_string(i);
        if (ImGui::Begin(id.c_str(), nullptr, kFlags)) {
            ImGui::InvisibleButton("##drag", r.size);
            const bool hot = ImGui::IsItemHovered() || ImGui::IsItemActive();
            if (hot) ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
            if (ImGui::IsItemActive() && (io.MouseDelta.x != 0 || io.MouseDelta.y != 0))
                drag_splitter(state.layout, static_cast<Splitter>(i), io.MouseDelta, body, state.ui_scale);
            if (ImGui::IsItemDeactivated()) state.layout_committed = state.layout;
            if (hot) {
                const ImVec2 a = r.pos, b(r.pos.x + r.size.x, r.pos.y + r.size.y);
                ImGui::GetWindowDrawList()->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_SeparatorHovered));
            }
        }
        ImGui::End();
        ImGui::PopStyleVar(2);
    }
}

void draw_frame(AppState& state, const Fonts& fonts) {
    // A fresh record of what this frame draws; the panels fill it in.
    state.drawn = DrawnFrame{state.drawn.frame + 1};
    // Before any panel draws: the editor's Run button reads the verdict.
    check_launch_settings(state);
    set_widget_text(widget_text_in(state.lang));
    state.code_font = fonts.code;
    const float menu_height = draw_main_menu(state);
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const ImVec2 origin(viewport->WorkPos.x, viewport->Pos.y + menu_height);
    const ImVec2 size(viewport->Size.x, viewport->Size.y - menu_height);
    const float status_height = ImGui::GetFrameHeight();
    const ImVec2 body(size.x, size.y - status_height);
    // Ctrl+Shift+L shows or hides the lesson list.
    const ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl && io.KeyShift && key_pressed(Key::L, false))
        set_lessons_collapsed(state, !state.layout.lessons_collapsed);
    // Ctrl+= (or keypad +), Ctrl+- (or keypad -) and Ctrl+0: the text size.
    if (io.KeyCtrl && (key_pressed(Key::Equal) || key_pressed(Key::KeypadAdd))) change_text_zoom(state, +1);
    if (io.KeyCtrl && (key_pressed(Key::Minus) || key_pressed(Key::KeypadSubtract))) change_text_zoom(state, -1);
    if (io.KeyCtrl && (key_pressed(Key::Digit0, false) || key_pressed(Key::Keypad0, false))) change_text_zoom(state, 0);
    const Layout layout = compute_layout(origin, body, state.ui_scale, state.layout);
    state.drawn.layout = layout;

    draw_lesson_list(state, layout.lessons);
    if (!layout.lessons_collapsed) draw_device_panel(state, layout.device);

    // A lesson file that does not load pushes the editor down, never away.
    PanelRect editor = layout.editor;
    const float issues_h = std::min(lesson_issues_height(state), editor.size.y * 0.5f);
    if (issues_h > 0) draw_lesson_issues(state, {editor.pos, ImVec2(editor.size.x, issues_h)});
    editor.pos.y += issues_h;
    editor.size.y -= issues_h;
    draw_editor_panel(state, fonts, editor);
    draw_instructions(state, fonts, layout.instructions);
    draw_launch_panel(state, layout.launch);
    draw_results_panel(state, layout.results);
    draw_diagnostics_panel(state, layout.diagnostics);
    draw_splitters(state, layout, body);

    draw_status_bar(state, {ImVec2(origin.x, origin.y + body.y), ImVec2(size.x, status_height)});
    draw_monitor_window(state);
    draw_trust_prompt(state);
}

// When `outcome` is one of a batch's jobs (a sweep's points, Check all cases): its index, with the
// job marked back (0) and a worker failure made the run's verdict (Crashed, with its sentence).
std::optional<std::size_t> take_batch_job(std::vector<std::uint64_t>& jobs, const JobOutcome& outcome, RunResult& r) {
    const auto it = std::find(jobs.begin(), jobs.end(), outcome.id);
    if (it == jobs.end()) return std::nullopt;
    *it = 0;
    if (!outcome.failure.empty()) {
        r.status = RunStatus::Crashed;
        r.message = outcome.failure;
    }
    return static_cast<std::size_t>(it - jobs.begin());
}

// Counts a finished run in its step's tally (runtime/lesson/progress.hpp): a verdict on the
// kernel (passed, or failed a check) counts; a run that never judged it (compile-only, stopped,
// a compile error) does not. The step is done once every case has passed with one text.
void tally_run(AppState& state, const RunResult& r, const std::string& digest) {
    if (digest.empty() || !state.lesson || r.lesson_id != state.lesson->id) return;
    const Step* step = state.lesson->find_step(r.step_id);
    if (!step || step->id != r.step_id) return;
    const bool judged = r.status == RunStatus::Passed || r.status == RunStatus::Mismatch || r.status == RunStatus::AccessLimit ||
                        r.status == RunStatus::CudaError || r.status == RunStatus::TimedOut ||
                        r.status == RunStatus::Crashed || r.status == RunStatus::SanitizerErrors ||
                        r.status == RunStatus::HostError;
    if (!judged) return;
    const std::string key = r.lesson_id + "/" + r.step_id;
    CaseTally& tally = state.tallies[key];
    tally.add(digest, r.emulated, r.case_name, r.status == RunStatus::Passed);
    if (tally.done(*step) && state.done_steps.insert(key).second)
        log_line(state, "step " + r.step_id + " done: every case passed (" +
                            std::to_string(tally.passed_of(*step)) + " of " +
                            std::to_string(cases_to_pass(*step, tally.emulated).size()) + ")");
}

// The last "Check all cases" run is back: each case's verdict goes to the log, and the results
// panel shows the first case that failed (or the last, when all passed).
void finish_check_all(AppState& state) {
    CheckAllState& ca = state.check_all;
    int passed = 0;
    std::size_t shown = ca.results.size();
    for (std::size_t i = 0; i < ca.results.size(); ++i) {
        const std::optional<RunResult>& r = ca.results[i];
        const bool ok = r && r->status == RunStatus::Passed;
        passed += ok;
        if (!ok && shown == ca.results.size()) shown = i;
        log_line(state, "case " + ca.cases[i] + ": " + (r ? run_status_name(r->status) : std::string("not run")) +
                            (r && !ok ? " (" + r->message + ")" : std::string()),
                 !ok);
    }
    log_line(state, "check all cases: " + std::to_string(passed) + " of " + std::to_string(ca.results.size()) + " passed");
    if (shown == ca.results.size() && !ca.results.empty()) shown = ca.results.size() - 1;
    const Step* step = selected_step(state);
    if (shown < ca.results.size() && ca.results[shown] && step && step_key(state) == ca.key)
        record_run(state, *ca.results[shown]);
}

// "Check all cases": one run of the editor's text per case the step must pass, with the
// lesson's own launch and params for each (no launch-panel overrides), as `check` runs it.
void submit_check_all(AppState& state, JobRunner& jobs) {
    const Step* step = selected_step(state);
    if (!state.lesson || !step) return;
    if (state.check_all.running()) {
        log_line(state, "check all cases is already running: Stop ends it", true);
        return;
    }
    CheckAllState ca;
    ca.key = step_key(state);
    ca.cases = cases_to_pass(*step, state.use_emulator);
    if (ca.cases.empty()) {
        log_line(state, "check all cases: this step has no case that runs here", true);
        return;
    }
    const std::string digest = sha256_hex(state.editor.text);
    for (const std::string& name : ca.cases) {
        RunRequest req = make_request(state, false);
        req.test_case = name;
        req.params.clear();
        req.launches.clear();
        req.timeout_s = 0;  // the lesson's own deadline for the case
        const std::uint64_t id = jobs.submit(JobKind::Run, std::move(req), state.editor.revision);
        state.run_digests[id] = digest;
        ca.jobs.push_back(id);
    }
    ca.results.assign(ca.jobs.size(), std::nullopt);
    state.last_submitted_job = ca.jobs.back();
    state.editor.compile_submitted_revision = state.editor.revision;
    log_line(state, "check all cases submitted: " + std::to_string(ca.jobs.size()) + " cases");
    state.check_all = std::move(ca);
}

// Applies one finished job (or, with id 0, the backend's device report) to the state.
void apply_result(AppState& state, JobOutcome& outcome) {
    if (outcome.id > state.last_finished_job) state.last_finished_job = outcome.id;
    RunResult& r = outcome.result;
    if (outcome.id == 0) {
        state.backend_known = true;
        state.worker_where = outcome.where;
        state.not_contained.clear();  // a new backend says it again when it applies
        state.device = r.device;
        state.no_gpu_reason = r.device_note;
        state.no_gpu_said = r.device_note_said;
        if (!state.worker_where.empty()) log_line(state, "runs go through the worker command, on " + state.worker_where);
        if (state.device) log_line(state, "device: " + state.device->name + " (" + state.device->arch() + ")");
        else log_line(state, "no GPU: " + state.no_gpu_reason);
        if (!state.device && !state.emulator_chosen) {
            state.use_emulator = true;
            log_line(state, "runs go to the CPU emulator (the device panel's switch)");
        }
        return;
    }
    if (!r.notice_said.empty()) {  // the worker backend says it once; the device panel keeps it
        state.not_contained = r.notice_said;
        log_line(state, render(r.notice_said, "en"));
    }
    const char* what = outcome.kind == JobKind::Run ? "run" : "compile";
    std::string digest;  // the text a run ran, for the step's tally of passed cases
    if (const auto d = state.run_digests.find(outcome.id); d != state.run_digests.end()) {
        digest = d->second;
        state.run_digests.erase(d);
    }
    // A "Check all cases" run: counted, and listed when the last is back.
    CheckAllState& ca = state.check_all;
    if (const auto i = take_batch_job(ca.jobs, outcome, r)) {
        if (!outcome.discarded) tally_run(state, r, digest);
        ca.results[*i] = std::move(r);
        if (++ca.finished == static_cast<int>(ca.jobs.size())) finish_check_all(state);
        return;
    }
    // A sweep's point: it fills its row of the Sweep tab, and nothing else.
    SweepState& sw = state.sweep;
    if (const auto i = take_batch_job(sw.jobs, outcome, r)) {
        sw.results[*i] = std::move(r);
        ++sw.finished;
        if (!sw.running() && sw.plan && sw.error.empty()) {
            log_line(state, "sweep: " + sw.summary().text);
        }
        return;
    }
    if (outcome.discarded) {
        log_line(state, std::string("discarded the result of the stopped ") + what);
        if (outcome.kind == JobKind::Run) state.run_stopped = true;
        return;
    }
    if (!outcome.failure.empty()) {
        log_line(state, std::string(what) + " failed: " + outcome.failure, true);
        return;
    }
    // A late result for a step the student has left belongs to nobody on screen.
    const Step* step = selected_step(state);
    if (!state.lesson || !step || r.lesson_id != state.lesson->id || r.step_id != step->id) {
        log_line(state, std::string("ignored a ") + what + " result for " + r.lesson_id + "/" + r.step_id +
                            " (another step is open)");
        return;
    }
    if (!r.compile.arch.empty() || !r.compile.diagnostics.empty()) {
        state.compile = r.compile;
        state.compile_revision = outcome.revision;
    }
    if (r.inspection) {
        state.inspection = std::move(r.inspection);
        state.inspection_revision = outcome.revision;
    }
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.2f s", outcome.seconds);
    if (outcome.kind == JobKind::Compile) {
        if (r.reference.ok) state.reference_built = r.lesson_id + "/" + r.step_id;
        const bool compiled = r.status != RunStatus::CompileError;
        const int warnings = r.compile.warning_count();
        log_line(state,
                 std::string(compiled ? "compiled" : "compile failed: " + r.message) +
                     (warnings ? ", " + std::to_string(warnings) + " warnings" : std::string()) +
                     (r.compile.from_cache ? " (cached, " : " (") + seconds + ")",
                 !compiled);
        return;
    }
    log_line(state, std::string("run ") + run_status_name(r.status) + ": " + r.message + " (" + seconds + ")",
             r.status != RunStatus::Passed && r.status != RunStatus::CompileOnly);
    tally_run(state, r, digest);
    record_run(state, std::move(r));  // last_run + this step's history (app_state.cpp)
}

// Applies one finished job on the UI thread (JobRunner's on_done).
void apply_outcome(AppState& state, JobOutcome& outcome) {
    // Whatever went wrong may take more down with it: the unsaved edit goes to
    // disk now, not a second from now.
    if (ended_in_error(outcome) && state.editor.saved_revision != state.editor.revision && save_open_work(state))
        log_line(state, "saved the unsaved edit after the job that went wrong");
    apply_result(state, outcome);
}

SessionState session_of(const AppState& state) {
    SessionState s;
    if (const LessonEntry* entry = selected_entry(state)) s.lesson = entry->id();
    if (const Step* step = selected_step(state)) s.step = step->id;
    s.dark_theme = state.dark_theme;
    s.done = state.done_steps;
    s.cases = state.tallies;
    s.layout = state.layout_committed;
    s.text_zoom = state.text_zoom;
    s.worker_command = state.worker_command;
    return s;
}

// The Sweep tab's Run sweep: the runtime plans the points (the block sizes
// that fit this GPU, or the param's values within its bounds); each is a Run
// job of the editor's text with the launch panel's settings, that point applied.
void submit_sweep(AppState& state, JobRunner& jobs, const std::string& off_reason) {
    SweepState& sw = state.sweep;
    const Step* step = selected_step(state);
    if (!state.lesson || !step) return;
    if (sw.running()) {
        log_line(state, "a sweep is already running: Stop ends it", true);
        return;
    }
    const std::string blocked = run_blocked_reason(state);
    if (!off_reason.empty() || (!blocked.empty() && !state.requests.run_even_without_gpu)) {
        log_line(state, "Sweep is unavailable: " + (off_reason.empty() ? blocked : off_reason), true);
        return;
    }
    sw.plan.reset();
    sw.jobs.clear();
    sw.results.clear();
    sw.error.clear();
    sw.finished = 0;
    sw.key = step_key(state);
    SweepAxis axis;
    try {
        if (sw.axis > 0 && std::size_t(sw.axis) <= step->params.size())
            axis = parse_param_sweep(step->params[std::size_t(sw.axis - 1)].name + "=" + sw.range);
        const DeviceLimits& limits = state.device ? state.device->limits : state.compile_only_limits;
        sw.plan = plan_sweep(*step, axis, limits.max_threads_per_block);
    } catch (const Error& e) {
        sw.error = e.message();
        log_line(state, "sweep: " + sw.error, true);
        return;
    }
    RunRequest base = make_request(state, false);
    base.keep_buffers = false;
    base.access = false;  // the Sweep tab draws times; the access tab shows the student's own run
    for (const SweepPoint& p : sw.plan->points)
        sw.jobs.push_back(jobs.submit(JobKind::Run, sweep_request(base, *step, p), state.editor.revision));
    sw.results.assign(sw.plan->points.size(), std::nullopt);
    if (!sw.jobs.empty()) state.last_submitted_job = sw.jobs.back();
    log_line(state, "sweep submitted: " + std::to_string(sw.jobs.size()) + " points");
}

// Everything the panels asked for this frame, plus the timers: compile-as-
// you-type (debounced), autosave, and the external editor's file.
void act_on_requests(AppState& state, JobRunner& jobs) {
    constexpr double kCompileDebounce = 0.4;  // seconds after the last edit
    constexpr double kSaveDelay = 1.0;
    EditorState& ed = state.editor;
    Requests& rq = state.requests;

    if (rq.apply_worker_command) {
        rq.apply_worker_command = false;
        const std::string& text = state.worker_command_edit;
        try {
            std::vector<std::string> command;
            if (text.find_first_not_of(" \t\n") != std::string::npos) command = split_worker_command(text);
            state.worker_command_error.clear();
            state.worker_command = text;
            state.backend_known = false;  // until the new backend reports
            state.device.reset();
            jobs.set_worker_command(std::move(command));
            log_line(state, text.empty() ? "runs go to a worker on this computer" : "runs go through the worker command: " + text);
        } catch (const Error& e) {
            state.worker_command_error = e.said();
            log_line(state, "worker command not applied: " + e.message(), true);  // the panel may be scrolled
        }
    }
    if (rq.stop) {
        if (state.sweep.running()) {
            state.sweep.error = "stopped after " + std::to_string(state.sweep.finished) + " of " +
                                std::to_string(state.sweep.plan->points.size()) + " points";
            state.sweep.jobs.clear();
        }
        if (state.check_all.running()) {
            log_line(state, "check all cases stopped after " + std::to_string(state.check_all.finished) + " of " +
                                std::to_string(state.check_all.jobs.size()) + " cases");
            state.check_all = CheckAllState{};
        }
        if (jobs.stop())
            log_line(state, "Stop: the running job's worker process was stopped; a fresh one serves the next job");
        else
            log_line(state, "Stop: nothing is running");
    }
    // An untrusted lesson is neither compiled nor run, whoever asks (a
    // script's run too): its CPU reference would run natively (trust.hpp).
    // A lesson whose file on disk is broken still runs: the request carries
    // the last version that loaded, which is the one on screen.
    const std::string off_reason = untrusted_reason(state);
    // Check memory / Check races (a full run under compute-sanitizer) and Profile
    // this run (the run again on the GPU under Nsight Compute, profile/ncu.hpp):
    // one run each, in a worker of its own, when Run itself would be allowed.
    const auto submit_tool_run = [&](const char* what, const std::string& tool, const std::function<void(RunRequest&)>& set) {
        const std::string blocked = run_blocked_reason(state);
        if (!off_reason.empty()) {
            log_line(state, std::string(what) + " is unavailable: " + off_reason, true);
        } else if (!blocked.empty() && !rq.run_even_without_gpu) {
            log_line(state, std::string(what) + " is unavailable: " + blocked, true);
        } else if (state.lesson && selected_step(state)) {
            RunRequest req = make_request(state, false);
            set(req);
            state.last_submitted_job = jobs.submit(JobKind::Run, std::move(req), ed.revision);
            ed.compile_submitted_revision = ed.revision;
            log_line(state, tool + " submitted (case " + state.launch.test_case + "); this takes a few seconds");
        }
    };
    if (rq.sanitize != SanitizerTool::None && !rq.run)
        submit_tool_run("Check",
                        std::string("compute-sanitizer ") + (rq.sanitize == SanitizerTool::Memcheck ? "memcheck" : "racecheck"),
                        [&](RunRequest& req) { req.sanitizer = rq.sanitize; });
    if (rq.profile && !rq.run)
        submit_tool_run("Profile", "Nsight Compute profile", [](RunRequest& req) {
            req.profile = true;
            req.executor = Executor::Gpu;
        });
    if (rq.run && !off_reason.empty()) {
        log_line(state, "Run is unavailable: " + off_reason, true);
    } else if (rq.run) {
        const std::string blocked = run_blocked_reason(state);
        // Scripts may run without a GPU so tests exercise the pipeline (status compile-only).
        const bool allowed = blocked.empty() || (rq.run_even_without_gpu && state.lesson && selected_step(state));
        if (allowed) {
            state.last_submitted_job = jobs.submit(JobKind::Run, make_request(state, false), ed.revision);
            state.run_digests[state.last_submitted_job] = sha256_hex(ed.text);
            ed.compile_submitted_revision = ed.revision;
            log_line(state, "run submitted (case " + state.launch.test_case + ")");
        } else {
            log_line(state, "Run is unavailable: " + blocked, true);
        }
    }
    if (rq.sweep) submit_sweep(state, jobs, off_reason);
    if (rq.check_all) {
        const std::string blocked = run_blocked_reason(state);
        if (!off_reason.empty()) log_line(state, "Check all cases is unavailable: " + off_reason, true);
        else if (!blocked.empty()) log_line(state, "Check all cases is unavailable: " + blocked, true);
        else submit_check_all(state, jobs);
    }
    const bool due = ed.revision != ed.compile_submitted_revision && state.now - ed.last_edit_time >= kCompileDebounce;
    if (!off_reason.empty() && (rq.compile || due)) {
        // Nothing to wait for: this text is not compiled until the folder is
        // trusted, or the lesson file fixed (a good reload compiles it then).
        ed.compile_submitted_revision = ed.revision;
        if (rq.compile) log_line(state, "Compile is unavailable: " + off_reason, true);
    } else if (state.lesson && selected_step(state) && (rq.compile || due)) {
        RunRequest req = make_request(state, true);
        // Until the step's CPU reference has been built once, compiles build it
        // too (build only: nothing of it runs before Run), in the background:
        // the first Run then finds it in the cache rather than waiting for g++.
        req.reference = req.reference_build_only = state.reference_built != step_key(state);
        state.last_submitted_job = jobs.submit(JobKind::Compile, std::move(req), ed.revision);
        ed.compile_submitted_revision = ed.revision;
    }
    // The Resources, PTX and SASS tabs: an inspection of the text as it is,
    // asked for while one of them is open and the text has held still.
    const bool inspect_due = state.inspect_wanted && ed.revision != state.inspect_submitted_revision &&
                             state.now - ed.last_edit_time >= kCompileDebounce;
    if (inspect_due && off_reason.empty() && state.lesson && selected_step(state)) {
        RunRequest req = make_request(state, true);
        req.inspect = true;
        if (state.device) req.arch = state.device->arch();
        state.last_submitted_job = jobs.submit(JobKind::Compile, std::move(req), ed.revision);
        state.inspect_submitted_revision = ed.revision;
    }
    state.inspect_wanted = false;  // the panel says so again next frame
    // Autosave a second after the last edit; after a failed save, again every kSaveRetrySeconds
    // (state.save_error, shown in the status bar, says why until a save succeeds).
    const bool retry_due = !state.save_error.empty() && state.now >= state.save_retry_at;
    if (ed.saved_revision != ed.revision &&
        (rq.save || retry_due || (state.save_error.empty() && state.now - ed.last_edit_time >= kSaveDelay)))
        save_open_work(state, rq.save);
    else if (rq.save)
        log_line(state, "nothing to save: the text is saved");

    if (rq.open_external) {
        const LessonEntry* entry = selected_entry(state);
        const Step* step = selected_step(state);
        // The external editor opens the work file, so it must exist and hold the text first.
        const bool saved = entry && step &&
                           save_open_work(state, !std::filesystem::exists(work_file(entry->id(), step->id)));
        if (saved) {
            const auto file = work_file(entry->id(), step->id);
            std::string error;
            const int pid = spawn_external_editor(file, error);
            if (pid == 0) {
                log_line(state, error, true);
            } else {
                std::error_code ec;
                state.external = {pid, file, std::filesystem::last_write_time(file, ec), state.now + 1.0};
                log_line(state, "opened " + file.string() + " in the external editor; changes saved there reload here");
            }
        }
    }
    ExternalEdit& ext = state.external;
    if (!ext.file.empty() && state.now >= ext.next_poll) {
        ext.next_poll = state.now + 1.0;
        std::error_code ec;
        const auto mtime = std::filesystem::last_write_time(ext.file, ec);
        const LessonEntry* entry = selected_entry(state);
        const Step* step = selected_step(state);
        const bool same_step = entry && step && work_file(entry->id(), step->id) == ext.file;
        if (!ec && mtime != ext.mtime && same_step) {
            ext.mtime = mtime;
            try {
                std::string text = read_file(ext.file);
                if (text != ed.text) {
                    set_editor_text(state, std::move(text));
                    ed.saved_revision = ed.revision;  // it came from the file
                    log_line(state, "reloaded the text changed in the external editor");
                }
            } catch (const Error& e) {
                log_line(state, e.describe(), true);
            }
        }
        if (ext.pid && reap_external_editor(ext.pid)) ext.pid = 0;
    }
    rq = Requests{};
}

}  // namespace

int run_app(const AppOptions& options) {
    AppState state;
    state.lang = options.lang;

    FolderSearch search = find_lessons_folder(options.lessons_dir);
    if (!search.folder && !options.lessons_dir.empty()) {
        std::fprintf(stderr, "cuda-workbook: %s\n", search.error.c_str());
        return 2;
    }
    if (search.folder) {
        state.folder = *search.folder;
        state.lessons = load_catalog(state.folder.dir);
    } else {
        // Still open the window: it says there are no lessons, which is
        // friendlier to someone who double-clicked the app than a silent exit.
        std::fprintf(stderr, "cuda-workbook: %s\n", search.error.c_str());
        state.folder.found_by = "not found";
    }
    for (const LessonEntry& entry : state.lessons)
        for (const LessonIssue& issue : entry.issues)
            std::fprintf(stderr, "cuda-workbook: %s\n", issue.to_string().c_str());

    std::unique_ptr<Script> script;
    if (!options.script_path.empty()) {
        std::string error;
        script = Script::load(options.script_path, error);
        if (!script) {
            std::fprintf(stderr, "cuda-workbook: --script: %s\n", error.c_str());
            return 2;
        }
    }
    state.record_all_text = script != nullptr;

    // The last session's lesson and step, unless --lesson says otherwise.
    const SessionState session = load_session();
    state.dark_theme = session.dark_theme;
    state.text_zoom = session.text_zoom;
    state.done_steps = session.done;
    state.tallies = session.cases;
    state.layout = state.layout_committed = session.layout;
    state.default_arch = default_arch();
    state.compile_only_limits = limits_for_arch(arch_number(state.default_arch));
    int first = state.lessons.empty() ? -1 : 0;
    if (options.lesson_id.empty() && !session.lesson.empty()) {
        const int last = find_lesson(state.lessons, session.lesson);
        if (last >= 0) first = last;
    }
    if (!options.lesson_id.empty()) {
        first = find_lesson(state.lessons, options.lesson_id);
        if (first < 0) {
            std::string known;
            for (const LessonEntry& entry : state.lessons) known += (known.empty() ? "" : ", ") + entry.id();
            std::fprintf(stderr, "cuda-workbook: no lesson '%s' in %s (lessons: %s)\n",
                         options.lesson_id.c_str(), state.folder.dir.string().c_str(),
                         known.empty() ? "none" : known.c_str());
            return 2;
        }
    }
    if (first >= 0) {
        select_lesson(state, first);
        const LessonEntry& entry = state.lessons[static_cast<std::size_t>(first)];
        if (options.lesson_id.empty() && entry.ok() && entry.id() == session.lesson && !session.step.empty())
            if (const Step* step = entry.lesson->find_step(session.step))
                select_step(state, static_cast<int>(step - entry.lesson->steps.data()));
    }

    // Before the slow start-up (window, fonts, the worker): a SIGTERM that comes
    // meanwhile is noticed at the first frame, and nothing is lost.
    install_quit_signals();

    WindowSpec spec;
    spec.width = options.width;
    spec.height = options.height;
    // The size it had last time, unless --size asks for another.
    const bool restore_window = !options.size_given && session.window.width > 0;
    if (restore_window) {
        spec.width = session.window.width;
        spec.height = session.window.height;
    }
    // A test run wants its frames now, not paced to the display's refresh.
    spec.vsync = options.frames == 0 && !script;
    std::string error;
    std::unique_ptr<GlWindow> window = GlWindow::create(spec, error);
    if (!window) {
        std::fprintf(stderr, "cuda-workbook: %s\n", error.c_str());
        return 1;
    }
    if (restore_window) restore_window_place(window->handle(), session.window);
    state.content_scale = window->content_scale();
    state.ui_scale = state.content_scale * state.text_zoom;
    {
        int ww = 0, wh = 0, fw = 0, fh = 0;
        window->window_size(ww, wh);
        window->framebuffer_size(fw, fh);
        std::printf("window %dx%d, framebuffer %dx%d, scale %.2f, OpenGL %s on %s\n", ww, wh, fw, fh,
                    state.ui_scale, window->gl_version().c_str(), window->gl_renderer().c_str());
    }
    if (const LessonEntry* entry = selected_entry(state)) {
        if (const Step* step = selected_step(state))
            std::printf("opened lesson %s step %s\n", entry->id().c_str(), step->id.c_str());
        else
            std::printf("opened lesson %s (not loaded: %zu issues)\n", entry->id().c_str(), entry->issues.size());
    } else {
        std::printf("opened no lesson: none found in %s\n", state.folder.dir.string().c_str());
    }
    std::printf("lessons folder: %s (%s)\n", state.folder.dir.string().c_str(), state.folder.found_by.c_str());
    if (const FolderSearch& shaders = shaders_folder(); shaders.folder)
        std::printf("shaders folder: %s (%s)\n", shaders.folder->dir.string().c_str(), shaders.folder->found_by.c_str());
    else
        std::printf("shaders folder: not found: %s\n", shaders.error.c_str());
    std::fflush(stdout);

    ImGuiSession imgui(window->handle(), (config_dir() / "imgui.ini").string());
    bool dark_applied = state.dark_theme;
    apply_style(state.ui_scale, dark_applied);
    const std::string glyph_text = lesson_text_for_glyphs(state.lessons);
    Fonts fonts = load_fonts(state.ui_scale, glyph_text);
    SessionState saved_session = session;

    // Where runs go: the worker command the student applied last time, else
    // $WB_WORKER_COMMAND (used, never saved), else a local worker
    // (runtime/pipeline/remote.hpp).
    std::vector<std::string> worker_command;
    state.worker_command = session.worker_command;
    state.worker_command_edit = state.worker_command;
    if (state.worker_command_edit.empty())
        if (const char* e = std::getenv("WB_WORKER_COMMAND")) state.worker_command_edit = e;
    try {
        if (state.worker_command_edit.find_first_not_of(" \t\n") != std::string::npos)
            worker_command = split_worker_command(state.worker_command_edit);
    } catch (const Error& e) {
        state.worker_command_error = e.said();
        log_line(state, "worker command not used: " + e.message(), true);
    }
    // Declared after the window, so it is destroyed (its thread joined) first.
    JobRunner jobs(apply_outcome, [] { glfwPostEmptyEvent(); }, std::move(worker_command));
    int status = 0;

    int frame = 0;
    // Drawing only when something happened keeps an idle window from costing a
    // CPU core on software GL (students without a GPU run exactly that). After
    // an event a few more frames are drawn, because ImGui settles hover and
    // layout changes over the next frames; the timeout keeps the cursor blinking.
    constexpr double kIdleTimeout = 0.5;
    constexpr int kFramesAfterEvent = 3;
    int busy_frames = kFramesAfterEvent;
    // While work is pending (a job, a debounce, an unsaved edit, an external
    // editor) the loop wakes often enough for the spinner and the timers.
    constexpr double kActiveTimeout = 0.1;
    while (!window->should_close()) {
        const EditorState& ed = state.editor;
        const bool active = !jobs.idle() || ed.revision != ed.compile_submitted_revision ||
                            ed.saved_revision != ed.revision || state.external.pid != 0 ||
                            !state.lesson_watch.pending.empty();
        if (options.frames > 0 || script || busy_frames > 0) {
            glfwPollEvents();
            --busy_frames;
        } else {
            const double timeout = active ? kActiveTimeout : kIdleTimeout;
            const double start = glfwGetTime();
            glfwWaitEventsTimeout(timeout);
            if (glfwGetTime() - start < timeout) busy_frames = kFramesAfterEvent;
        }
        if (quit_signal()) break;  // SIGTERM or SIGINT: leave as if the window closed
        state.now = glfwGetTime();
        update_trust(state);  // before the script and the panels look at it
        jobs.drain(state);
        state.job_text = jobs.running_text();
        if (const auto progress = jobs.progress()) {
            state.job_phase = progress->phase;
            state.job_sanitizer = progress->sanitizer;
            state.job_seconds = progress->seconds;
        } else {
            state.job_phase.clear();
            state.job_sanitizer = SanitizerTool::None;
            state.job_seconds = 0;
        }
        state.worker_pid = jobs.worker_pid();
        // The instructor's loop: the open lesson's files changed on disk (lesson_reload.hpp).
        poll_lesson_files(state);
        if (script) {
            const Script::Tick tick = script->tick(state, jobs.idle());
            if (tick == Script::Tick::Failed) {
                status = Script::kFailedExitStatus;
                break;
            }
            if (tick == Script::Tick::Quit) break;
        }
        // The window moved to a monitor of another scale, or the student
        // changed the text size: fonts rasterised anew at the new size (crisp,
        // unlike FontGlobalScale) and the style's sizes scaled to match.
        state.content_scale = state.content_scale_override > 0 ? state.content_scale_override : window->content_scale();
        if (const float want = state.content_scale * state.text_zoom; std::abs(want - state.ui_scale) > 0.01f) {
            state.ui_scale = want;
            ImGui::GetIO().Fonts->Clear();
            fonts = load_fonts(state.ui_scale, glyph_text);
            ImGui_ImplOpenGL3_DestroyFontsTexture();
            ImGui_ImplOpenGL3_CreateFontsTexture();
            apply_style(state.ui_scale, dark_applied);
            char line[128];
            std::snprintf(line, sizeof line, "interface scale %.2f (monitor %.2f, text %d%%)", state.ui_scale,
                          state.content_scale, static_cast<int>(std::lround(state.text_zoom * 100)));
            log_line(state, line);
            std::printf("%s\n", line);
            std::fflush(stdout);
        }
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        if (state.record_all_text) text_record_begin();
        draw_frame(state, fonts);
        if (state.record_all_text) state.drawn.all_text = text_record_finish();
        ImGui::Render();
        act_on_requests(state, jobs);
        if (state.dark_theme != dark_applied) {
            dark_applied = state.dark_theme;
            apply_style(state.ui_scale, dark_applied);
        }
        SessionState now_session = session_of(state);
        // The geometry rides along with the next save and the one at exit;
        // saving on every frame of a drag-resize would rewrite the file each frame.
        now_session.window = saved_session.window;
        if (!(now_session == saved_session)) {
            now_session.window = window_geometry(window->handle(), saved_session.window);
            try {
                save_session(now_session);
            } catch (const Error& e) {
                log_line(state, "could not remember the session: " + e.describe(), true);
            }
            saved_session = std::move(now_session);
        }

        int width = 0, height = 0;
        window->framebuffer_size(width, height);
        glViewport(0, 0, width, height);
        const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
        glClearColor(bg.x, bg.y, bg.z, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

        ++frame;
        if (script && !script->pending_screenshot().empty()) {
            const std::string path = script->pending_screenshot();
            script->screenshot_done();
            if (!save_back_buffer_png(width, height, path, error)) {
                std::fprintf(stderr, "script: screenshot: %s\n", error.c_str());
                status = Script::kFailedExitStatus;
                break;
            }
            std::printf("saved screenshot %s (%dx%d)\n", path.c_str(), width, height);
            std::fflush(stdout);
        }
        if (options.frames > 0 && frame >= options.frames) {
            // Read before the swap: afterwards the back buffer's contents are undefined.
            if (!options.screenshot_path.empty()) {
                if (!save_back_buffer_png(width, height, options.screenshot_path, error)) {
                    std::fprintf(stderr, "cuda-workbook: screenshot: %s\n", error.c_str());
                    status = 1;
                    break;
                }
                std::printf("saved screenshot %s (%dx%d)\n", options.screenshot_path.c_str(), width, height);
            }
            break;
        }
        window->swap_buffers();
    }
    // No exit may lose the last second of typing: said on stdout, since the
    // log goes with the window.
    const int quit_by = quit_signal();
    const char* why = quit_by == SIGTERM ? "SIGTERM" : quit_by == SIGINT ? "SIGINT" : "exit";
    if (state.editor.saved_revision != state.editor.revision) {
        const LessonEntry* entry = selected_entry(state);
        const Step* step = selected_step(state);
        if (save_open_work(state) && entry && step)
            std::printf("saved the unsaved edit to %s on %s\n", work_file(entry->id(), step->id).string().c_str(), why);
        else if (!state.save_error.empty())
            std::fprintf(stderr, "cuda-workbook: could not save: %s\n", state.save_error.c_str());
        std::fflush(stdout);
    }
    if (quit_by != 0 && status == 0) status = quit_signal_status(quit_by);
    // ...nor the window's size and place.
    SessionState last = session_of(state);
    last.window = window_geometry(window->handle(), saved_session.window);
    if (!(last == saved_session)) {
        try {
            save_session(last);
        } catch (const Error& e) {
            std::fprintf(stderr, "cuda-workbook: could not remember the window: %s\n", e.describe().c_str());
        }
    }
    return status;
}

}  // namespace wb::app
