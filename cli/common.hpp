// cli/common.hpp — what every cuda-workbook-cli command shares: the exit codes,
// the options' declarations, the trust gate, and the text helpers the commands print with.
//
// Each command lives in cli/commands/<name>.cpp and is declared in
// cli/commands/commands.hpp as a CommandSpec; cli/main.cpp reads the command
// line with CLI11 (cli/command_line.hpp) and runs it. A command throws
// UsageError for a bad command line (main prints it and exits 2).
#pragma once

#include "lesson/lesson.hpp"
#include "lesson/loader.hpp"
#include "pipeline/run.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace wb {
struct Diagnostic;
struct RunResult;
struct RunRequest;
class RunBackend;
enum class Executor;
}  // namespace wb

namespace wb::cli {

enum Exit { kOk = 0, kFailed = 1, kUsage = 2, kInvalidLesson = 3, kNoGpu = 4, kInternal = 5, kUntrusted = 6 };

// The table every --help ends with (and docs/cli.md repeats).
extern const char* const kExitCodes;

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// What the user gave one command: its operands (lesson files, a lesson id) and
// options. Filled by CLI11 from the command's Spec (cli/command_line.cpp).
struct Args {
    std::vector<std::string> positional;
    std::map<std::string, std::string> values;                  // the last value of each --option
    std::vector<std::pair<std::string, std::string>> repeated;  // --param N=V may repeat
    std::map<std::string, bool> flags;

