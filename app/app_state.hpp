// app/app_state.hpp — everything the window shows, in a few plain structs.
//
// Panels read and change this; nothing else holds UI state. Panels never start
// work themselves: they set a flag in `requests`, and the frame loop
// (app_run.cpp) turns it into a job, a save or a file operation after the
// frame is drawn. That keeps every panel a pure function of this struct.
#pragma once

#include "layout.hpp"
#include "lesson_catalog.hpp"
#include "widgets/timeline_view.hpp"  // TimelineViewState: the Timeline tab's visible range

#include "compile/nvrtc.hpp"
#include "driver/device.hpp"
#include "driver/monitor.hpp"
#include "export/python_export.hpp"
#include "pipeline/run.hpp"
#include "lesson/progress.hpp"
#include "measure/sweep.hpp"

#include <array>
#include <cstdint>
#include <ctime>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

struct ImFont;

namespace wb::app {

// The launch panel's settings for the first launch of the current step.
struct LaunchSettings {
    std::array<int, 3> block{1, 1, 1};
    std::array<int, 3> grid{1, 1, 1};
    int shared_bytes = 0;
    float timeout_s = 30;   // the run's deadline: the case's or lesson's, editable
    bool auto_grid = true;  // grid from the lesson's expression with this block
    std::string test_case;  // name; "" = the first case
    std::map<std::string, double> params;
};

// The student's text of the current step, as the editor shows it.
struct EditorState {
    std::string text;
    std::string origin;             // "01_vector_add/starter_step1.cu": what diagnostics name
    std::uint64_t revision = 1;     // +1 on every change
    double last_edit_time = 0.0;    // glfwGetTime() of the last change
    std::uint64_t saved_revision = 1;
    std::uint64_t compile_submitted_revision = 0;
    int goto_line = 0;              // > 0: the editor moves its cursor there, then clears it
    int last_diagnostic_line = 0;   // where F8 went last; the next F8 goes to the next line with a diagnostic
    bool replace_undoably = false;  // the next text change is one undo step in the widget, not a new history
};

// After a failed save, autosave tries again this often (seconds).
inline constexpr double kSaveRetrySeconds = 2.0;

// What may replace the student's text, after the student says yes.
enum class ReplaceWith { Nothing, Starter, Solution };

// What panels ask for; the frame loop acts on it after drawing.
struct Requests {
    bool compile = false;        // now, not debounced
    bool run = false;            // full run (the Run button, Ctrl+Enter)
    bool run_even_without_gpu = false;  // scripts: exercise the pipeline in compile-only mode
    SanitizerTool sanitize = SanitizerTool::None;  // a full run under compute-sanitizer (Check memory / races)
    bool profile = false;        // "Profile this run": the run again under Nsight Compute (Memory access tab)
    bool stop = false;
    bool sweep = false;          // the Sweep tab's Run sweep: one run per point of sweep.axis
    bool save = false;           // Ctrl+S
    bool open_external = false;
    bool undo = false;           // scripts: as Ctrl+Z in the editor
    bool check_all = false;      // "Check all cases" (Ctrl+Shift+Enter)
    bool apply_worker_command = false;  // the device panel's Apply: runs go through worker_command_edit
    int answer_replace = -1;     // scripts: 1 presses Yes, 0 Cancel in the replace popup
};

struct LogLine {
    std::string text;
    bool error = false;
};

// The external editor session for the current step's work file.
struct ExternalEdit {
    int pid = 0;                       // the spawned editor, reaped when it exits
    std::filesystem::path file;
    std::filesystem::file_time_type mtime{};
    double next_poll = 0.0;
};

// One finished run of a step, for the results panel's history plot: enough
// to see what each change did, nothing that holds buffers.
struct RunRecord {
    std::string case_name;
    RunStatus status = RunStatus::InputError;
    double gpu_ms = -1;  // median kernel time; -1 when the kernel was not timed
    double wall_ms = -1; // a host step's median run() time; -1 when it was not timed
    double cpu_ms = -1;  // the reference's time; -1 when it did not run
    double bytes = 0, flops = 0;  // the lesson's metrics for its params (the roofline's points)
    bool passed() const { return status == RunStatus::Passed || status == RunStatus::CompileOnly; }
};

// Trust in the open lesson's folder (app/trust.hpp). A lesson from outside
// the shipped lessons folder is neither compiled nor run until its folder is
// trusted: its CPU reference is C++ that would run natively here.
struct TrustState {
    std::filesystem::path lesson_file;      // the lesson `trusted` was worked out for
    std::filesystem::path folder;           // its resolved folder; empty for a shipped lesson
    bool trusted = true;
    bool prompt_open = false;               // the "Trust lessons in ...?" modal is showing
    std::set<std::filesystem::path> asked;  // folders asked about this session (asked once each)
};

// Watching the open lesson's files (lesson_reload.hpp): a change is reloaded
// once the files have held still for one poll, so a half-saved file is not
// taken for the instructor's mistake.
struct LessonWatch {
    double next_poll = 0.0;
    std::filesystem::path file;             // the lesson `pending` was seen for
    std::vector<FileStamp> pending;         // a change seen at the last poll, not yet reloaded
    std::uint64_t reloads = 0;              // reloads applied, good or failed (scripts wait on it)
};

// The Sweep tab: a step run at every point of a plan (runtime/measure/sweep.hpp),
// one Run job per point. Results come back by job id and never replace
// last_run: the student's own run stays on the other tabs.
struct SweepState {
    int axis = 0;                        // 0: block size; i > 0: the step's param i - 1
    std::string range = "";              // the param's values, as parse_param_sweep takes them after "NAME="
    std::string key;                     // "lesson_id/step_id" the sweep was run for
    std::optional<SweepPlan> plan;
    std::vector<std::uint64_t> jobs;     // job id per point
    std::vector<std::optional<RunResult>> results;  // per point, as they finish
    std::string error;                   // the plan was refused (a bad range), or the sweep was stopped
    int finished = 0;
    bool running() const { return plan && finished < int(plan->points.size()) && error.empty(); }
    // The runtime's summary of the points so far (a point not back yet counts as failed).
    SweepSummary summary() const {
        std::vector<const RunResult*> done;
        for (const auto& r : results) done.push_back(r ? &*r : nullptr);
        return summarize_sweep(*plan, done);
    }
};

// "Check all cases": one run per case the step must pass (runtime/lesson/progress.hpp), with the
// lesson's own launch for each, as `check` runs a solution.
struct CheckAllState {
    std::string key;                                 // "lesson_id/step_id" it checks
    std::vector<std::string> cases;                  // in the lesson's order
    std::vector<std::uint64_t> jobs;                 // job id per case; 0 once back
    std::vector<std::optional<RunResult>> results;   // per case, as they finish
    int finished = 0;
    bool running() const { return finished < static_cast<int>(jobs.size()); }
};

// The results panel's pictures, plots and tables, built from `last_run`
// (panels/results_views.hpp). Declared here only: the state holds them so they
// are built once per run, not once per frame, and nothing else sees widgets.
struct ResultsViews;
// The shader path the views colour heat maps with (widgets/buffer_view.hpp),
// loaded once per run of the app by the results views; declared only, as above.
class ColormapRenderer;

// The results panel's views, one tab each. Views to Access show the last
// run (Roofline with this step's earlier runs; Timeline only for a host
// step's run); Sweep, its own runs across block sizes or a param; Resources, PTX and SASS look inside
// the editor's text as compiled (an inspection, made while one is open).
enum class ResultsTab { Views, Timeline, Check, Timings, Roofline, Buffers, Access, Sweep, Resources, Ptx, Sass, Count_ };
// Its name in scripts and logs: "views", "timeline", "check", "timings", "roofline",
// "buffers", "access", "sweep", "resources", "ptx", "sass".
const char* results_tab_name(ResultsTab tab);
// The tab to show once `result` has arrived while `current` is shown: a host
// step's run that passed opens on its Timeline; a kernel step's run leaves
// the Timeline tab (it is drawn for host steps only) for the Views.
ResultsTab tab_after_run(const RunResult& result, ResultsTab current);

// The Memory access tab's choices (panels/access_tab.hpp): the table row the
// warp picture shows, by its line, op and space (so it stays chosen when the
// step runs again), which of that row's recorded requests, and the block the
// per-thread view shows.
struct AccessViewState {
    int line = 0;        // 0: no row chosen
    std::string op, space;
    int request = 0;     // index into the row's AccessLine::examples
    int launch = 0;      // index into AccessSummary::launches, for the per-thread view
    int block = 0;       // index into that launch's sampled blocks
    int z = 0;           // the threadIdx.z slice shown
    std::uint64_t run_serial = 0;  // AppState::run_serial these were last kept in range for
};

// One row of the Memory access tab's table as drawn: its line, op and space
// (the runtime's names), its figure as printed ("32.00") and its cost's name
// (runtime AccessCost: "fits", "extra", "heavy").
struct DrawnAccessRow {
    int line = 0;
    std::string op, space, figure, cost;
};

// What the panels drew in the latest frame, recorded at the draw calls, and
// only for items ImGui did not clip away. Scripted tests check this as well
// as the state behind it: a marker that is computed but never painted, or a
// refusal that is set but not shown, passes a state check and fails these
// (script.hpp: expect-drawn-*). draw_frame starts a fresh record every frame.
struct DrawnFrame {
    std::uint64_t frame = 0;          // 1 for the first frame drawn; 0: nothing drawn yet
    std::vector<int> marker_lines;    // 1-based editor lines whose marker the editor painted
    int cursor_line = 0;              // 1-based line of the editor's caret
    bool find_bar = false;            // the editor's find bar (Ctrl+F) was drawn
    bool run_button = false;          // the Run button was drawn...
    bool run_disabled = false;        // ...disabled (what ImGui::BeginDisabled was given)
    std::vector<std::string> texts;   // messages drawn: the launch refusal, diagnostics, the device note
    int timeline_lanes = -1;          // lanes the Timeline tab drew (0: its message instead); -1: no timeline drawn
    int timeline_bars = -1;           // bars it drew inside the visible range; -1: no timeline drawn
    Layout layout;                    // where the panels were put
    int instructions_lines = -1;      // lines of body text the instructions had room for, below their titles; -1: not drawn
    bool launch_params_shown = false; // the launch panel's last row (its last param) was inside the panel, unscrolled
    PanelRect verdict{};              // the results' verdict, summary, message and hint, above their tabs
    PanelRect instructions_window{};  // the popped-out instructions' window; zero size: docked
    // The Memory access tab and the editor's access marks (script.hpp: expect-access-*, expect-gutter-mark).
    std::vector<DrawnAccessRow> access_rows;  // the table's rows ImGui did not clip
    std::string access_picture;               // the warp picture: "sectors N" (boxes drawn) or "ways N" (rows drawn); "": none
    int access_request = 0;                   // the request it showed, 1-based...
    int access_requests = 0;                  // ...of the row's recorded ones
    int access_cells = -1;                    // threads the per-thread view drew; -1: not drawn
    std::vector<std::pair<int, std::string>> gutter_marks;  // editor lines whose access mark was painted, and its cost
    // Every piece of text the frame drew, a line per row of the window, as
    // ImGui's log records it (text widgets, buttons, menus, tabs, tooltips)
    // plus what the widgets put on their draw lists (legends, axes): filled
    // only while AppState::record_all_text is on (scripted mode).
    std::string all_text;
};

struct AppState {
    // The splitters as the student drags them, and as last released (what
    // the session file keeps: a drag is not written out frame by frame).
    // Runs go to the CPU emulator (the device panel's switch), GPU or not. It
    // is switched on when the backend reports no GPU, unless the student (or
    // a script) has already chosen.
    bool use_emulator = false;
    bool emulator_chosen = false;
    LayoutSettings layout;
    LayoutSettings layout_committed;

