// app/script.cpp — the --script command interpreter (script.hpp).
//
// [SECTION] helpers
// [SECTION] Script::Call, what a handler sees
// [SECTION] handlers: acting as the student
// [SECTION] handlers: waiting
// [SECTION] handlers: looking at the state
// [SECTION] handlers: looking at what was drawn
// [SECTION] the command table
// [SECTION] Script: reading the file, ticking, waiting
#include "script.hpp"

#include "app_state.hpp"
#include "student_work.hpp"
#include "trust.hpp"
#include "panels/access_tab.hpp"
#include "panels/panels.hpp"
#include "panels/results_views.hpp"

#include "core/error.hpp"
#include "core/fs.hpp"
#include "core/untranslated.hpp"
#include "pipeline/result_json.hpp"
#include "widgets/keys.hpp"
#include "widgets/timeline_view.hpp"

#include <nlohmann/json.hpp>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>

namespace wb::app {

// [SECTION] helpers ---------------------------------------------------------------------------
namespace {

constexpr double kDefaultTimeout = 120.0;  // seconds; a cold NVRTC + g++ can take a while on CI

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return {};
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

// The rest of the line, with one pair of surrounding double quotes removed.
std::string unquote(std::string s) {
    s = trim(s);
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
    return s;
}

bool to_int(const std::string& s, long long& out) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc{} && p == s.data() + s.size();
}

bool to_seconds(const std::string& s, double& out) {
    try {
        std::size_t used = 0;
        out = std::stod(s, &used);
        return used == s.size() && out >= 0;
    } catch (const std::exception&) {
        return false;
    }
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::string line;
    std::istringstream in(text);
    while (std::getline(in, line)) lines.push_back(line);
    return lines;
}

std::vector<std::string> split_words(const std::string& text) {
    std::vector<std::string> words;
    std::istringstream in(text);
    std::string word;
    while (in >> word) words.push_back(word);
    return words;
}

std::string join_lines(const std::vector<std::string>& lines, bool trailing_newline) {
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        out += lines[i];
        if (i + 1 < lines.size() || trailing_newline) out += '\n';
    }
    return out;
}

std::string join(const std::vector<std::string>& items, const char* separator) {
    std::string out;
    for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
    return out.empty() ? "none" : out;
}

}  // namespace

// [SECTION] Script::Call, what a handler sees -------------------------------------------------

class Script::Call {
public:
    Call(Script& script, AppState& state, const std::string& rest, bool jobs_idle)
        : state(state), rest(rest), words(split_words(rest)), jobs_idle(jobs_idle), script_(script) {}

    AppState& state;
    const std::string rest;               // everything after the command's name, trimmed
    const std::vector<std::string> words; // `rest` split at blanks
    const bool jobs_idle;

    Tick fail(const std::string& what) { return script_.fail(what); }
    void say(const std::string& what) const { script_.say(what); }

    // The command spans frames: tick() checks `what` before the next command,
    // and fails when `timeout_s` passes first.
    void wait(Waiting what, double timeout_s) {
        script_.waiting_ = what;
        script_.wait_until_ = state.now + timeout_s;
    }
    void wait_frames(int n) {
        script_.waiting_ = Waiting::Frames;
        script_.frames_left_ = n;
    }
    void wait_for_reload(double timeout_s) {
        script_.reloads_before_ = state.lesson_watch.reloads;
        wait(Waiting::Reload, timeout_s);
    }
    void wait_for_file(std::string path, double timeout_s) {
        script_.wait_file_ = std::move(path);
        wait(Waiting::File, timeout_s);
    }
    // Waits for the compile asked for now, counting the frames drawn meanwhile.
    void wait_for_compile(int frames_wanted) {
        script_.frames_wanted_ = frames_wanted;
        script_.job_before_ = state.last_submitted_job;
        wait(Waiting::CompileStart, kDefaultTimeout);
    }
    void screenshot(std::string path) { script_.screenshot_ = std::move(path); }
    // Down for the next frame; released before the command after.
    void press_keys(const std::vector<Key>& keys) {
        ImGuiIO& io = ImGui::GetIO();
        for (Key key : keys) set_key_down(io, key, true);
        script_.keys_down_ = keys;
    }
    void run_command_started() {
        script_.run_pressed_ = false;
        script_.run_refused_.clear();
    }
    // Whether a `run` has pressed Run, and the reason it found it disabled.
    bool run_pressed() const { return script_.run_pressed_; }
    const std::string& run_refused() const { return script_.run_refused_; }

private:
    Script& script_;
};

