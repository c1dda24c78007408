// app/script.hpp — scripted mode (--script FILE): drives the real GUI from a
// text file, one command per line, so tests under Xvfb can do what a student
// does (open a lesson, edit, compile, run, screenshot) and check what shows.
//
// Commands run one per frame; those marked (waits) span several frames.
// Acting as the student:
//   open LESSON_ID [STEP]      set-block X Y Z      set-grid X Y Z
//   auto-grid on|off           set-param NAME VALUE case NAME
//   edit-line N TEXT           set-source FILE      compile
//   run                        (waits for the device check, then presses Run;
//                              when Run is disabled nothing starts and the line
//                              "Run is disabled, no run started: WHY" is printed)
//   run-anyway                 (starts a run even where Run is disabled for want
//                              of a GPU, so tests without one exercise the
//                              pipeline: it ends compile-only; an untrusted
//                              lesson still does not run)
//   check-memory | check-races (a run under compute-sanitizer; anyway, as above)
//   expand-results on|off      open-external        answer-trust yes|no
//   export-python cupy|torch|numba|cuda-core  (the Export to Python menu's item)
//   collapse-lessons on|off    (the lesson list's "<<" / ">>")
//   results-tab views|timeline|check|timings|roofline|buffers|access|sweep|resources|ptx|sass  (clicks that tab)
//   access-select-line LINE [OP SPACE]  (clicks the Memory access table's row of
//                              that line: the first, or the one of OP (load, store,
//                              atomic) and SPACE (global, shared); the warp picture
//                              shows its first recorded request)
//   access-request next|prev   (the warp picture's Next or Previous button; fails
//                              where the button is disabled)
//   load-result-timeline FILE  (a host step's run from a test fixture becomes the
//                              last run of the open step, as a finished run would:
//                              FILE is a timeline's JSON, or a result's JSON form
//                              with a "timeline", as `run --json` prints it; see script.cpp)
//   timeline-zoom FACTOR [AT_US]  (as the wheel over the Timeline tab: < 1 zooms in,
//                              around AT_US from run()'s start, else the middle)
//   sweep blocks | sweep NAME=VALUES  (the Sweep tab's Run sweep, over block sizes
//                              or the param NAME; anyway, as run-anyway)
//   monitor on|off             (View > GPU monitor)
//   set-caret LINE             (the editor's caret to that line, as a click there)
//   pop-instructions on|off    (the instructions' "Pop out" / "Dock")
//   press KEYS                 (keys down for one frame: f8, ctrl+s, ctrl+shift+l,
//                              ctrl+equal, ctrl+minus, ctrl+0, ctrl+enter, ctrl+f)
//   set-content-scale S        (stands in for the monitor's content scale, as
//                              when the window moves to a 4K screen at 200%;
//                              0 gives the monitor's own back)
//   close-window               (what the window's close button does: the app
//                              saves and exits 0)
//   quit                       (the end of the script is a quit too)
// Acting as the instructor:
//   copy-file SRC DEST         (SRC's bytes replace DEST: a lesson or side file saved)
// Waiting:
//   wait [SECONDS]             (waits: jobs done, the latest text compiled)
//   sleep SECONDS (waits)      frames N (waits)
//   wait-for-file FILE [SECONDS]  (waits until FILE exists: a test outside the
//                              app says it has done its part, e.g. killed the worker)
//   wait-reload [SECONDS]      (waits until the open lesson's changed files are
//                              reloaded, whether they loaded or not; default 10 s)
// Looking at the state:
//   expect-marker LINE         expect-refused SUBSTRING
//   expect-status STATUS       expect-source-contains TEXT
//   expect-compiled            (the latest compile is of the text as it is now,
//                              and it succeeded)
//   expect-frames-during-compile N (waits)
//   expect-saved (the editor text is on disk)
//   reset-starter | show-solution (as those buttons: the popup asks next)
//   answer-replace yes|no      (Yes or Cancel in that popup)
//   undo                       (Ctrl+Z in the editor)
//   stop                       (the Stop button beside a run's progress)
//   check-all                  (the "Check all cases" button; waits for every case)
//   expect-done on|off         (the open step is marked done: every case passed with one text)
//   expect-work-contains STEP TEXT  (the open lesson's STEP has saved work containing TEXT)
//   expect-history-contains TEXT    (a copy of replaced text in the lesson's work history has TEXT)
//   expect-view KIND BUFFER [SOURCE]  (the results panel built that view, with
//                              data; SOURCE is gpu+cpu, gpu, cpu or input)
//   expect-history N           (the current step has N runs this session)
//   expect-reference-built     (a compile built the step's CPU reference, before any Run)
//   expect-sweep N STATUS      (the finished sweep has N points, each of them STATUS)
//   expect-shaders loaded|fallback  (the heat maps drawn so far were coloured by
//                              shaders/, or on the CPU after one log line saying why)
//   expect-window-size W H (screen coordinates)
//   expect-trust-prompt        ("Trust lessons in <folder>?" is showing)
//   expect-run-disabled SUBSTRING  (Run is off, with a reason containing SUBSTRING)
//   expect-run-not-started SUBSTRING  (the latest `run` found Run disabled, for
//                              a reason containing SUBSTRING, and started nothing)
//   expect-log SUBSTRING       (a line of the session's log contains it)
//   worker-pid                 (prints "worker pid N": this app's cuda-workbook-worker)
//   worker-command [CMD]       (the device panel's Worker command, then Apply; empty: this computer)
// Looking at what the latest frame drew (AppState::drawn, recorded at the
// draw calls; each command runs after the frame that followed the previous one):
//   expect-drawn-marker LINE   (the editor painted a marker on that line)
//   expect-no-english [WORD...] (no English in any text the frame drew: widgets,
//                              menus, tabs, tooltips, legends; the lesson's names
//                              and the WORDs are allowed; runtime/core/untranslated.hpp)
//   dump-text FILE             (writes the text the frame drew, a line per row)
//   expect-instructions-lines N  (the instructions had room for N body lines or more)
//   expect-launch-params-shown (the launch panel's last row drawn whole, unscrolled)
//   expect-verdict-uncovered   (the popped-out instructions lie off the results' verdict)
//   expect-instructions-popped on|off
//   pin-instructions on|off    (the popped window's "Keep in its own window next time")
//   place-instructions X Y W H (drags the popped-out instructions there)
//   expect-drawn-run-button disabled|enabled
//   expect-drawn-text SUBSTRING      (the launch refusal, a diagnostic, the
//                              device note, "and N more", the instructions'
//                              "lesson / step" heading, each line of the lesson
//                              file's error banner, a broken lesson's first
//                              problem in the lesson list...)
//   expect-no-drawn-text SUBSTRING
//   expect-drawn-cursor-line N (the editor's caret is on line N)
//   expect-drawn-find-bar      (the editor's find bar, Ctrl+F, is open)
//   expect-drawn-timeline-lanes N|<N|>N  (the Timeline tab drew that many lanes; 0:
//                              its message instead)
//   expect-drawn-timeline-bars N|<N|>N   (...and that many bars in the visible range)
//   expect-access-line LINE OP SPACE FIGURE [fits|extra|heavy]  (the Memory access
//                              table drew that row with FIGURE, sectors per request
//                              or bank-conflict ways as printed ("32.00"), and that cost)
//   expect-access-picture sectors|ways N  (the warp picture drew N sectors, or N
//                              rows of banks: the request's passes)
//   expect-access-threads N    (the per-thread view drew N threads)
//   expect-gutter-mark LINE [fits|extra|heavy]  (the editor painted an access mark
//                              on that line, of that cost)
//   expect-no-gutter-mark LINE
//   panel-rect NAME            (prints "panel NAME X Y W H", where the latest
//                              frame put lessons, device, editor, instructions,
//                              launch, results or diagnostics)
// Blank lines and lines starting with '#' are skipped. Each command is echoed
// as "script: line K: COMMAND"; a failure prints "script: line K: <what
// failed>" on stderr and the app exits with status 3. A new command is one
// handler and one line in script.cpp's table.
#pragma once