    LessonsFolder folder;
    std::vector<LessonEntry> lessons;
    int selected_lesson = 0;  // index into lessons; meaningful only when lessons is not empty
    int selected_step = 0;    // index into that lesson's steps
    std::string lang = "en";  // "en", "zh" or "zh-Hant" (core/zh_hant.hpp): interface and lesson text
    float ui_scale = 1.0f;    // what fonts and style are sized for: content_scale * text_zoom
    float content_scale = 1.0f;        // the monitor's, as GLFW reports it for the window
    float content_scale_override = 0;  // > 0: a script stands in for the monitor (set-content-scale)
    float text_zoom = 1.0f;            // the student's text size (View menu), saved with the session
    bool dark_theme = true;
    double now = 0.0;         // seconds since start, set each frame

    // The selected lesson, shared with background jobs (they outlive a click).
    std::shared_ptr<const Lesson> lesson;

    EditorState editor;
    LaunchSettings launch;
    std::optional<LaunchDims> launch_dims;  // resolved from `launch`, when it resolves
    std::string launch_refusal;             // why Run is off; empty when the launch fits

    // The device, as the worker found it. Until it reports, nothing is known.
    bool backend_known = false;
    std::optional<DeviceInfo> device;
    std::string no_gpu_reason;              // English, for the log
    Sentence no_gpu_said;                   // the same as catalogue phrases: no_gpu_text() shows it
    Sentence not_contained;                 // why runs are not contained, said once (RunResult::notice_said)
    // The device panel's worker command (runtime/pipeline/remote.hpp): the
    // text being edited, the one in use (remembered in state.json; empty: a
    // local worker), why the text was refused, and the machine its far end named.
    std::string worker_command_edit;
    std::string worker_command;
    Sentence worker_command_error;
    std::string worker_where;
    DeviceLimits compile_only_limits;       // limits_for_arch(default arch) when there is no GPU
    std::string default_arch;