namespace {

using Tick = Script::Tick;
using Call = Script::Call;
using Waiting = Script::Waiting;

// [SECTION] handlers: acting as the student ---------------------------------------------------

Tick open_lesson(Call& c) {
    if (c.words.empty() || c.words.size() > 2) return c.fail("open wants LESSON_ID [STEP]");
    int found = -1;
    for (int i = 0; i < static_cast<int>(c.state.lessons.size()); ++i)
        if (c.state.lessons[static_cast<std::size_t>(i)].id() == c.words[0]) found = i;
    if (found < 0) return c.fail("no lesson '" + c.words[0] + "'");
    // As a click in the lesson list: the text being left is saved first, and a failed save
    // keeps the open step (said, not a script failure: tests check what stayed open).
    if (found != c.state.selected_lesson && !select_lesson(c.state, found)) {
        c.say("open: stayed on the open step, since its text could not be saved");
        return Tick::Continue;
    }
    if (c.words.size() == 2) {
        const Lesson* lesson = c.state.lesson.get();
        const Step* step = lesson ? lesson->find_step(c.words[1]) : nullptr;
        if (!step) return c.fail("lesson '" + c.words[0] + "' has no step '" + c.words[1] + "'");
        const int index = static_cast<int>(step - lesson->steps.data());
        if (index != c.state.selected_step && !select_step(c.state, index))
            c.say("open: stayed on the open step, since its text could not be saved");
    }
    return Tick::Continue;
}

// As the Reset to starter and Show solution buttons: the popup asks next frame.
Tick reset_starter(Call& c) {
    c.state.confirm_replace = ReplaceWith::Starter;
    c.wait_frames(2);
    return Tick::Continue;
}
Tick show_solution(Call& c) {
    c.state.confirm_replace = ReplaceWith::Solution;
    c.wait_frames(2);
    return Tick::Continue;
}
// Yes or Cancel in that popup.
Tick answer_replace(Call& c) {
    if (c.rest != "yes" && c.rest != "no") return c.fail("answer-replace wants yes or no");
    c.state.requests.answer_replace = c.rest == "yes" ? 1 : 0;
    c.wait_frames(2);
    return Tick::Continue;
}
// The "Check all cases" button; waits until every case is back.
Tick check_all(Call& c) {
    c.state.requests.check_all = true;
    c.wait(Waiting::Idle, 600);
    return Tick::Continue;
}

// on|off: the open step is marked done (every case passed with one text).
Tick expect_done(Call& c) {
    if (c.rest != "on" && c.rest != "off") return c.fail("expect-done wants on or off");
    const bool done = c.state.done_steps.count(step_key(c.state)) > 0;
    const auto t = c.state.tallies.find(step_key(c.state));
    const Step* step = selected_step(c.state);
    c.say("step " + step_key(c.state) + (done ? " is done" : " is not done") +
          (t != c.state.tallies.end() && step
               ? ", " + std::to_string(t->second.passed_of(*step)) + " of " +
                     std::to_string(cases_to_pass(*step, t->second.emulated).size()) + " cases passed"
               : std::string()));
    if (done != (c.rest == "on")) return c.fail(std::string("the step is ") + (done ? "" : "not ") + "done");
    return Tick::Continue;
}

// The Stop button beside a run's progress.
Tick stop(Call& c) {
    c.state.requests.stop = true;
    c.wait_frames(2);
    return Tick::Continue;
}

// Ctrl+Z in the editor.
Tick undo(Call& c) {
    c.state.requests.undo = true;
    c.wait_frames(2);
    return Tick::Continue;
}

bool three_ints(const std::vector<std::string>& words, std::array<int, 3>& out) {
    if (words.empty() || words.size() > 3) return false;
    std::array<int, 3> v{1, 1, 1};
    for (std::size_t i = 0; i < words.size(); ++i) {
        long long n = 0;
        if (!to_int(words[i], n) || n < -2147483647LL || n > 2147483647LL) return false;
        v[i] = static_cast<int>(n);
    }
    out = v;
    return true;
}

Tick set_block(Call& c) {
    if (!three_ints(c.words, c.state.launch.block)) return c.fail("set-block wants 1 to 3 integers");
    return Tick::Continue;
}

Tick set_grid(Call& c) {
    if (!three_ints(c.words, c.state.launch.grid)) return c.fail("set-grid wants 1 to 3 integers");
    c.state.launch.auto_grid = false;
    return Tick::Continue;
}

Tick auto_grid(Call& c) {
    if (c.rest != "on" && c.rest != "off") return c.fail("auto-grid wants on or off");
    c.state.launch.auto_grid = c.rest == "on";
    return Tick::Continue;
}

Tick set_param(Call& c) {
    if (c.words.size() != 2) return c.fail("set-param wants NAME VALUE");
    const Step* step = selected_step(c.state);
    if (!step || !step->find_param(c.words[0])) return c.fail("no param '" + c.words[0] + "' in this step");
    try {
        c.state.launch.params[c.words[0]] = std::stod(c.words[1]);
    } catch (const std::exception&) {
        return c.fail("'" + c.words[1] + "' is not a number");
    }
    return Tick::Continue;
}

Tick choose_case(Call& c) {
    const Step* step = selected_step(c.state);
    if (!step || !step->find_case(c.rest)) return c.fail("no case '" + c.rest + "' in this step");
    reset_launch(c.state, c.rest);
    return Tick::Continue;
}

Tick edit_line(Call& c) {
    std::istringstream e(c.rest);
    std::string number;
    e >> number;
    std::string text;
    std::getline(e, text);
    if (!text.empty() && text.front() == ' ') text.erase(0, 1);
    const std::string& current = c.state.editor.text;
    std::vector<std::string> lines = split_lines(current);
    long long n = 0;
    if (!to_int(number, n) || n < 1 || n > static_cast<long long>(lines.size()) + 1)
        return c.fail("edit-line wants a line number from 1 to " + std::to_string(lines.size() + 1));
    if (n == static_cast<long long>(lines.size()) + 1) lines.push_back(text);
    else lines[static_cast<std::size_t>(n - 1)] = text;
    const bool trailing = current.empty() || current.back() == '\n';
    set_editor_text(c.state, join_lines(lines, trailing));
    return Tick::Continue;
}

Tick set_source(Call& c) {
    try {
        set_editor_text(c.state, read_file(c.rest));
    } catch (const Error& e) {
        return c.fail(e.describe());
    }
    return Tick::Continue;
}

// The instructor's side of the loop: SRC's bytes replace DEST, as an editor
// saving a lesson file (or a side file) would.
Tick copy_file(Call& c) {
    if (c.words.size() != 2) return c.fail("copy-file wants SRC DEST");
    std::error_code ec;
    std::filesystem::copy_file(c.words[0], c.words[1], std::filesystem::copy_options::overwrite_existing, ec);
    if (ec) return c.fail("copy-file " + c.words[0] + " " + c.words[1] + ": " + ec.message());
    return Tick::Continue;
}

Tick compile(Call& c) {
    if (!c.state.lesson) return c.fail("no lesson is open");
    c.state.requests.compile = true;
    return Tick::Continue;
}

// Run as a student presses it: not before the device check says whether
// there is a GPU (the button is disabled until then), and not at all while
// it is disabled (Script::press_run).
Tick run(Call& c) {
    c.run_command_started();
    c.wait(Waiting::DeviceCheck, kDefaultTimeout);
    return Tick::Continue;
}

// Scripts may run without a GPU, so tests exercise the pipeline (it ends
// compile-only); the frame loop still refuses an untrusted lesson.
Tick run_anyway(Call& c) {
    if (!c.state.lesson) return c.fail("no lesson is open");
    c.state.requests.run = c.state.requests.run_even_without_gpu = true;
    return Tick::Continue;
}

Tick check_with_sanitizer(Call& c, SanitizerTool tool) {
    if (!c.state.lesson) return c.fail("no lesson is open");
    c.state.requests.sanitize = tool;
    c.state.requests.run_even_without_gpu = true;
    return Tick::Continue;
}
Tick check_memory(Call& c) { return check_with_sanitizer(c, SanitizerTool::Memcheck); }
Tick check_races(Call& c) { return check_with_sanitizer(c, SanitizerTool::Racecheck); }

// As the device panel's "Run on the CPU emulator" switch.
Tick emulator(Call& c) {
    if (c.rest != "on" && c.rest != "off") return c.fail("emulator wants on or off");
    c.state.use_emulator = c.rest == "on";
    c.state.emulator_chosen = true;
    return Tick::Continue;
}

// As the device panel's Worker command field and Apply: "worker-command ssh gpu cuda-workbook-worker --stdio";
// with nothing after it, runs go back to a worker on this computer.
Tick worker_command(Call& c) {
    c.state.worker_command_edit = c.rest;
    c.state.requests.apply_worker_command = true;
    return Tick::Continue;
}

Tick expand_results(Call& c) {
    if (c.rest != "on" && c.rest != "off") return c.fail("expand-results wants on or off");
    set_results_expanded(c.state, c.rest == "on");
    return Tick::Continue;
}

// As the Sweep tab's Run sweep does: "sweep blocks", or "sweep N=1024:4096:x2"
// for the step's param N. Scripts may sweep without a GPU (compile-only points).
Tick sweep(Call& c) {
    const Step* step = selected_step(c.state);
    if (!step) return c.fail("no lesson is open");
    if (c.rest == "blocks") {
        c.state.sweep.axis = 0;
    } else {
        const std::size_t eq = c.rest.find('=');
        int axis = 0;
        for (std::size_t i = 0; i < step->params.size(); ++i)
            if (eq != std::string::npos && step->params[i].name == c.rest.substr(0, eq)) axis = int(i) + 1;
        if (axis == 0) return c.fail("sweep wants blocks, or NAME=VALUES for a param of this step");
        c.state.sweep.axis = axis;
        c.state.sweep.range = c.rest.substr(eq + 1);
    }
    c.state.requests.sweep = c.state.requests.run_even_without_gpu = true;
    return Tick::Continue;
}

// The step's CPU reference was built in the background by a compile, before any Run.
Tick expect_reference_built(Call& c) {
    if (c.state.reference_built != step_key(c.state))
        return c.fail("no compile has built this step's CPU reference yet (built: '" + c.state.reference_built + "')");
    return Tick::Continue;
}

// As View > GPU monitor does.
Tick monitor(Call& c) {
    if (c.rest != "on" && c.rest != "off") return c.fail("monitor wants on or off");
    c.state.show_monitor = c.rest == "on";
    return Tick::Continue;
}

// The finished sweep: its number of points, and each point's status.
Tick expect_sweep(Call& c) {
    long long n = 0;
    if (c.words.size() != 2 || !to_int(c.words[0], n)) return c.fail("expect-sweep wants POINTS STATUS");
    const SweepState& sw = c.state.sweep;
    if (!sw.error.empty()) return c.fail("the sweep did not run: " + sw.error);
    if (!sw.plan) return c.fail("no sweep has run");
    if (sw.running()) return c.fail("the sweep is still running (" + std::to_string(sw.finished) + " points done)");
    if (sw.plan->points.size() != std::size_t(n))
        return c.fail("the sweep has " + std::to_string(sw.plan->points.size()) + " points, wanted " + std::to_string(n));
    for (std::size_t i = 0; i < sw.results.size(); ++i)
        if (!sw.results[i] || run_status_name(sw.results[i]->status) != c.words[1])
            return c.fail("point " + sw.plan->points[i].label + " is " +
                          (sw.results[i] ? run_status_name(sw.results[i]->status) : "missing") + ", wanted " + c.words[1]);
    c.say("sweep: " + std::to_string(n) + " points, all " + c.words[1]);
    return Tick::Continue;
}

// As a click on the Memory access table's row of LINE (the first such row, or the one of OP and SPACE).
Tick access_select_line(Call& c) {
    long long line = 0;
    if ((c.words.size() != 1 && c.words.size() != 3) || !to_int(c.words[0], line))
        return c.fail("access-select-line wants LINE [OP SPACE]");
    if (!c.state.last_run || !c.state.last_run->access) return c.fail("the last run has no access record");
    std::vector<std::string> rows;
    for (const AccessLine& l : c.state.last_run->access->lines) {
        if (l.line == line && (c.words.size() == 1 || (l.op == c.words[1] && l.space == c.words[2]))) {
            choose_access_row(c.state, l);
            return Tick::Continue;
        }
        rows.push_back(std::to_string(l.line) + " " + l.op + " " + l.space);
    }
    return c.fail("the access table has no row for line " + c.rest + " (rows: " + join(rows, "; ") + ")");
}

// As the warp picture's Next or Previous button.
Tick access_request(Call& c) {
    if (c.rest != "next" && c.rest != "prev") return c.fail("access-request wants next or prev");
    const DrawnFrame& d = c.state.drawn;
    if (d.access_requests <= 0) return c.fail("the warp picture is not drawn (choose a row on the access tab first)");
    const int to = d.access_request + (c.rest == "next" ? 1 : -1);
    if (to < 1 || to > d.access_requests)
        return c.fail("the " + std::string(c.rest == "next" ? "Next" : "Previous") + " button is disabled at request " +
                      std::to_string(d.access_request) + " of " + std::to_string(d.access_requests));
    c.state.access_view.request = to - 1;
    return Tick::Continue;
}

// As the tab's click does.
Tick results_tab(Call& c) {
    for (int i = 0; i < static_cast<int>(ResultsTab::Count_); ++i) {
        const auto tab = static_cast<ResultsTab>(i);
        if (c.rest == results_tab_name(tab)) {
            show_results_tab(c.state, tab);
            return Tick::Continue;
        }
    }
    return c.fail("results-tab wants views, timeline, check, timings, roofline, buffers, access, sweep, resources, ptx or sass");
}

// A host step's run, from a test fixture: what a finished run of the open
// step would bring, so the Timeline tab can be drawn without a GPU. FILE is a
// timeline in its one JSON form (timeline_to_json), or a result in its one
// form (pipeline/result_json.hpp) with a "timeline": `cuda-workbook-cli run
// --json` prints that form, so a run recorded on a GPU is a fixture as it is.
// A fixture written by hand gives what it needs ("status", "wall_time",
// "target", ...); the rest keeps its default, and the status is "passed".
RunResult fixture_result(const nlohmann::json& j) {
    if (!(j.is_object() && j.contains("timeline"))) {
        RunResult r;
        r.host_step = true;
        r.status = RunStatus::Passed;
        r.timeline = timeline_from_json(j);
        return r;
    }
    nlohmann::json whole = j;
    if (!whole.contains("status")) whole["status"] = run_status_name(RunStatus::Passed);
    RunResult r = result_from_json(whole);
    r.host_step = true;
    return r;
}

Tick load_result_timeline(Call& c) {
    const Step* step = selected_step(c.state);
    if (!c.state.lesson || !step) return c.fail("no lesson is open");
    if (c.rest.empty()) return c.fail("load-result-timeline wants FILE");
    RunResult r;
    try {
        r = fixture_result(nlohmann::json::parse(read_file(c.rest)));
    } catch (const Error& e) {
        return c.fail(c.rest + ": " + e.describe());
    } catch (const std::exception& e) {  // nlohmann's parse and type errors
        return c.fail(c.rest + ": " + e.what());
    }
    r.lesson_id = c.state.lesson->id;
    r.step_id = step->id;
    r.case_name = c.state.launch.test_case;
    r.message = "loaded from " + c.rest + " (a test fixture)";
    const Timeline& t = *r.timeline;
    c.say("timeline: " + std::to_string(t.activities.size()) + " activities on " + std::to_string(t.lanes().size()) +
          " lanes, " + std::to_string(t.devices()) + " devices");
    record_run(c.state, std::move(r));
    return Tick::Continue;
}

// As the wheel does over the Timeline tab: zooms by FACTOR (< 1: in) around
// AT_US microseconds from run()'s start (default: the middle of the view).
Tick timeline_zoom_command(Call& c) {
    double factor = 0, at = 0;
    if (c.words.empty() || c.words.size() > 2 || !to_seconds(c.words[0], factor) || factor <= 0 ||
        (c.words.size() == 2 && !to_seconds(c.words[1], at)))
        return c.fail("timeline-zoom wants FACTOR [AT_US]");
    if (!c.state.last_run || !c.state.last_run->timeline) return c.fail("the last run has no timeline");
    TimelineViewState& v = c.state.timeline_view;
    if (v.shown != c.state.run_serial) v = TimelineViewState{0, 0, c.state.run_serial};
    const TimeRange fit = timeline_fit(*c.state.last_run->timeline);
    if (!v.fitted()) v.show(fit);
    timeline_zoom(v, c.words.size() == 2 ? at : (v.t0 + v.t1) / 2, factor, fit);
    char range[96];
    std::snprintf(range, sizeof range, "timeline shows %.1f to %.1f us", v.t0, v.t1);
    c.say(range);
    return Tick::Continue;
}

// As a click in the editor does: the caret to the start of line N.
Tick set_caret(Call& c) {
    long long line = 0;
    if (!to_int(c.rest, line) || line < 1) return c.fail("set-caret wants a line number");
    c.state.editor.goto_line = static_cast<int>(line);
    return Tick::Continue;
}

// As the instructions' "Pop out" and "Dock" buttons do.
Tick pop_instructions(Call& c) {
    if (c.rest != "on" && c.rest != "off") return c.fail("pop-instructions wants on or off");
    set_instructions_popped(c.state, c.rest == "on");
    return Tick::Continue;
}

// pin-instructions on|off: the popped-out window's "Keep in its own window next time".
Tick pin_instructions(Call& c) {
    if (c.rest != "on" && c.rest != "off") return c.fail("pin-instructions wants on or off");
    c.state.layout.instructions_pinned = c.state.layout_committed.instructions_pinned = c.rest == "on";
    return Tick::Continue;
}

// place-instructions X Y W H: drags the popped-out instructions there (screen coordinates).
Tick place_instructions(Call& c) {
    long long v[4];
    if (c.words.size() != 4) return c.fail("place-instructions wants X Y W H");
    for (int i = 0; i < 4; ++i)
        if (!to_int(c.words[i], v[i])) return c.fail("place-instructions wants X Y W H");
    c.state.instructions_window_place = {ImVec2(float(v[0]), float(v[1])), ImVec2(float(v[2]), float(v[3]))};
    return Tick::Continue;
}

// Stands in for the monitor's content scale (a window moved to a 4K screen
// at 200%); 0 gives the monitor's own back.
Tick set_content_scale(Call& c) {
    double scale = 0;
    if (!to_seconds(c.rest, scale) || scale > 4.0 || (scale > 0 && scale < 0.5))
        return c.fail("set-content-scale wants a scale from 0.5 to 4, or 0 for the monitor's");
    c.state.content_scale_override = static_cast<float>(scale);
    return Tick::Continue;
}

// Presses keys for one frame, as a keyboard would: "f8", "ctrl+s",
// "ctrl+shift+l", "ctrl+equal", "ctrl+minus", "ctrl+0", "ctrl+enter".
Tick press(Call& c) {
    if (c.words.size() != 1) return c.fail("press wants KEYS, such as ctrl+s or f8");
    std::vector<Key> keys;
    std::string spec = c.words[0];
    std::transform(spec.begin(), spec.end(), spec.begin(), [](unsigned char ch) { return std::tolower(ch); });
    std::size_t start = 0;
    while (start <= spec.size()) {
        const std::size_t plus = spec.find('+', start);
        const std::string name = spec.substr(start, plus == std::string::npos ? std::string::npos : plus - start);
        const std::optional<Key> key = key_from_name(name);
        if (!key)
            return c.fail("press: unknown key '" + name +
                          "' (ctrl, shift, alt, enter, tab, escape, backspace, equal, minus, a-z, 0-9, f1-f12)");
        keys.push_back(*key);
        if (plus == std::string::npos) break;
        start = plus + 1;
    }
    c.press_keys(keys);
    return Tick::Continue;
}

// As the lesson list's "<<" and ">>" do (and Ctrl+Shift+L).
Tick collapse_lessons(Call& c) {
    if (c.rest != "on" && c.rest != "off") return c.fail("collapse-lessons wants on or off");
    set_lessons_collapsed(c.state, c.rest == "on");
    return Tick::Continue;
}

// export-python cupy|torch|numba|cuda-core: the Export to Python menu's item.
Tick export_python_cmd(Call& c) {
    try {
        export_kernel_to_python(c.state, python_home_from_name(c.rest));
    } catch (const Error& e) {
        return c.fail(e.message());
    }
    return Tick::Continue;
}

Tick open_external(Call& c) {
    c.state.requests.open_external = true;
    return Tick::Continue;
}

Tick answer_trust_prompt(Call& c) {
    if (c.rest != "yes" && c.rest != "no") return c.fail("answer-trust wants yes or no");
    if (!c.state.trust.prompt_open) return c.fail("no trust prompt is showing");
    answer_trust(c.state, c.rest == "yes");
    return Tick::Continue;
}

// The flag GLFW sets when the window manager's close button is pressed; the
// frame loop ends on it as it does then.
Tick close_window(Call& c) {
    GLFWwindow* window = glfwGetCurrentContext();
    if (!window) return c.fail("there is no window to close");
    glfwSetWindowShouldClose(window, GLFW_TRUE);
    return Tick::Continue;
}

Tick screenshot(Call& c) {
    if (c.rest.empty()) return c.fail("screenshot wants FILE");
    c.screenshot(c.rest);
    return Tick::Continue;
}

Tick quit(Call&) { return Tick::Quit; }

// [SECTION] handlers: waiting -----------------------------------------------------------------

Tick wait(Call& c) {
    double seconds = kDefaultTimeout;
    if (!c.words.empty() && !to_seconds(c.words[0], seconds)) return c.fail("wait wants SECONDS");
    c.wait(Waiting::Idle, seconds);
    return Tick::Continue;
}

// Frames keep coming while it sleeps: timers (autosave, debounce) run as for a student.
Tick sleep(Call& c) {
    double seconds = 0;
    if (!to_seconds(c.rest, seconds)) return c.fail("sleep wants SECONDS");
    c.wait(Waiting::Sleep, seconds);
    return Tick::Continue;
}

Tick frames(Call& c) {
    long long n = 0;
    if (!to_int(c.rest, n) || n < 1) return c.fail("frames wants a positive number");
    c.wait_frames(static_cast<int>(n));
    return Tick::Continue;
}

Tick wait_for_file(Call& c) {
    double seconds = kDefaultTimeout;
    if (c.words.empty() || c.words.size() > 2 || (c.words.size() == 2 && !to_seconds(c.words[1], seconds)))
        return c.fail("wait-for-file wants FILE [SECONDS]");
    c.wait_for_file(c.words[0], seconds);
    return Tick::Continue;
}

// Waits until the open lesson's files are reloaded once more, whether the
// reload loaded or failed (lesson_reload.hpp; a change settles first).
Tick wait_reload(Call& c) {
    double seconds = 10;
    if (c.words.size() > 1 || (c.words.size() == 1 && !to_seconds(c.words[0], seconds)))
        return c.fail("wait-reload wants [SECONDS]");
    c.wait_for_reload(seconds);
    return Tick::Continue;
}

Tick expect_frames_during_compile(Call& c) {
    long long n = 0;
    if (!to_int(c.rest, n) || n < 0) return c.fail("expect-frames-during-compile wants a number");
    if (!c.state.lesson) return c.fail("no lesson is open");
    c.state.requests.compile = true;
    c.wait_for_compile(static_cast<int>(n));
    return Tick::Continue;
}

// [SECTION] handlers: looking at the state ----------------------------------------------------

Tick expect_marker(Call& c) {
    long long n = 0;
    if (!to_int(c.rest, n)) return c.fail("expect-marker wants a line number");
    if (!c.state.compile) return c.fail("no compile has finished, so there are no markers");
    std::vector<std::string> seen;
    for (const Diagnostic& d : c.state.compile->diagnostics) {
        if (d.line == n) return Tick::Continue;
        seen.push_back(std::to_string(d.line));
    }
    return c.fail("no diagnostic on line " + std::to_string(n) + " (diagnostics on lines: " + join(seen, ", ") + ")");
}

Tick expect_refused(Call& c) {
    const std::string want = unquote(c.rest);
    check_launch_settings(c.state);
    const std::string& refusal = c.state.launch_refusal;
    if (refusal.empty()) return c.fail("the launch is not refused (wanted a refusal containing '" + want + "')");
    if (refusal.find(want) == std::string::npos)
        return c.fail("the refusal '" + refusal + "' does not contain '" + want + "'");
    c.say("refused: " + refusal);
    return Tick::Continue;
}

Tick expect_status(Call& c) {
    if (!c.state.last_run) return c.fail("no run has finished");
    const std::string got = run_status_name(c.state.last_run->status);
    if (got != c.rest) return c.fail("run status is " + got + " (" + c.state.last_run->message + "), wanted " + c.rest);
    return Tick::Continue;
}

Tick expect_compiled(Call& c) {
    const AppState& s = c.state;
    if (!s.compile) return c.fail("no compile has finished");
    if (s.compile_revision != s.editor.revision)
        return c.fail("the latest compile is of revision " + std::to_string(s.compile_revision) +
                      " of the text, which is now at " + std::to_string(s.editor.revision));
    if (!s.compile->ok) {
        const std::string first = s.compile->diagnostics.empty() ? s.compile->log : s.compile->diagnostics.front().to_string();
        return c.fail("the compile failed: " + first);
    }
    c.say("compiled for " + s.compile->arch + ", " + std::to_string(s.compile->warning_count()) + " warnings");
    return Tick::Continue;
}

Tick expect_source_contains(Call& c) {
    const std::string want = unquote(c.rest);
    if (c.state.editor.text.find(want) == std::string::npos)
        return c.fail("the editor text does not contain '" + want + "'");
    return Tick::Continue;
}

Tick expect_saved(Call& c) {
    if (c.state.editor.saved_revision != c.state.editor.revision) return c.fail("the editor text is not saved yet");
    return Tick::Continue;
}

// STEP TEXT: the open lesson's STEP has work on disk that contains TEXT.
Tick expect_work_contains(Call& c) {
    if (c.words.size() < 2) return c.fail("expect-work-contains wants STEP TEXT");
    const LessonEntry* entry = selected_entry(c.state);
    if (!entry) return c.fail("no lesson is open");
    const std::string text = c.rest.substr(c.rest.find(c.words[1], c.words[0].size()));
    const std::optional<std::string> work = load_work(entry->id(), c.words[0]);
    if (!work) return c.fail("step " + c.words[0] + " has no saved work (" + work_file(entry->id(), c.words[0]).string() + ")");
    if (work->find(text) == std::string::npos) return c.fail("step " + c.words[0] + "'s saved work does not contain '" + text + "'");
    return Tick::Continue;
}

// TEXT: a copy in the open lesson's work history (text the editor replaced) contains TEXT.
Tick expect_history_contains(Call& c) {
    const LessonEntry* entry = selected_entry(c.state);
    if (!entry || c.rest.empty()) return c.fail("expect-history-contains wants TEXT, with a lesson open");
    const std::filesystem::path dir = work_file(entry->id(), "x").parent_path() / "history";
    std::error_code ec;
    int files = 0;
    for (const auto& f : std::filesystem::directory_iterator(dir, ec)) {
        ++files;
        if (read_file(f.path()).find(c.rest) != std::string::npos) {
            c.say("history copy " + f.path().filename().string());
            return Tick::Continue;
        }
    }
    return c.fail("none of the " + std::to_string(files) + " copies in " + dir.string() + " contains '" + c.rest + "'");
}

// KIND BUFFER [SOURCE]: the results panel built a view of that kind for that
// buffer, with data to draw (SOURCE: gpu+cpu, cpu, input, ...).
Tick expect_view(Call& c) {
    const auto& w = c.words;
    if (w.size() < 2 || w.size() > 3) return c.fail("expect-view wants KIND BUFFER [SOURCE]");
    if (!c.state.last_run) return c.fail("no run has finished, so there are no views");
    std::vector<std::string> seen;
    for (const std::string& line : describe_results_views(c.state)) {
        std::istringstream v(line);
        std::string kind, buffer, source, size;
        v >> kind >> buffer >> source >> size;
        const bool drawn = source != "missing" && !size.empty() && size != "0" && size != "0x0";
        if (kind == w[0] && buffer == w[1] && (w.size() < 3 || source == w[2]) && drawn) {
            c.say("view: " + line);
            return Tick::Continue;
        }
        seen.push_back(line);
    }
    return c.fail("no " + w[0] + " view of '" + w[1] + "'" + (w.size() == 3 ? " from " + w[2] : "") +
                  " was built (views: " + join(seen, "; ") + ")");
}

// loaded | fallback: how the results views coloured their heat maps (draw a
// few frames after the run first). Either way the shaders were tried once
// and, when they failed, said so once in the log.
Tick expect_shaders(Call& c) {
    if (c.rest != "loaded" && c.rest != "fallback") return c.fail("expect-shaders wants loaded or fallback");
    const ShaderUse use = shader_use(c.state);
    std::vector<std::string> logged;
    for (const LogLine& l : c.state.log)
        if (l.text.rfind("shaders", 0) == 0) logged.push_back(l.text);
    const std::string counts =
        std::to_string(use.shaded) + " pictures by the shaders, " + std::to_string(use.cpu) + " on the CPU";
    if (use.shaded + use.cpu == 0) return c.fail("no heat map or gray picture has been drawn yet");
    if (c.rest == "loaded" && (!use.loaded || use.cpu > 0 || !logged.empty()))
        return c.fail("the shaders were not used: " + counts + (logged.empty() ? "" : "; log: " + logged.front()));
    if (c.rest == "fallback" && (use.loaded || use.shaded > 0 || logged.size() != 1))
        return c.fail("wanted the CPU fallback with one log line: " + counts + ", " + std::to_string(logged.size()) +
                      " shader lines in the log");
    c.say("shaders: " + c.rest + " (" + counts + ")");
    for (const std::string& line : logged) c.say("log: " + line);
    return Tick::Continue;
}

Tick expect_history(Call& c) {
    long long n = 0;
    if (!to_int(c.rest, n) || n < 0) return c.fail("expect-history wants a number of runs");
    const std::size_t got = step_history(c.state).size();
    if (got != static_cast<std::size_t>(n))
        return c.fail("this step has " + std::to_string(got) + " runs in its history, wanted " + std::to_string(n));
    return Tick::Continue;
}

Tick expect_sanitizer_finding(Call& c) {
    long long n = 0;
    if (!to_int(c.rest, n)) return c.fail("expect-sanitizer-finding wants a line number");
    if (!c.state.last_run) return c.fail("no run has finished");
    std::vector<std::string> seen;
    for (const SanitizerFinding& f : c.state.last_run->sanitizer_findings) {
        if (f.line == n) {
            c.say("finding: " + f.to_string());
            return Tick::Continue;
        }
        seen.push_back(std::to_string(f.line));
    }
    return c.fail("no compute-sanitizer finding on line " + std::to_string(n) + " (findings on lines: " +
                  join(seen, ", ") + "; status " + run_status_name(c.state.last_run->status) + ")");
}

// The window's size in screen coordinates, as --size and state.json give it.
Tick expect_window_size(Call& c) {
    long long w = 0, h = 0;
    if (c.words.size() != 2 || !to_int(c.words[0], w) || !to_int(c.words[1], h))
        return c.fail("expect-window-size wants W H");
    int got_w = 0, got_h = 0;
    if (GLFWwindow* window = glfwGetCurrentContext()) glfwGetWindowSize(window, &got_w, &got_h);
    if (got_w != w || got_h != h)
        return c.fail("the window is " + std::to_string(got_w) + "x" + std::to_string(got_h) + ", wanted " +
                      std::to_string(w) + "x" + std::to_string(h));
    return Tick::Continue;
}

// The "Trust lessons in <folder>?" modal is showing (app/trust.hpp).
Tick expect_trust_prompt(Call& c) {
    if (!c.state.trust.prompt_open)
        return c.fail(c.state.trust.trusted ? "no trust prompt: the open lesson is trusted"
                                            : "no trust prompt is showing (this folder was asked about already)");
    c.say("trust prompt for " + c.state.trust.folder.string());
    return Tick::Continue;
}

Tick expect_run_disabled(Call& c) {
    const std::string want = unquote(c.rest);
    check_launch_settings(c.state);
    const std::string why = run_blocked_reason(c.state);
    if (why.empty()) return c.fail("Run is enabled (wanted it disabled with a reason containing '" + want + "')");
    if (why.find(want) == std::string::npos)
        return c.fail("Run is disabled because '" + why + "', which does not contain '" + want + "'");
    c.say("run disabled: " + why);
    return Tick::Continue;
}

Tick expect_run_not_started(Call& c) {
    const std::string want = unquote(c.rest);
    if (!c.run_pressed()) return c.fail("no `run` command has pressed Run");
    if (c.run_refused().empty()) return c.fail("the latest `run` started a run (Run was enabled)");
    if (c.run_refused().find(want) == std::string::npos)
        return c.fail("Run was disabled because '" + c.run_refused() + "', which does not contain '" + want + "'");
    return Tick::Continue;
}

// A line of the session's log (the Log tab) contains SUBSTRING.
Tick expect_log(Call& c) {
    const std::string want = unquote(c.rest);
    if (want.empty()) return c.fail("expect-log wants SUBSTRING");
    for (const LogLine& line : c.state.log) {
        if (line.text.find(want) != std::string::npos) {
            c.say("log: " + line.text);
            return Tick::Continue;
        }
    }
    return c.fail("no log line contains '" + want + "'");
}

Tick worker_pid(Call& c) {
    if (c.state.worker_pid <= 0) return c.fail("no cuda-workbook-worker has been started");
    c.say("worker pid " + std::to_string(c.state.worker_pid));
    return Tick::Continue;
}

// [SECTION] handlers: looking at what was drawn -----------------------------------------------

bool something_drawn(Call& c) { return c.state.drawn.frame > 0; }

// The names the open lesson gives (its id, steps, buffers, params, cases,
// kernels): what the window shows as the lesson wrote them, in any language.
std::set<std::string> lesson_names(const AppState& state) {
    std::set<std::string> names;
    if (!state.lesson) return names;
    auto add_words = [&](const std::string& s) {
        std::string w;
        for (char ch : s + " ") {
            if (std::isalpha(static_cast<unsigned char>(ch))) w += ch;
            else if (!w.empty()) names.insert(std::exchange(w, std::string()));
        }
    };
    add_words(state.lesson->id);
    for (const Step& step : state.lesson->steps) {
        add_words(step.id);
        for (const auto& b : step.buffers) add_words(b.name);
        for (const auto& p : step.params) add_words(p.name);
        for (const auto& t : step.checks.cases) add_words(t.name);
        for (const auto& l : step.launches) add_words(l.entry);
    }
    return names;
}

// expect-no-english [WORD...]: the latest frame drew no English (runtime/core/untranslated.hpp),
// beyond the lesson's names and the WORDs given.
Tick expect_no_english(Call& c) {
    if (!something_drawn(c)) return c.fail("no frame has been drawn yet");
    std::set<std::string> allowed = lesson_names(c.state);
    for (const std::string& w : split_words(c.rest)) allowed.insert(w);
    const std::vector<EnglishFound> found = english_in(c.state.drawn.all_text, allowed);
    if (found.empty()) {
        c.say("no English in frame " + std::to_string(c.state.drawn.frame) + " (" +
              std::to_string(c.state.drawn.all_text.size()) + " bytes of text)");
        return Tick::Continue;
    }
    std::string list;
    for (const EnglishFound& f : found) list += "\n    '" + f.words + "' in: " + f.line;
    return c.fail(std::to_string(found.size()) + " English in frame " + std::to_string(c.state.drawn.frame) + ":" + list);
}

// expect-instructions-lines N: the instructions had room for N lines of body text or more.
Tick expect_instructions_lines(Call& c) {
    long long want = 0;
    if (!to_int(c.rest, want)) return c.fail("expect-instructions-lines wants N");
    const int got = c.state.drawn.instructions_lines;
    if (got < want) return c.fail("the instructions show " + std::to_string(got) + " lines, wanted " + c.rest + " or more");
    c.say("instructions show " + std::to_string(got) + " lines");
    return Tick::Continue;
}

// expect-launch-params-shown: the launch panel's last row was drawn whole without scrolling.
Tick expect_launch_params_shown(Call& c) {
    if (!c.state.drawn.launch_params_shown) return c.fail("the launch panel's last row is below its fold");
    c.say("launch params shown without scrolling");
    return Tick::Continue;
}

// expect-verdict-uncovered: the popped-out instructions' window lies off the results' verdict.
Tick expect_verdict_uncovered(Call& c) {
    const PanelRect& w = c.state.drawn.instructions_window;
    const PanelRect& v = c.state.drawn.verdict;
    if (v.size.y <= 0) return c.fail("no verdict was drawn");
    auto text = [](const PanelRect& r) {
        return std::to_string(int(r.pos.x)) + " " + std::to_string(int(r.pos.y)) + " " + std::to_string(int(r.size.x)) +
               " " + std::to_string(int(r.size.y));
    };
    const bool covers = w.size.x > 0 && w.pos.x < v.pos.x + v.size.x && v.pos.x < w.pos.x + w.size.x &&
                        w.pos.y < v.pos.y + v.size.y && v.pos.y < w.pos.y + w.size.y;
    if (covers) return c.fail("the instructions' window (" + text(w) + ") covers the verdict (" + text(v) + ")");
    c.say("verdict " + text(v) + " uncovered; instructions window " + text(w));
    return Tick::Continue;
}

// expect-instructions-popped on|off
Tick expect_instructions_popped(Call& c) {
    if (c.rest != "on" && c.rest != "off") return c.fail("expect-instructions-popped wants on or off");
    if (c.state.layout.instructions_popped != (c.rest == "on"))
        return c.fail(std::string("the instructions are ") + (c.state.layout.instructions_popped ? "popped out" : "docked"));
    c.say(std::string("instructions ") + (c.rest == "on" ? "popped out" : "docked"));
    return Tick::Continue;
}

// dump-text FILE: the latest frame's text, for writing a test.
Tick dump_text(Call& c) {
    if (c.rest.empty()) return c.fail("dump-text wants FILE");
    std::ofstream out(unquote(c.rest));
    out << c.state.drawn.all_text;
    if (!out) return c.fail("could not write " + c.rest);
    c.say("wrote the frame's text to " + c.rest);
    return Tick::Continue;
}

Tick expect_drawn_marker(Call& c) {
    long long n = 0;
    if (!to_int(c.rest, n)) return c.fail("expect-drawn-marker wants a line number");
    if (!something_drawn(c)) return c.fail("no frame has been drawn yet");
    const std::vector<int>& lines = c.state.drawn.marker_lines;
    if (std::find(lines.begin(), lines.end(), n) != lines.end()) {
        c.say("drawn marker on line " + std::to_string(n) + " (frame " + std::to_string(c.state.drawn.frame) + ")");
        return Tick::Continue;
    }
    std::vector<std::string> seen;
    for (int line : lines) seen.push_back(std::to_string(line));
    return c.fail("the editor drew no marker on line " + std::to_string(n) + " (markers drawn on lines: " +
                  join(seen, ", ") + ")");
}

// The Memory access tab and the editor's access marks, as the latest frame drew them.
Tick expect_access_line(Call& c) {
    long long line = 0;
    if (c.words.size() < 4 || c.words.size() > 5 || !to_int(c.words[0], line))
        return c.fail("expect-access-line wants LINE OP SPACE FIGURE [fits|extra|heavy]");
    if (!something_drawn(c)) return c.fail("no frame has been drawn yet");
    std::vector<std::string> seen;
    for (const DrawnAccessRow& row : c.state.drawn.access_rows) {
        const std::string text = std::to_string(row.line) + " " + row.op + " " + row.space + " " + row.figure + " " + row.cost;
        if (row.line == line && row.op == c.words[1] && row.space == c.words[2]) {
            if (row.figure != c.words[3] || (c.words.size() == 5 && row.cost != c.words[4]))
                return c.fail("the access table drew line " + std::to_string(line) + " " + row.op + " " + row.space + " as " +
                              row.figure + " (" + row.cost + "), wanted " + c.words[3] + (c.words.size() == 5 ? " (" + c.words[4] + ")" : ""));
            c.say("access row: " + text);
            return Tick::Continue;
        }
        seen.push_back(text);
    }
    return c.fail("the access table drew no row for line " + std::to_string(line) + " " + c.words[1] + " " + c.words[2] +
                  " (rows drawn: " + join(seen, "; ") + ")");
}

Tick expect_access_picture(Call& c) {
    long long n = 0;
    if (c.words.size() != 2 || (c.words[0] != "sectors" && c.words[0] != "ways") || !to_int(c.words[1], n))
        return c.fail("expect-access-picture wants sectors N or ways N");
    if (!something_drawn(c)) return c.fail("no frame has been drawn yet");
    const DrawnFrame& d = c.state.drawn;
    const std::string want = c.words[0] + " " + c.words[1];
    if (d.access_picture != want)
        return c.fail("the warp picture drew " + (d.access_picture.empty() ? std::string("nothing") : d.access_picture) + ", wanted " + want);
    c.say("access picture: " + d.access_picture + ", request " + std::to_string(d.access_request) + " of " +
          std::to_string(d.access_requests));
    return Tick::Continue;
}

Tick expect_access_threads(Call& c) {
    long long n = 0;
    if (!to_int(c.rest, n)) return c.fail("expect-access-threads wants a number of threads");
    if (!something_drawn(c)) return c.fail("no frame has been drawn yet");
    if (c.state.drawn.access_cells != n)
        return c.fail("the per-thread view drew " + std::to_string(c.state.drawn.access_cells) + " threads, wanted " + std::to_string(n));
    c.say("access threads: " + std::to_string(n));
    return Tick::Continue;
}

Tick gutter_mark(Call& c, bool wanted) {
    long long line = 0;
    if (c.words.empty() || c.words.size() > (wanted ? 2u : 1u) || !to_int(c.words[0], line))
        return c.fail(wanted ? "expect-gutter-mark wants LINE [fits|extra|heavy]" : "expect-no-gutter-mark wants LINE");
    if (!something_drawn(c)) return c.fail("no frame has been drawn yet");
    std::vector<std::string> seen;
    const std::string* cost = nullptr;
    for (const auto& [at, what] : c.state.drawn.gutter_marks) {
        seen.push_back(std::to_string(at) + " " + what);
        if (at == line) cost = &what;
    }
    if (!wanted) {
        if (cost) return c.fail("the editor drew an access mark on line " + std::to_string(line) + " (" + *cost + ")");
        return Tick::Continue;
    }
    if (!cost) return c.fail("the editor drew no access mark on line " + std::to_string(line) + " (marks drawn: " + join(seen, ", ") + ")");
    if (c.words.size() == 2 && *cost != c.words[1])
        return c.fail("the access mark on line " + std::to_string(line) + " is " + *cost + ", wanted " + c.words[1]);
    c.say("gutter mark on line " + std::to_string(line) + " (" + *cost + ")");
    return Tick::Continue;
}
Tick expect_gutter_mark(Call& c) { return gutter_mark(c, true); }
Tick expect_no_gutter_mark(Call& c) { return gutter_mark(c, false); }

Tick expect_drawn_run_button(Call& c) {
    if (c.rest != "disabled" && c.rest != "enabled") return c.fail("expect-drawn-run-button wants disabled or enabled");
    if (!something_drawn(c)) return c.fail("no frame has been drawn yet");
    const DrawnFrame& d = c.state.drawn;
    if (!d.run_button) return c.fail("the latest frame drew no Run button");
    const char* got = d.run_disabled ? "disabled" : "enabled";
    if (c.rest != got) return c.fail(std::string("the Run button was drawn ") + got);
    c.say(std::string("Run button drawn ") + got + " (frame " + std::to_string(d.frame) + ")");
    return Tick::Continue;
}

Tick expect_drawn_cursor_line(Call& c) {
    long long line = 0;
    if (!to_int(c.rest, line) || line < 1) return c.fail("expect-drawn-cursor-line wants a line number");
    if (!something_drawn(c)) return c.fail("no frame has been drawn yet");
    if (c.state.drawn.cursor_line != line)
        return c.fail("the editor's caret was drawn on line " + std::to_string(c.state.drawn.cursor_line) + ", not " + c.rest);
    c.say("caret drawn on line " + c.rest);
    return Tick::Continue;
}

Tick expect_drawn_find_bar(Call& c) {
    if (!something_drawn(c)) return c.fail("no frame has been drawn yet");
    if (!c.state.drawn.find_bar) return c.fail("the editor's find bar was not drawn");
    return Tick::Continue;
}

// Prints where the latest frame put a panel, for tests that look at pixels.
Tick panel_rect(Call& c) {
    if (!something_drawn(c)) return c.fail("no frame has been drawn yet");
    const Layout& l = c.state.drawn.layout;
    const std::pair<const char*, const PanelRect*> panels[] = {
        {"lessons", &l.lessons}, {"device", &l.device},   {"editor", &l.editor},           {"instructions", &l.instructions},
        {"launch", &l.launch},   {"results", &l.results}, {"diagnostics", &l.diagnostics}};
    for (const auto& [name, r] : panels)
        if (c.rest == name) {
            c.say("panel " + c.rest + " " + std::to_string(int(r->pos.x)) + " " + std::to_string(int(r->pos.y)) + " " +
                  std::to_string(int(r->size.x)) + " " + std::to_string(int(r->size.y)));
            return Tick::Continue;
        }
    return c.fail("panel-rect wants one of lessons, device, editor, instructions, launch, results, diagnostics");
}

Tick expect_drawn_text(Call& c) {
    const std::string want = unquote(c.rest);
    if (want.empty()) return c.fail("expect-drawn-text wants SUBSTRING");
    if (!something_drawn(c)) return c.fail("no frame has been drawn yet");
    for (const std::string& text : c.state.drawn.texts) {
        if (text.find(want) != std::string::npos) {
            c.say("drawn: " + text);
            return Tick::Continue;
        }
    }
    return c.fail("the latest frame drew nothing containing '" + want + "' (drawn: " + join(c.state.drawn.texts, " | ") + ")");
}

// N, <N or >N: what the Timeline tab drew in the latest frame.
Tick expect_drawn_timeline(Call& c, int DrawnFrame::*field, const char* what) {
    const std::string& want = c.rest;
    const char op = !want.empty() && (want[0] == '<' || want[0] == '>') ? want[0] : '=';
    long long n = 0;
    if (!to_int(op == '=' ? want : want.substr(1), n)) return c.fail(std::string("wants N, <N or >N ") + what);
    if (!something_drawn(c)) return c.fail("no frame has been drawn yet");
    const int got = c.state.drawn.*field;
    if (got < 0) return c.fail("the latest frame drew no timeline (the Timeline tab of a host step's run)");
    const bool ok = op == '<' ? got < n : op == '>' ? got > n : got == n;
    if (!ok) return c.fail("the timeline drew " + std::to_string(got) + " " + what + ", wanted " + want);
    c.say("timeline drew " + std::to_string(got) + " " + what + " (frame " + std::to_string(c.state.drawn.frame) + ")");
    return Tick::Continue;
}
Tick expect_drawn_timeline_lanes(Call& c) { return expect_drawn_timeline(c, &DrawnFrame::timeline_lanes, "lanes"); }
Tick expect_drawn_timeline_bars(Call& c) { return expect_drawn_timeline(c, &DrawnFrame::timeline_bars, "bars"); }

Tick expect_no_drawn_text(Call& c) {
    const std::string want = unquote(c.rest);
    if (want.empty()) return c.fail("expect-no-drawn-text wants SUBSTRING");
    if (!something_drawn(c)) return c.fail("no frame has been drawn yet");
    for (const std::string& text : c.state.drawn.texts)
        if (text.find(want) != std::string::npos) return c.fail("the latest frame drew '" + text + "'");
    return Tick::Continue;
}

// [SECTION] the command table -----------------------------------------------------------------

struct Command {
    std::string_view name;
    Tick (*handler)(Call&);
};

constexpr Command kCommands[] = {
    {"open", open_lesson},
    {"reset-starter", reset_starter},
    {"show-solution", show_solution},
    {"answer-replace", answer_replace},
    {"undo", undo},
    {"stop", stop},
    {"check-all", check_all},
    {"expect-done", expect_done},
    {"expect-work-contains", expect_work_contains},
    {"expect-history-contains", expect_history_contains},
    {"set-block", set_block},
    {"set-grid", set_grid},
    {"auto-grid", auto_grid},
    {"set-param", set_param},
    {"case", choose_case},
    {"edit-line", edit_line},
    {"set-source", set_source},
    {"copy-file", copy_file},
    {"compile", compile},
    {"run", run},
    {"run-anyway", run_anyway},
    {"check-memory", check_memory},
    {"check-races", check_races},
    {"expand-results", expand_results},
    {"emulator", emulator},
    {"collapse-lessons", collapse_lessons},
    {"results-tab", results_tab},
    {"access-select-line", access_select_line},
    {"access-request", access_request},
    {"load-result-timeline", load_result_timeline},
    {"timeline-zoom", timeline_zoom_command},
    {"sweep", sweep},
    {"monitor", monitor},
    {"expect-reference-built", expect_reference_built},
    {"expect-sweep", expect_sweep},
    {"set-caret", set_caret},
    {"pop-instructions", pop_instructions},
    {"pin-instructions", pin_instructions},
    {"place-instructions", place_instructions},
    {"set-content-scale", set_content_scale},
    {"press", press},
    {"open-external", open_external},
    {"export-python", export_python_cmd},
    {"answer-trust", answer_trust_prompt},
    {"close-window", close_window},
    {"screenshot", screenshot},
    {"quit", quit},
    {"wait", wait},
    {"sleep", sleep},
    {"frames", frames},
    {"wait-for-file", wait_for_file},
    {"wait-reload", wait_reload},
    {"expect-frames-during-compile", expect_frames_during_compile},
    {"expect-marker", expect_marker},
    {"expect-refused", expect_refused},
    {"expect-status", expect_status},
    {"expect-compiled", expect_compiled},
    {"expect-source-contains", expect_source_contains},
    {"expect-saved", expect_saved},
    {"expect-view", expect_view},
    {"expect-shaders", expect_shaders},
    {"expect-history", expect_history},
    {"expect-sanitizer-finding", expect_sanitizer_finding},
    {"expect-window-size", expect_window_size},
    {"expect-trust-prompt", expect_trust_prompt},
    {"expect-run-disabled", expect_run_disabled},
    {"expect-run-not-started", expect_run_not_started},
    {"expect-log", expect_log},
    {"worker-pid", worker_pid},
    {"worker-command", worker_command},
    {"expect-drawn-marker", expect_drawn_marker},
    {"expect-drawn-run-button", expect_drawn_run_button},
    {"expect-access-line", expect_access_line},
    {"expect-access-picture", expect_access_picture},
    {"expect-access-threads", expect_access_threads},
    {"expect-gutter-mark", expect_gutter_mark},
    {"expect-no-gutter-mark", expect_no_gutter_mark},
    {"expect-drawn-text", expect_drawn_text},
    {"expect-drawn-cursor-line", expect_drawn_cursor_line},
    {"expect-drawn-find-bar", expect_drawn_find_bar},
    {"panel-rect", panel_rect},
    {"expect-no-drawn-text", expect_no_drawn_text},
    {"expect-drawn-timeline-lanes", expect_drawn_timeline_lanes},
    {"expect-drawn-timeline-bars", expect_drawn_timeline_bars},
    {"expect-no-english", expect_no_english},
    {"dump-text", dump_text},
    {"expect-instructions-lines", expect_instructions_lines},
    {"expect-launch-params-shown", expect_launch_params_shown},
    {"expect-verdict-uncovered", expect_verdict_uncovered},
    {"expect-instructions-popped", expect_instructions_popped},
};

}  // namespace

