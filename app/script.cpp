// app/script.cpp — the --script command interpreter (script.hpp).
#include "script.hpp"

#include "app_state.hpp"
#include "trust.hpp"
#include "panels/panels.hpp"
#include "panels/results_views.hpp"

#include "core/error.hpp"
#include "core/fs.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <charconv>
#include <cstdio>
#include <sstream>

namespace wb::app {
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

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::string line;
    std::istringstream in(text);
    while (std::getline(in, line)) lines.push_back(line);
    return lines;
}

std::string join_lines(const std::vector<std::string>& lines, bool trailing_newline) {
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        out += lines[i];
        if (i + 1 < lines.size() || trailing_newline) out += '\n';
    }
    return out;
}

}  // namespace

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

Script::Tick Script::tick(AppState& state, bool jobs_idle) {
    switch (waiting_) {
    case Waiting::Nothing:
        break;
    case Waiting::Frames:
        if (--frames_left_ > 0) return Tick::Continue;
        waiting_ = Waiting::Nothing;
        return Tick::Continue;
    case Waiting::Sleep:
        if (state.now < wait_until_) return Tick::Continue;
        waiting_ = Waiting::Nothing;
        return Tick::Continue;
    case Waiting::Idle: {
        // Idle means: nothing queued or running, and the text's latest revision
        // has been sent to the compiler (compile-as-you-type has caught up).
        const bool caught_up = state.lesson == nullptr ||
                               state.editor.compile_submitted_revision == state.editor.revision;
        if (jobs_idle && caught_up && !state.requests.compile && !state.requests.run) {
            waiting_ = Waiting::Nothing;
            return Tick::Continue;
        }
        if (state.now > wait_until_) return fail("timed out waiting for the jobs to finish");
        return Tick::Continue;
    }
    case Waiting::CompileStart:
        // The frame loop submits the requested compile after the frame that asked.
        if (state.last_submitted_job > job_before_) {
            job_target_ = state.last_submitted_job;
            waiting_ = Waiting::CompileFrames;
            frames_seen_ = 0;
        } else if (state.now > wait_until_) {
            return fail("the compile was never started (no lesson open?)");
        }
        return Tick::Continue;
    case Waiting::CompileFrames:
        if (state.last_finished_job < job_target_) {
            ++frames_seen_;
            if (state.now > wait_until_) return fail("timed out waiting for the compile to finish");
            return Tick::Continue;
        }
        waiting_ = Waiting::Nothing;
        std::printf("script: line %zu: %d frames rendered while the compile ran\n", current_, frames_seen_);
        std::fflush(stdout);
        if (frames_seen_ < frames_wanted_)
            return fail("only " + std::to_string(frames_seen_) + " frames rendered during the compile, wanted at least " +
                        std::to_string(frames_wanted_));
        return Tick::Continue;
    }

    while (next_ < lines_.size()) {
        const std::string line = trim(lines_[next_]);
        current_ = ++next_;
        if (line.empty() || line.front() == '#') continue;
        std::printf("script: line %zu: %s\n", current_, line.c_str());
        std::fflush(stdout);
        return run_command(state, line, jobs_idle);
    }
    return Tick::Quit;  // the end of the script is an implicit quit
}