    // Results. `compile` is from the latest finished job of either kind.
    std::optional<CompileResult> compile;
    std::uint64_t compile_revision = 0;
    std::optional<RunResult> last_run;
    std::uint64_t run_serial = 0;            // +1 whenever last_run is replaced (record_run)
    std::shared_ptr<ResultsViews> results_views;  // built for run_serial by the results panel
    std::shared_ptr<ColormapRenderer> shaders;    // null until the first views are built with a GL context
    bool shaders_tried = false;                   // loaded (or failed and logged) once, never per run
    bool results_expanded = false;           // the results panel covers the right column and half the editor
    ResultsTab results_tab = ResultsTab::Views;  // the results view shown
    // The editor's text looked inside (resources, PTX, SASS), made by a
    // worker job while one of those tabs is open (inspect_wanted, set by the
    // panel each frame), for the editor revision it was asked for.
    std::optional<InspectionReport> inspection;
    std::uint64_t inspection_revision = 0;
    std::uint64_t inspect_submitted_revision = 0;
    bool inspect_wanted = false;
    std::string listing_filter;              // the PTX/SASS views' search text
    std::string listing_scrolled_for;        // the view, caret line and search the listing last scrolled to
    ImFont* code_font = nullptr;             // the editor's monospaced font, for panels that show code (set per frame)
    bool results_tab_requested = false;      // a script or the code chose results_tab: the tab bar selects it once
    TimelineViewState timeline_view;         // the Timeline tab's zoom and pan, for the run it was fitted to
    AccessViewState access_view;             // the Memory access tab's row, request and block
    // This session's runs per step ("lesson_id/step_id"), oldest first.
    std::map<std::string, std::vector<RunRecord>> run_history;
    SweepState sweep;
    // The GPU monitor window (View menu): NVML read in this process, twice a
    // second, for the GPU the worker reported. Made when the window opens.
    bool show_monitor = false;
    std::shared_ptr<GpuMonitor> monitor;
    std::string monitor_pci;                 // the GPU `monitor` reads
    std::string reference_built;             // "lesson_id/step_id" whose CPU reference a compile has built
    std::uint64_t last_finished_job = 0;
    std::uint64_t last_submitted_job = 0;
    std::string job_text;                    // "compiling" / "running" / ""
    std::string job_phase;                   // the running job's phase: "compile", "reference", "gpu", "timing", ""
    SanitizerTool job_sanitizer = SanitizerTool::None;  // the running job is under compute-sanitizer
    double job_seconds = 0;                  // how long it has run
    int worker_pid = 0;                      // this app's cuda-workbook-worker, as its supervisor knows it; 0 before one starts
    std::vector<LogLine> log;