// [SECTION] Script: reading the file, ticking, waiting ----------------------------------------

std::unique_ptr<Script> Script::load(const std::string& path, std::string& error) {
    try {
        return std::unique_ptr<Script>(new Script(split_lines(read_file(path, 1u << 20))));
    } catch (const Error& e) {
        error = e.describe();
        return nullptr;
    }
}

Script::Tick Script::fail(const std::string& what) {
    std::fprintf(stderr, "script: line %zu: %s\n", current_, what.c_str());
    std::printf("script: line %zu: FAILED: %s\n", current_, what.c_str());
    std::fflush(stdout);
    std::fflush(stderr);
    return Tick::Failed;
}

void Script::say(const std::string& what) const {
    std::printf("script: line %zu: %s\n", current_, what.c_str());
    std::fflush(stdout);
}

// Presses Run for a `run` command whose device check is done: the button's
// own rule (run_blocked_reason) decides, as it does for the student.
void Script::press_run(AppState& state) {
    check_launch_settings(state);
    run_pressed_ = true;
    run_refused_ = run_blocked_reason(state);
    if (run_refused_.empty()) state.requests.run = true;
    else say("Run is disabled, no run started: " + run_refused_);
}

// Returns Continue while a command that spans frames is still waiting (or
// has just finished waiting: the next command runs on the next frame).
Script::Tick Script::keep_waiting(AppState& state, bool jobs_idle) {
    const bool timed_out = state.now > wait_until_;
    switch (waiting_) {
    case Waiting::Nothing:
        return Tick::Continue;
    case Waiting::Frames:
        if (--frames_left_ > 0) return Tick::Continue;
        break;
    case Waiting::Sleep:
        if (state.now < wait_until_) return Tick::Continue;
        break;
    case Waiting::Idle: {
        // Idle means: nothing queued or running, and the text's latest revision
        // has been sent to the compiler (compile-as-you-type has caught up).
        const bool caught_up =
            state.lesson == nullptr || state.editor.compile_submitted_revision == state.editor.revision;
        if (!(jobs_idle && caught_up && !state.requests.compile && !state.requests.run && !state.requests.check_all)) {
            if (timed_out) return fail("timed out waiting for the jobs to finish");
            return Tick::Continue;
        }
        break;
    }
    case Waiting::DeviceCheck:
        if (!state.backend_known) {
            if (timed_out) return fail("timed out waiting for the device check");
            return Tick::Continue;
        }
        press_run(state);
        break;
    case Waiting::File: {
        std::error_code ec;
        if (!std::filesystem::exists(wait_file_, ec)) {
            if (timed_out) return fail("timed out waiting for " + wait_file_);
            return Tick::Continue;
        }
        break;
    }
    case Waiting::Reload:
        if (state.lesson_watch.reloads <= reloads_before_) {
            if (timed_out) return fail("timed out waiting for the lesson to be reloaded");
            return Tick::Continue;
        }
        break;
    case Waiting::CompileStart:
        // The frame loop submits the requested compile after the frame that asked.
        if (state.last_submitted_job > job_before_) {
            job_target_ = state.last_submitted_job;
            waiting_ = Waiting::CompileFrames;
            frames_seen_ = 0;
        } else if (timed_out) {
            return fail("the compile was never started (no lesson open?)");
        }
        return Tick::Continue;
    case Waiting::CompileFrames:
        if (state.last_finished_job < job_target_) {
            ++frames_seen_;
            if (timed_out) return fail("timed out waiting for the compile to finish");
            return Tick::Continue;
        }
        say(std::to_string(frames_seen_) + " frames rendered while the compile ran");
        if (frames_seen_ < frames_wanted_)
            return fail("only " + std::to_string(frames_seen_) + " frames rendered during the compile, wanted at least " +
                        std::to_string(frames_wanted_));
        break;
    }
    waiting_ = Waiting::Nothing;
    return Tick::Continue;
}

Script::Tick Script::tick(AppState& state, bool jobs_idle) {
    if (!keys_down_.empty()) {  // a `press` had them down for the frame just drawn
        ImGuiIO& io = ImGui::GetIO();
        for (Key key : keys_down_) set_key_down(io, key, false);
        keys_down_.clear();
    }
    if (waiting_ != Waiting::Nothing) return keep_waiting(state, jobs_idle);
    while (next_ < lines_.size()) {
        const std::string line = trim(lines_[next_]);
        current_ = ++next_;
        if (line.empty() || line.front() == '#') continue;
        say(line);
        return run_command(state, line, jobs_idle);
    }
    return Tick::Quit;  // the end of the script is an implicit quit
}

Script::Tick Script::run_command(AppState& state, const std::string& line, bool jobs_idle) {
    const auto blank = line.find_first_of(" \t");
    const std::string name = line.substr(0, blank);
    const std::string rest = blank == std::string::npos ? std::string() : trim(line.substr(blank));
    for (const Command& command : kCommands) {
        if (command.name != name) continue;
        Call call(*this, state, rest, jobs_idle);
        return command.handler(call);
    }
    return fail("unknown command '" + name + "'");
}

}  // namespace wb::app