#include "widgets/keys.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace wb::app {

struct AppState;

class Script {
public:
    enum class Tick { Continue, Quit, Failed };
    static constexpr int kFailedExitStatus = 3;

    // nullptr with `error` set when the file cannot be read.
    static std::unique_ptr<Script> load(const std::string& path, std::string& error);

    // Runs (or keeps waiting on) the current command. Called once per frame
    // before drawing; `jobs_idle` says the worker has nothing queued or running.
    Tick tick(AppState& state, bool jobs_idle);

    // A screenshot the script asked for this frame ("" when none); the frame
    // loop saves it after rendering and calls screenshot_done.
    const std::string& pending_screenshot() const { return screenshot_; }
    void screenshot_done() { screenshot_.clear(); }

    // What a command that spans frames waits for.
    enum class Waiting { Nothing, Idle, Frames, Sleep, CompileStart, CompileFrames, DeviceCheck, File, Reload };
    // One command as its handler sees it (script.cpp): the state, the
    // command's words, and what a handler may do to the script.
    class Call;

private:
    explicit Script(std::vector<std::string> lines) : lines_(std::move(lines)) {}
    Tick fail(const std::string& what);
    void say(const std::string& what) const;  // "script: line K: what" on stdout
    Tick keep_waiting(AppState& state, bool jobs_idle);
    Tick run_command(AppState& state, const std::string& line, bool jobs_idle);
    void press_run(AppState& state);  // `run` once the device check is done

    std::vector<std::string> lines_;
    std::size_t next_ = 0;      // index of the command to run next
    std::size_t current_ = 0;   // 1-based line of the command being run
    std::string screenshot_;

    Waiting waiting_ = Waiting::Nothing;
    double wait_until_ = 0.0;   // timeout (Idle, compile, device, file) in AppState::now seconds
    int frames_left_ = 0;
    int frames_wanted_ = 0;
    int frames_seen_ = 0;
    std::uint64_t job_before_ = 0;
    std::uint64_t job_target_ = 0;
    std::string wait_file_;     // Waiting::File
    std::uint64_t reloads_before_ = 0;  // Waiting::Reload: AppState::lesson_watch.reloads at the start
    bool run_pressed_ = false;  // a `run` command has pressed Run...
    std::string run_refused_;   // ...and found it disabled for this reason ("" when it started a run)
    std::vector<Key> keys_down_;  // `press`: keys held down for one frame
};

}  // namespace wb::app