    std::set<std::string> done_steps;        // "lesson_id/step_id" whose every case passed with one text
    std::map<std::string, CaseTally> tallies;  // per "lesson_id/step_id": the cases passed by the current text
    std::map<std::uint64_t, std::string> run_digests;  // run job id -> sha256 of the text it ran
    CheckAllState check_all;
    bool run_stopped = false;                // the open step's latest run was stopped before its result
    Requests requests;
    TrustState trust;
    ExternalEdit external;
    LessonWatch lesson_watch;
    ReplaceWith confirm_replace = ReplaceWith::Nothing;  // the popup asking before the editor text is replaced
    std::string save_error;                  // why the last save failed; "" once a save succeeds
    double save_retry_at = 0.0;              // when autosave tries again after a failure
    bool show_diff = false;
    std::string diff_solution;               // the solution the diff compares against
    DrawnFrame drawn;                        // what the latest frame drew (for scripted tests)
    bool record_all_text = false;            // fill drawn.all_text (a script runs)
    PanelRect verdict_band{};                // where the results drew their verdict last (popped instructions keep off it)
    PanelRect instructions_window_last{};    // the popped-out instructions' window as last drawn
    PanelRect instructions_window_place{};   // scripts: put that window here on the next frame (as a drag would)
};

const LessonEntry* selected_entry(const AppState& state);
const Step* selected_step(const AppState& state);
std::string no_gpu_text(const AppState& state);  // why there is no GPU, in the UI's language
std::string step_key(const AppState& state);  // "lesson_id/step_id", "" when none

// Saves the open step's text as its work when it has unsaved changes. True when nothing is left
// unsaved. A failure is logged and kept in state.save_error (the status bar shows it), never thrown.
bool save_open_work(AppState& state, bool say_so = false);

// Changes the selection; the editor gets the student's saved work for the step, or the starter
// when there is none. The launch settings are reset. The text being left is saved first: when
// that save fails, the selection stays where it is (false), so nothing typed is lost.
bool select_lesson(AppState& state, int index);
bool select_step(AppState& state, int index);
// Opens step `index` of the selected lesson without saving the text being left: for callers that
// have saved it themselves (a reloaded lesson whose step is gone).
void open_step(AppState& state, int index);

// Replaces the student's text with the step's starter or solution: the text it replaces goes to
// the work folder's history first, and the replacement is one undo step, so Ctrl+Z brings the
// old text back. `what` names it in the log.
void replace_editor_text(AppState& state, std::string text, const std::string& what);

// Replaces the editor text as an edit (revision and edit time advance).
void set_editor_text(AppState& state, std::string text);
void log_line(AppState& state, std::string text, bool error = false);

// The editor's kernel, with the launch panel's case and params, written as a
// Python file for `home` (runtime/export/python_export.hpp) into
// <data dir>/exports/; the log says where, or why it could not be.
void export_kernel_to_python(AppState& state, PythonHome home);

// Makes `result` the last run and adds it to its step's history.
void record_run(AppState& state, RunResult result);
// The current step's runs this session, oldest first (empty when none).
const std::vector<RunRecord>& step_history(const AppState& state);

// The step's own launch settings for `test_case` ("" = its first case). An
// expression that does not evaluate leaves the defaults and says why in `error`.
LaunchSettings default_launch(const Step& step, const std::string& test_case, std::string& error);
// Resets the launch settings to the step's own for `test_case`.
void reset_launch(AppState& state, const std::string& test_case);
// Folds or unfolds the lesson list, at once and in what the session keeps.
void set_lessons_collapsed(AppState& state, bool collapsed);
// The instructions in a window of their own, or back in their column; saved.
void set_instructions_popped(AppState& state, bool popped);
// The text size one step larger (+1), smaller (-1), or back to 100% (0);
// the frame loop rebuilds the fonts and the style for it.
void change_text_zoom(AppState& state, int direction);
// Shows `tab` in the results panel (it selects it on the next frame).
void show_results_tab(AppState& state, ResultsTab tab);
// Enlarges the results panel over its neighbours, or puts it back; either
// way it shows the tab it showed (the enlarged panel is another window, with
// a tab bar of its own).
void set_results_expanded(AppState& state, bool expanded);
// Recomputes launch_dims and launch_refusal from the settings and the limits.
void check_launch_settings(AppState& state);
// The request the settings describe (source: the editor text).
RunRequest make_request(const AppState& state, bool compile_only);

}  // namespace wb::app