Script::Tick Script::run_command(AppState& state, const std::string& line, bool jobs_idle) {
    (void)jobs_idle;
    std::istringstream in(line);
    std::string cmd;
    in >> cmd;
    std::string rest;
    std::getline(in, rest);
    rest = trim(rest);
    std::vector<std::string> words;
    {
        std::istringstream w(rest);
        std::string word;
        while (w >> word) words.push_back(word);
    }
    auto three_ints = [&](std::array<int, 3>& out) -> bool {
        if (words.size() < 1 || words.size() > 3) return false;
        std::array<int, 3> v{1, 1, 1};
        for (std::size_t i = 0; i < words.size(); ++i) {
            long long n = 0;
            if (!to_int(words[i], n) || n < -2147483647LL || n > 2147483647LL) return false;
            v[i] = static_cast<int>(n);
        }
        out = v;
        return true;
    };

    if (cmd == "open") {
        if (words.empty() || words.size() > 2) return fail("open wants LESSON_ID [STEP]");
        int found = -1;
        for (int i = 0; i < static_cast<int>(state.lessons.size()); ++i)
            if (state.lessons[static_cast<std::size_t>(i)].id() == words[0]) found = i;
        if (found < 0) return fail("no lesson '" + words[0] + "'");
        select_lesson(state, found);
        if (words.size() == 2) {
            const Lesson* lesson = state.lesson.get();
            const Step* step = lesson ? lesson->find_step(words[1]) : nullptr;
            if (!step) return fail("lesson '" + words[0] + "' has no step '" + words[1] + "'");
            select_step(state, static_cast<int>(step - lesson->steps.data()));
        }
        return Tick::Continue;
    }
    if (cmd == "set-block" || cmd == "set-grid") {
        std::array<int, 3> v{};
        if (!three_ints(v)) return fail(cmd + " wants 1 to 3 integers");
        if (cmd == "set-block") {
            state.launch.block = v;
        } else {
            state.launch.grid = v;
            state.launch.auto_grid = false;
        }
        return Tick::Continue;
    }
    if (cmd == "auto-grid") {
        if (rest != "on" && rest != "off") return fail("auto-grid wants on or off");
        state.launch.auto_grid = rest == "on";
        return Tick::Continue;
    }
    if (cmd == "set-param") {
        if (words.size() != 2) return fail("set-param wants NAME VALUE");
        const Step* step = selected_step(state);
        if (!step || !step->find_param(words[0])) return fail("no param '" + words[0] + "' in this step");
        try {
            state.launch.params[words[0]] = std::stod(words[1]);
        } catch (const std::exception&) {
            return fail("'" + words[1] + "' is not a number");
        }
        return Tick::Continue;
    }
    if (cmd == "case") {
        const Step* step = selected_step(state);
        if (!step || !step->find_case(rest)) return fail("no case '" + rest + "' in this step");
        reset_launch(state, rest);
        return Tick::Continue;
    }
    if (cmd == "edit-line") {
        std::istringstream e(rest);
        long long n = 0;
        std::string number;
        e >> number;
        std::string text;
        std::getline(e, text);
        if (!text.empty() && text.front() == ' ') text.erase(0, 1);
        std::vector<std::string> lines = split_lines(state.editor.text);
        if (!to_int(number, n) || n < 1 || n > static_cast<long long>(lines.size()) + 1)
            return fail("edit-line wants a line number from 1 to " + std::to_string(lines.size() + 1));
        if (n == static_cast<long long>(lines.size()) + 1) lines.push_back(text);
        else lines[static_cast<std::size_t>(n - 1)] = text;
        const bool trailing = !state.editor.text.empty() && state.editor.text.back() == '\n';
        set_editor_text(state, join_lines(lines, trailing || state.editor.text.empty()));
        return Tick::Continue;
    }
    if (cmd == "set-source") {
        try {
            set_editor_text(state, read_file(rest));
        } catch (const Error& e) {
            return fail(e.describe());
        }
        return Tick::Continue;
    }
    if (cmd == "check-memory" || cmd == "check-races") {
        if (!state.lesson) return fail("no lesson is open");
        state.requests.sanitize = cmd == "check-memory" ? SanitizerTool::Memcheck : SanitizerTool::Racecheck;
        state.requests.run_even_without_gpu = true;
        return Tick::Continue;
    }
    if (cmd == "expect-sanitizer-finding") {
        long long n = 0;
        if (!to_int(rest, n)) return fail("expect-sanitizer-finding wants a line number");
        if (!state.last_run) return fail("no run has finished");
        std::string seen;
        for (const SanitizerFinding& f : state.last_run->sanitizer_findings) {
            if (f.line == n) {
                std::printf("script: line %zu: finding: %s\n", current_, f.to_string().c_str());
                return Tick::Continue;
            }
            seen += (seen.empty() ? "" : ", ") + std::to_string(f.line);
        }
        return fail("no compute-sanitizer finding on line " + std::to_string(n) + " (findings on lines: " +
                    (seen.empty() ? "none" : seen) + "; status " + run_status_name(state.last_run->status) + ")");
    }
    if (cmd == "compile" || cmd == "run") {
        if (!state.lesson) return fail("no lesson is open");
        if (cmd == "compile") state.requests.compile = true;
        else state.requests.run = state.requests.run_even_without_gpu = true;
        return Tick::Continue;
    }
    if (cmd == "wait") {
        double seconds = kDefaultTimeout;
        if (!words.empty()) {
            try { seconds = std::stod(words[0]); } catch (const std::exception&) { return fail("wait wants SECONDS"); }
        }
        waiting_ = Waiting::Idle;
        wait_until_ = state.now + seconds;
        return Tick::Continue;
    }
    if (cmd == "sleep") {
        // Frames keep coming while it sleeps: timers (autosave, debounce) run as for a student.
        double seconds = 0;
        try { seconds = std::stod(rest); } catch (const std::exception&) { return fail("sleep wants SECONDS"); }
        waiting_ = Waiting::Sleep;
        wait_until_ = state.now + seconds;
        return Tick::Continue;
    }
    if (cmd == "expect-saved") {
        if (state.editor.saved_revision != state.editor.revision) return fail("the editor text is not saved yet");
        return Tick::Continue;
    }
    if (cmd == "frames") {
        long long n = 0;
        if (!to_int(rest, n) || n < 1) return fail("frames wants a positive number");
        waiting_ = Waiting::Frames;
        frames_left_ = static_cast<int>(n);
        return Tick::Continue;
    }
    if (cmd == "screenshot") {
        if (rest.empty()) return fail("screenshot wants FILE");
        screenshot_ = rest;
        return Tick::Continue;
    }
    if (cmd == "expect-marker") {
        long long n = 0;
        if (!to_int(rest, n)) return fail("expect-marker wants a line number");
        if (!state.compile) return fail("no compile has finished, so there are no markers");
        std::string seen;
        for (const Diagnostic& d : state.compile->diagnostics) {
            if (d.line == n) return Tick::Continue;
            seen += (seen.empty() ? "" : ", ") + std::to_string(d.line);
        }
        return fail("no diagnostic on line " + std::to_string(n) + " (diagnostics on lines: " +
                    (seen.empty() ? "none" : seen) + ")");
    }
    if (cmd == "expect-refused") {
        const std::string want = unquote(rest);
        check_launch_settings(state);
        if (state.launch_refusal.empty()) return fail("the launch is not refused (wanted a refusal containing '" + want + "')");
        if (state.launch_refusal.find(want) == std::string::npos)
            return fail("the refusal '" + state.launch_refusal + "' does not contain '" + want + "'");
        std::printf("script: line %zu: refused: %s\n", current_, state.launch_refusal.c_str());
        return Tick::Continue;
    }
    if (cmd == "expect-status") {
        if (!state.last_run) return fail("no run has finished");
        const std::string got = run_status_name(state.last_run->status);
        if (got != rest) return fail("run status is " + got + " (" + state.last_run->message + "), wanted " + rest);
        return Tick::Continue;
    }
    if (cmd == "expect-source-contains") {
        const std::string want = unquote(rest);
        if (state.editor.text.find(want) == std::string::npos)
            return fail("the editor text does not contain '" + want + "'");
        return Tick::Continue;
    }
    if (cmd == "expect-frames-during-compile") {
        long long n = 0;
        if (!to_int(rest, n) || n < 0) return fail("expect-frames-during-compile wants a number");
        if (!state.lesson) return fail("no lesson is open");
        state.requests.compile = true;
        waiting_ = Waiting::CompileStart;
        frames_wanted_ = static_cast<int>(n);
        job_before_ = state.last_submitted_job;
        wait_until_ = state.now + kDefaultTimeout;
        return Tick::Continue;
    }
    if (cmd == "expect-view") {
        // KIND BUFFER [SOURCE]: the results panel built a view of that kind for
        // that buffer, with data to draw (SOURCE: gpu+cpu, cpu, input, ...).
        if (words.size() < 2 || words.size() > 3) return fail("expect-view wants KIND BUFFER [SOURCE]");
        if (!state.last_run) return fail("no run has finished, so there are no views");
        const std::vector<std::string> built = describe_results_views(state);
        std::string seen;
        for (const std::string& line : built) {
            std::istringstream v(line);
            std::string kind, buffer, source, size;
            v >> kind >> buffer >> source >> size;
            const bool drawn = source != "missing" && !size.empty() && size != "0" && size != "0x0";
            if (kind == words[0] && buffer == words[1] && (words.size() < 3 || source == words[2]) && drawn) {
                std::printf("script: line %zu: view: %s\n", current_, line.c_str());
                return Tick::Continue;
            }
            seen += (seen.empty() ? "" : "; ") + line;
        }
        return fail("no " + words[0] + " view of '" + words[1] + "'" + (words.size() == 3 ? " from " + words[2] : "") +
                    " was built (views: " + (seen.empty() ? "none" : seen) + ")");
    }
    if (cmd == "expect-shaders") {
        // loaded | fallback: how the results views coloured their heat maps
        // (draw a few frames after the run first). Either way the shaders were
        // tried once and, when they failed, said so once in the log.
        if (rest != "loaded" && rest != "fallback") return fail("expect-shaders wants loaded or fallback");
        const ShaderUse use = shader_use(state);
        std::vector<std::string> logged;
        for (const LogLine& l : state.log)
            if (l.text.rfind("shaders", 0) == 0) logged.push_back(l.text);
        const std::string counts = std::to_string(use.shaded) + " pictures by the shaders, " +
                                   std::to_string(use.cpu) + " on the CPU";
        if (use.shaded + use.cpu == 0) return fail("no heat map or gray picture has been drawn yet");
        if (rest == "loaded" && (!use.loaded || use.cpu > 0 || !logged.empty()))
            return fail("the shaders were not used: " + counts + (logged.empty() ? "" : "; log: " + logged.front()));
        if (rest == "fallback" && (use.loaded || use.shaded > 0 || logged.size() != 1))
            return fail("wanted the CPU fallback with one log line: " + counts + ", " +
                        std::to_string(logged.size()) + " shader lines in the log");
        std::printf("script: line %zu: shaders: %s (%s)\n", current_, rest.c_str(), counts.c_str());
        for (const std::string& line : logged) std::printf("script: line %zu: log: %s\n", current_, line.c_str());
        return Tick::Continue;
    }
    if (cmd == "expand-results") {
        if (rest != "on" && rest != "off") return fail("expand-results wants on or off");
        state.results_expanded = rest == "on";
        return Tick::Continue;
    }
    if (cmd == "expect-history") {
        long long n = 0;
        if (!to_int(rest, n) || n < 0) return fail("expect-history wants a number of runs");
        const std::size_t got = step_history(state).size();
        if (got != static_cast<std::size_t>(n))
            return fail("this step has " + std::to_string(got) + " runs in its history, wanted " + std::to_string(n));
        return Tick::Continue;
    }
    if (cmd == "open-external") {
        state.requests.open_external = true;
        return Tick::Continue;
    }
    if (cmd == "expect-window-size") {
        // The window's size in screen coordinates, as --size and state.json give it.
        long long w = 0, h = 0;
        if (words.size() != 2 || !to_int(words[0], w) || !to_int(words[1], h)) return fail("expect-window-size wants W H");
        int got_w = 0, got_h = 0;
        if (GLFWwindow* window = glfwGetCurrentContext()) glfwGetWindowSize(window, &got_w, &got_h);
        if (got_w != w || got_h != h)
            return fail("the window is " + std::to_string(got_w) + "x" + std::to_string(got_h) + ", wanted " +
                        std::to_string(w) + "x" + std::to_string(h));
        return Tick::Continue;
    }
    if (cmd == "expect-trust-prompt") {
        // The "Trust lessons in <folder>?" modal is showing (app/trust.hpp).
        if (!state.trust.prompt_open)
            return fail(state.trust.trusted ? "no trust prompt: the open lesson is trusted"
                                            : "no trust prompt is showing (this folder was asked about already)");
        std::printf("script: line %zu: trust prompt for %s\n", current_, state.trust.folder.string().c_str());
        return Tick::Continue;
    }
    if (cmd == "answer-trust") {
        if (rest != "yes" && rest != "no") return fail("answer-trust wants yes or no");
        if (!state.trust.prompt_open) return fail("no trust prompt is showing");
        answer_trust(state, rest == "yes");
        return Tick::Continue;
    }
    if (cmd == "expect-run-disabled") {
        const std::string want = unquote(rest);
        check_launch_settings(state);
        const std::string why = run_blocked_reason(state);
        if (why.empty()) return fail("Run is enabled (wanted it disabled with a reason containing '" + want + "')");
        if (why.find(want) == std::string::npos) return fail("Run is disabled because '" + why + "', which does not contain '" + want + "'");
        std::printf("script: line %zu: run disabled: %s\n", current_, why.c_str());
        return Tick::Continue;
    }
    if (cmd == "quit") return Tick::Quit;
    return fail("unknown command '" + cmd + "'");
}

}  // namespace wb::app