    bool flag(const std::string& f) const { return flags.count(f) > 0; }
    std::optional<std::string> value(const std::string& k) const {
        auto it = values.find(k);
        if (it == values.end()) return std::nullopt;
        return it->second;
    }
};

// One option of a command, as its --help lists it.
struct OptionSpec {
    enum class Kind { Flag, Value, Repeated };
    Kind kind = Kind::Flag;
    std::string name;        // "--step"
    std::string value_name;  // "S" in "--step S"; empty for a flag
    std::string help;        // may run over several lines
};
inline OptionSpec flag_option(std::string name, std::string help) {
    return {OptionSpec::Kind::Flag, std::move(name), "", std::move(help)};
}
inline OptionSpec value_option(std::string name, std::string value_name, std::string help) {
    return {OptionSpec::Kind::Value, std::move(name), std::move(value_name), std::move(help)};
}
inline OptionSpec repeated_option(std::string name, std::string value_name, std::string help) {
    return {OptionSpec::Kind::Repeated, std::move(name), std::move(value_name), std::move(help)};
}

// A command: what main's list and its --help say, its options, and what it runs.
// The options' lines of --help are generated from `options` (cli/command_line.cpp).
struct CommandSpec {
    std::string name;      // "run"
    std::string operands;  // "<lesson.json>": after the name in the usage line and the command list
    std::string summary;   // one line in `cuda-workbook-cli --help`
    std::string about;     // the paragraph the command's --help starts with
    std::vector<OptionSpec> options;
    std::string footer = kExitCodes;  // what --help ends with
    int (*run)(const Args&) = nullptr;
};

// The options run and sweep share, which run_request_from_args reads: --step,
// --case, --param, --solution, --source, --arch, --warmup, --repeat, --warm-l2,
// --timeout, --compile-only, --in-process, --trust. Each command adds its own.
std::vector<OptionSpec> run_request_options();

// The --param NAME=VALUE options, as a request's params; a UsageError names a bad one.
std::map<std::string, double> param_overrides(const Args& a);

// "16,16,1" → {16,16,1}; missing sizes are 1.
std::array<long long, 3> parse_dim3(const std::string& s, const char* what);

// A number of seconds above 0, or 0 when the option is absent.
double seconds_option(const Args& a, const char* name);
// Option `name` as a whole number of at least `min`; nullopt when it is not
// given. A UsageError names the option and what it takes ("--block takes a
// whole number >= 1, not 'abc'").
std::optional<long long> whole_number_option(const Args& a, const char* name, long long min);

// Lessons from outside the shipped lessons folder carry C++ (the CPU
// reference) that is compiled and run natively, and kernels that run: run,
// check and compile refuse them unless --trust says the user trusts the
// author. Returns true when every file may be used; otherwise prints why,
// once per folder, and returns false.
bool trusted_or_explain(const std::vector<std::string>& files, bool trust_given, const std::string& command);

// The one lesson `compile` and `run` take: loaded (or its issues printed, exit 3)
// and trusted (or explained, exit 6). `exit_code` is set when it returns null.
std::shared_ptr<const Lesson> open_one_lesson(const Args& a, const std::string& command, int& exit_code);

// The step `--step S` names: an id, or a number from 1 (the GUI's numbers).
// A UsageError names the numbers and the ids there are.
const Step& step_or_usage_error(const Lesson& lesson, const std::string& id_or_number);

// The lesson files the command line names: a folder stands for every lesson
// JSON directly inside it (list_lessons: sorted, JSON Schema files left out).
std::vector<std::string> expand_lesson_args(const std::vector<std::string>& positional);

// True for a file named *.schema.json: a JSON Schema, never a lesson.
bool is_schema_file(const std::string& path);

// GPU work runs in a worker process (a faulting kernel cannot take the CLI
// down, and a hung one is killed at its deadline); --in-process is for debugging.
// With --worker CMD, or $WB_WORKER_COMMAND, the worker is at the far end of
// CMD (ssh, srun: runtime/pipeline/remote.hpp).
std::unique_ptr<RunBackend> make_backend(const Args& a);
// --worker CMD, which run, sweep, check and device take.
OptionSpec worker_option();
// The worker command --worker or $WB_WORKER_COMMAND names, split as a shell
// would; empty for the local worker. A UsageError for an unclosed quote.
std::vector<std::string> worker_command(const Args& a);
// The machine a worker command's far end runs on, as it said; empty for the
// local worker or in-process backend.
std::string remote_where(const RunBackend& backend);

// --backend gpu|cpu|auto. The default is auto (the GPU when there is one, else
// the CPU emulator), but gpu under --memcheck or --racecheck.
Executor executor_from_args(const Args& a);

// The request that run's and sweep's shared options describe: --step, --case,
// --block, --grid, --shared, --param, --solution, --source, --arch, --warmup,
// --repeat, --no-timing, --warm-l2, --compile-only, --timeout. The lesson is
// trusted (open_one_lesson checked). A bad value is a UsageError.
RunRequest run_request_from_args(const Args& a, std::shared_ptr<const Lesson> lesson);

// The exit code a run's status stands for. A compile-only result is 0 when
// compile-only was asked for (--compile-only) and 4 when there was no GPU.
int exit_for(const RunResult& r, bool compile_only_asked);

// Lesson issues as json ([{file, json_path, message, ...}]).
nlohmann::json issues_json(const std::vector<LessonIssue>& issues);
void print_issues(const std::vector<LessonIssue>& issues);

// Text helpers.
std::string fmt(const char* f, double v);
std::string bytes_human(double b);
std::string dims_str(const std::array<long long, 3>& d);
std::string index_str(const std::vector<std::size_t>& idx);
std::string params_str(const std::map<std::string, double>& p);
// The diagnostics, and "and N more" for those the runtime dropped past its cap.
void print_diagnostics(const std::vector<Diagnostic>& diags, std::size_t omitted = 0);

// A host step's timeline: a summary line, then one row per activity (at most
// `max_rows`, then how many more; --json has them all).
void print_timeline(const Timeline& t, std::size_t max_rows = 40);
// "≤ 0.60 × one_stream's wall time: 3.100 ms vs 6.900 ms = 0.45×, met"
// A kernel step's target is on its GPU time; a host step's on run()'s wall time or the timeline's bars.
std::string target_text(const TargetResult& t, bool host_step);

}  // namespace wb::cli
