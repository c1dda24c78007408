// app/script.hpp — scripted mode (--script FILE): drives the real GUI from a
// text file, one command per line, so tests under Xvfb can do what a student
// does (open a lesson, edit, compile, run, screenshot) and check what shows.
//
// Commands (one per frame; `wait`, `frames` and expect-frames-during-compile
// span several frames):
//   open LESSON_ID [STEP]      set-block X Y Z      set-grid X Y Z
//   auto-grid on|off           set-param NAME VALUE case NAME
//   edit-line N TEXT           set-source FILE      compile      run
//   wait [SECONDS]             frames N             screenshot FILE
//   expect-marker LINE         expect-refused SUBSTRING
//   expect-status STATUS       expect-source-contains TEXT
//   expect-frames-during-compile N                  sleep SECONDS
//   expect-saved (the editor text is on disk)        open-external
//   expect-view KIND BUFFER [SOURCE]  (the results panel built that view, with
//                              data; SOURCE is gpu+cpu, gpu, cpu or input)
//   expect-history N           (the current step has N runs this session)
//   expand-results on|off      (the results panel's Expand button)
//   expect-shaders loaded|fallback  (the heat maps drawn so far were coloured by
//                              shaders/, or on the CPU after one log line saying why)
//   expect-window-size W H (screen coordinates)
//   expect-trust-prompt        ("Trust lessons in <folder>?" is showing)
//   answer-trust yes|no        (the student's answer to it)
//   expect-run-disabled SUBSTRING  (Run is off, with a reason containing SUBSTRING)
//   quit
// Blank lines and lines starting with '#' are skipped. Each command is echoed
// as "script: line K: COMMAND"; a failure prints "script: line K: <what
// failed>" on stderr and the app exits with status 3.
#pragma once

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

private:
    explicit Script(std::vector<std::string> lines) : lines_(std::move(lines)) {}
    Tick fail(const std::string& what);
    Tick run_command(AppState& state, const std::string& line, bool jobs_idle);

    std::vector<std::string> lines_;
    std::size_t next_ = 0;      // index of the command to run next
    std::size_t current_ = 0;   // 1-based line of the command being run
    std::string screenshot_;

    // A command that spans frames.
    enum class Waiting { Nothing, Idle, Frames, Sleep, CompileStart, CompileFrames };
    Waiting waiting_ = Waiting::Nothing;
    double wait_until_ = 0.0;   // timeout (Idle, compile) in AppState::now seconds
    int frames_left_ = 0;
    int frames_wanted_ = 0;
    int frames_seen_ = 0;
    std::uint64_t job_before_ = 0;
    std::uint64_t job_target_ = 0;
};

}  // namespace wb::app
