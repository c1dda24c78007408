// cli/main.cpp — cuda-workbook-cli, the headless front end over wb_runtime.
//
//   validate <lesson...>                      check lesson files
//   compile  <lesson> [--step S] [--arch A]   compile starters and solutions with NVRTC
//   run      <lesson> [options]               compile, run on the GPU, compare with the CPU reference
//   check    <lesson or folder...>            every solution passes every case; every starter compiles
//   device                                    what GPU (if any) this computer has
//   cache    --stats | --clear                the disk caches' size, or clear them (cache_command.cpp)
//
// Exit codes (also in `--help` and docs/cli.md):
//   0 success · 1 a kernel or lesson check failed · 2 bad command line · 3 a lesson file is invalid
//   4 no GPU (compile-only: everything that could be checked without one passed) · 5 internal error
//   6 the lesson is outside the shipped lessons folder and --trust was not given
#include "cache_command.hpp"
#include "compile/nvrtc.hpp"
#include "core/data_dirs.hpp"
#include "core/fs.hpp"
#include "core/error.hpp"
#include "driver/cuda_driver.hpp"
#include "driver/device.hpp"
#include "lesson/loader.hpp"
#include "pipeline/report.hpp"
#include "pipeline/run.hpp"
#include "pipeline/worker.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

enum Exit { kOk = 0, kFailed = 1, kUsage = 2, kInvalidLesson = 3, kNoGpu = 4, kInternal = 5, kUntrusted = 6 };

constexpr const char* kExitCodes =
    "Exit codes:\n"
    "  0  success\n"
    "  1  a check failed: compile error, wrong output, refused launch, CUDA error\n"
    "  2  bad command line (unknown option, step or case)\n"
    "  3  a lesson file is invalid\n"
    "  4  no GPU: what could be checked without one passed, but nothing ran\n"
    "  5  internal error\n"
    "  6  the lesson is not one of the shipped lessons and --trust was not given\n"
    "     (its CPU reference is C++ that would be compiled and run on this computer)\n";

constexpr const char* kMainHelp =
    "cuda-workbook-cli — check, compile and run CUDA Workbook lessons without the GUI.\n"
    "\n"
    "Usage: cuda-workbook-cli <command> [options]\n"
    "\n"
    "Commands:\n"
    "  validate <lesson.json...>    check lesson files against the format\n"
    "  compile  <lesson.json>       compile a step's starter and solution with NVRTC\n"
    "  run      <lesson.json>       run a step's kernel on the GPU against the CPU reference\n"
    "  check    <lesson or folder>  every solution passes every case, every starter compiles\n"
    "  device                       show the GPU, or why there is none\n"
    "  cache --stats | --clear      the disk caches' size and cap, or clear them\n"
    "\n"
    "Every command takes --help and --json. compile, run and check need --trust for a\n"
    "lesson outside the shipped lessons folder: its CPU reference is C++ that would be\n"
    "compiled and run on this computer.\n";

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A small argument reader: positional words and --flags, some with values.
struct Args {
    std::vector<std::string> positional;
    std::map<std::string, std::string> values;
    std::vector<std::pair<std::string, std::string>> repeated;  // --param N=V may repeat
    std::map<std::string, bool> flags;

    bool flag(const std::string& f) const { return flags.count(f) > 0; }
    std::optional<std::string> value(const std::string& k) const {
        auto it = values.find(k);
        if (it == values.end()) return std::nullopt;
        return it->second;
    }
};

Args parse_args(int argc, char** argv, int first, const std::vector<std::string>& with_value,
                const std::vector<std::string>& bare, const std::string& command) {
    Args a;
    for (int i = first; i < argc; ++i) {
        std::string s = argv[i];
        if (s.rfind("--", 0) == 0) {
            std::string key = s, val;
            bool has_eq = false;
            if (auto eq = s.find('='); eq != std::string::npos) {
                key = s.substr(0, eq);
                val = s.substr(eq + 1);
                has_eq = true;
            }
            bool takes_value = std::find(with_value.begin(), with_value.end(), key) != with_value.end();
            bool is_bare = std::find(bare.begin(), bare.end(), key) != bare.end();
            if (takes_value) {
                if (!has_eq) {
                    if (i + 1 >= argc) throw UsageError(key + " needs a value");
                    val = argv[++i];
                }
                if (key == "--param") a.repeated.push_back({key, val});
                else a.values[key] = val;
            } else if (is_bare && !has_eq) {
                a.flags[key] = true;
            } else {
                throw UsageError("unknown option '" + s + "' for '" + command + "' (see: cuda-workbook-cli " + command +
                                 " --help)");
            }
        } else {
            a.positional.push_back(s);
        }
    }
    return a;
}

std::array<long long, 3> parse_dim3(const std::string& s, const char* what) {
    std::array<long long, 3> d{1, 1, 1};
    std::stringstream ss(s);
    std::string part;
    int i = 0;
    while (std::getline(ss, part, ',')) {
        if (i >= 3) throw UsageError(std::string(what) + " takes at most three numbers: x,y,z");
        char* end = nullptr;
        long long v = std::strtoll(part.c_str(), &end, 10);
        if (part.empty() || *end) throw UsageError(std::string(what) + " '" + s + "' is not a list of whole numbers like 16,16,1");
        d[i++] = v;
    }
    if (i == 0) throw UsageError(std::string(what) + " is empty");
    return d;
}

// Lessons from outside the shipped lessons folder carry C++ (the CPU
// reference) that is compiled and run natively, and kernels that run: run,
// check and compile refuse them unless --trust says the user trusts the
// author. `validate` runs nothing and needs no trust. Returns true when every
// file may be used; otherwise prints why, once per folder, and returns false.
bool trusted_or_explain(const std::vector<std::string>& files, bool trust_given, const std::string& command) {
    if (trust_given) return true;
    std::vector<fs::path> folders;
    for (const auto& f : files) {
        if (wb::is_shipped_lesson(f)) continue;
        fs::path folder = wb::lesson_trust_folder(f);
        if (std::find(folders.begin(), folders.end(), folder) != folders.end()) continue;
        folders.push_back(folder);
        const auto shipped = wb::shipped_lessons_folder();
        std::cerr << "cuda-workbook-cli " << command << ": " << f << " is in " << folder.string()
                  << ", which is not the shipped lessons folder ("
                  << (shipped ? shipped->string() : std::string("none was found")) << "): "
                  << wb::untrusted_lesson_explanation() << ". If you trust its author, add --trust.\n";
    }
    return folders.empty();
}

void print_issues(const std::vector<wb::LessonIssue>& issues) {
    for (const auto& i : issues) std::cerr << i.to_string() << "\n";
}

// Loads a lesson or reports why not. Returns nullptr on failure (issues printed or added to `out`).
std::shared_ptr<const wb::Lesson> load_or_report(const std::string& path, bool as_json, json* out) {
    wb::LoadResult lr = wb::load_lesson(path);
    if (lr.ok()) return std::make_shared<const wb::Lesson>(std::move(*lr.lesson));
    if (as_json && out) {
        json issues = json::array();
        for (const auto& i : lr.issues) issues.push_back(wb::to_json(i));
        (*out)["issues"] = issues;
    } else {
        print_issues(lr.issues);
    }
    return nullptr;
}

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

std::string bytes_human(double b) {
    if (b >= 1 << 30) return fmt("%.1f GiB", b / (1 << 30));
    if (b >= 1 << 20) return fmt("%.1f MiB", b / (1 << 20));
    if (b >= 1 << 10) return fmt("%.1f KiB", b / (1 << 10));
    return fmt("%.0f B", b);
}

std::string dims_str(const std::array<long long, 3>& d) {
    return "(" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) + ")";
}

std::string index_str(const std::vector<std::size_t>& idx) {
    std::string s = "[";
    for (std::size_t i = 0; i < idx.size(); ++i) s += (i ? "," : "") + std::to_string(idx[i]);
    return s + "]";
}

std::string params_str(const std::map<std::string, double>& p) {
    std::string s;
    for (const auto& [k, v] : p) s += (s.empty() ? "" : " ") + k + "=" + fmt("%.10g", v);
    return s;
}

// The diagnostics, and "and N more" for those the runtime dropped past its cap.
void print_diagnostics(const std::vector<wb::Diagnostic>& diags, std::size_t omitted = 0) {
    for (const auto& d : diags) std::cout << "  " << d.to_string() << "\n";
    if (omitted) std::cout << "  ... and " << omitted << " more (only the first " << diags.size() << " are listed)\n";
}

// Under compute-sanitizer: no time, then each finding as  file:line: what, by thread (x,y,z) in block (x,y,z).
// The raw report (r.output) is printed only when no finding could be read from it.
void print_sanitizer(const wb::RunResult& r) {
    const char* tool = wb::sanitizer_tool_name(r.sanitizer);
    if (!r.gpu_time && r.status != wb::RunStatus::CompileOnly) std::cout << "time    not timed under compute-sanitizer\n";
    if (r.sanitizer_errors >= 0)
        std::cout << "sanitizer " << tool << ": " << r.sanitizer_errors << (r.sanitizer_errors == 1 ? " error" : " errors")
                  << ", " << r.sanitizer_findings.size() << " distinct finding" << (r.sanitizer_findings.size() == 1 ? "" : "s")
                  << "\n";
    for (const auto& f : r.sanitizer_findings) std::cout << f.to_string() << "\n";
    if (r.sanitizer_findings.empty() && r.status != wb::RunStatus::Passed && !r.output.empty()) {
        std::cout << "output  (the worker and compute-sanitizer)\n";
        std::istringstream lines(r.output);
        for (std::string line; std::getline(lines, line);) std::cout << "        " << line << "\n";
    }
}

void print_run_text(const wb::RunResult& r) {
    // Only what is known: an input error or a timeout may come before the step,
    // the case or the params are.
    std::string header = "lesson " + (r.lesson_id.empty() ? std::string("?") : r.lesson_id);
    if (!r.step_id.empty()) header += " · step " + r.step_id;
    if (!r.case_name.empty()) header += " · case " + r.case_name;
    if (!r.params.empty()) header += " (" + params_str(r.params) + ")";
    std::cout << header << "\n";
    if (r.device)
        std::cout << "device  " << r.device->name << " (" << r.device->arch() << ", " << r.device->sm_count << " SMs, "
                  << bytes_human(double(r.device->total_memory)) << ")\n";
    else if (!r.device_note.empty())
        std::cout << "device  none: " << r.device_note << "\n";
    if (!r.compile.options.empty()) {
        std::cout << "compile " << (r.compile.ok ? "ok" : "FAILED") << ": " << r.compile.arch << " "
                  << (r.compile.is_cubin ? "cubin" : "PTX") << ", "
                  << (r.compile.from_cache ? "from " + r.compile.cache_source + " cache" : fmt("%.2f s", r.compile.seconds))
                  << ", " << r.compile.error_count() << " errors, " << r.compile.warning_count() << " warnings\n";
        print_diagnostics(r.compile.diagnostics, r.compile.diagnostics_omitted);
    }
    if (!r.reference.ok && !r.reference.log.empty()) {
        std::cout << "reference FAILED to compile:\n";
        print_diagnostics(r.reference.diagnostics);
    } else if (r.cpu_ms >= 0) {
        std::cout << "reference ok: CPU " << fmt("%.4f ms", r.cpu_ms)
                  << (r.reference.from_cache ? " (library from cache)" : fmt(" (built in %.2f s)", r.reference.seconds)) << "\n";
    }
    for (const auto& l : r.launches) {
        long long tpb = l.dims.threads_per_block();
        std::cout << "launch  " << l.entry << "<<<" << dims_str(l.dims.grid) << ", " << dims_str(l.dims.block) << ", "
                  << l.dims.shared_bytes << ">>>  " << l.dims.blocks() << " blocks x " << tpb << " threads = "
                  << l.dims.blocks() * tpb << " threads, " << (tpb + 31) / 32 << " warps/block";
        if (l.resources.registers >= 0)
            std::cout << ", " << l.resources.registers << " regs/thread, " << l.resources.static_shared << " B static smem";
        std::cout << "\n";
        if (l.refusal) std::cout << "        REFUSED (" << l.refusal->limit << "): " << l.refusal->message << "\n";
    }
    for (const auto& c : r.comparisons) {
        std::cout << "check   " << c.buffer << ": " << (c.passed ? "PASS" : "FAIL") << "  max abs err "
                  << fmt("%.3g", c.max_abs_error) << ", max rel err " << fmt("%.3g", c.max_rel_error) << ", "
                  << c.mismatches << " mismatches of " << c.count << " (atol " << fmt("%g", c.atol) << ", rtol "
                  << fmt("%g", c.rtol) << ")\n";
        if (!c.note.empty()) std::cout << "        " << c.note << "\n";
        for (const auto& m : c.first)
            std::cout << "        at " << index_str(m.index) << ": got " << fmt("%.9g", m.got) << ", want "
                      << fmt("%.9g", m.want) << " (" << wb::mismatch_reason_name(m.reason) << ")\n";
    }
    if (r.gpu_time) {
        const auto& t = *r.gpu_time;
        std::cout << "time    GPU " << fmt("%.4f", t.median_ms) << " ms median (min " << fmt("%.4f", t.min_ms) << ", max "
                  << fmt("%.4f", t.max_ms) << ", " << t.samples_ms.size() << " runs after " << t.warmup << " warm-up)";
        if (r.cpu_ms >= 0) std::cout << "  CPU " << fmt("%.4f", r.cpu_ms) << " ms  speed-up " << fmt("%.1fx", r.cpu_ms / t.median_ms);
        if (r.bytes > 0) std::cout << "  " << fmt("%.1f GB/s", r.gbs());
        if (r.flops > 0) std::cout << "  " << fmt("%.1f GFLOP/s", r.gflops());
        std::cout << "\n";
        if (t.near_resolution) std::cout << "        (under 10 us: near the resolution of event timing, about 1-2 us)\n";
    }
    if (r.sanitizer != wb::SanitizerTool::None) print_sanitizer(r);
    else if (!r.output.empty()) {
        std::cout << "output  (what the kernel printed)\n";
        std::istringstream lines(r.output);
        for (std::string line; std::getline(lines, line);) std::cout << "        " << line << "\n";
    }
    std::cout << "result  " << wb::run_status_name(r.status) << ": " << r.message << "\n";
    if (!r.hint.empty()) std::cout << "hint    " << r.hint << "\n";
}

// A number of seconds above 0, or 0 when the option is absent.
double seconds_option(const Args& a, const char* name) {
    auto t = a.value(name);
    if (!t) return 0;
    char* end = nullptr;
    const double v = std::strtod(t->c_str(), &end);
    if (*end || !(v > 0)) throw UsageError(std::string(name) + " takes a number of seconds above 0");
    return v;
}

int exit_for(const wb::RunResult& r) {
    switch (r.status) {
    case wb::RunStatus::Passed: return kOk;
    case wb::RunStatus::CompileOnly: return kNoGpu;
    case wb::RunStatus::InputError: return kUsage;
    default: return kFailed;
    }
}

// The one lesson `compile` and `run` take: loaded (or its issues printed, exit 3)
// and trusted (or explained, exit 6). `exit_code` is set when it returns null.
std::shared_ptr<const wb::Lesson> open_one_lesson(const Args& a, const std::string& command, int& exit_code) {
    if (a.positional.size() != 1) throw UsageError(command + " needs exactly one lesson file");
    const bool as_json = a.flag("--json");
    json out = json::object();
    auto lesson = load_or_report(a.positional[0], as_json, &out);
    if (!lesson) {
        if (as_json) std::cout << out.dump(2) << "\n";
        exit_code = kInvalidLesson;
        return nullptr;
    }
    if (!trusted_or_explain(a.positional, a.flag("--trust"), command)) {
        exit_code = kUntrusted;
        return nullptr;
    }
    return lesson;
}

// GPU work runs in a worker process (a faulting kernel cannot take the CLI
// down, and a hung one is killed at its deadline); --in-process is for debugging.
std::unique_ptr<wb::RunBackend> make_backend(const Args& a) {
    if (a.flag("--in-process")) return wb::make_local_backend();
    return std::make_unique<wb::WorkerBackend>();
}

// ---- validate ----------------------------------------------------------------

int cmd_validate(int argc, char** argv) {
    Args a = parse_args(argc, argv, 2, {}, {"--json", "--help"}, "validate");
    if (a.flag("--help")) {
        std::cout << "Usage: cuda-workbook-cli validate <lesson.json...> [--json]\n\n"
                     "Checks each lesson file: JSON syntax, the format, file references, expressions.\n"
                     "Each problem is printed as  file: json.path: message\n\n"
                  << kExitCodes;
        return kOk;
    }
    if (a.positional.empty()) throw UsageError("validate needs at least one lesson file");
    bool as_json = a.flag("--json");
    json out = json::array();
    int bad = 0;
    for (const auto& p : a.positional) {
        wb::LoadResult lr = wb::load_lesson(p);
        if (!lr.ok()) ++bad;
        if (as_json) {
            json issues = json::array();
            for (const auto& i : lr.issues) issues.push_back(wb::to_json(i));
            out.push_back({{"file", p}, {"ok", lr.ok()}, {"issues", issues}});
        } else if (lr.ok()) {
            std::cout << p << ": ok (" << lr.lesson->id << ", " << lr.lesson->steps.size() << " steps)\n";
        } else {
            print_issues(lr.issues);
        }
    }
    if (as_json) std::cout << out.dump(2) << "\n";
    return bad ? kInvalidLesson : kOk;
}

// ---- compile -----------------------------------------------------------------

int cmd_compile(int argc, char** argv) {
    Args a = parse_args(argc, argv, 2, {"--step", "--arch", "--timeout"}, {"--json", "--help", "--trust"}, "compile");
    if (a.flag("--help")) {
        std::cout << "Usage: cuda-workbook-cli compile <lesson.json> [--step S] [--arch sm_XX|compute_XX] [--timeout S] [--trust] [--json]\n\n"
                     "Compiles the starter and the solution of step S (default: every step) with NVRTC,\n"
                     "in the worker process under the run's deadline (the lesson's, or --timeout).\n"
                     "Needs no GPU. --arch defaults to the GPU's own, or " << wb::default_arch() << " without one.\n"
                     "--trust: the lesson is outside the shipped lessons folder and you trust its author.\n\n"
                  << kExitCodes;
        return kOk;
    }
    int refused = kOk;
    auto lesson = open_one_lesson(a, "compile", refused);
    if (!lesson) return refused;
    bool as_json = a.flag("--json");
    std::vector<const wb::Step*> steps;
    if (auto s = a.value("--step")) {
        const wb::Step* st = lesson->find_step(*s);
        if (!st) throw UsageError("lesson '" + lesson->id + "' has no step '" + *s + "'");
        steps.push_back(st);
    } else {
        for (const auto& s : lesson->steps) steps.push_back(&s);
    }
    const double timeout = seconds_option(a, "--timeout");
    // Through the worker, like run: a kernel that sends NVRTC into a template
    // explosion is stopped at the deadline instead of hanging the CLI.
    wb::WorkerBackend backend;
    bool all_ok = true;
    std::string arch = a.value("--arch").value_or("");
    json results = json::array();
    for (const wb::Step* st : steps) {
        for (int which = 0; which < 2; ++which) {
            wb::RunRequest req;
            req.lesson = lesson;
            req.step = st->id;
            req.source = which == 0 ? wb::SourceChoice::Starter : wb::SourceChoice::Solution;
            req.arch = arch;
            req.compile_only = true;
            req.reference = false;
            req.keep_buffers = false;
            req.timing = false;
            req.timeout_s = timeout;
            req.trusted = true;  // open_one_lesson checked
            const wb::RunResult r = backend.run(req);
            const wb::CompileResult& c = r.compile;
            if (arch.empty()) arch = c.arch;
            // The compile's own verdict; a refused launch or no GPU is not a compile failure.
            const bool compiled = c.ok && r.status != wb::RunStatus::TimedOut && r.status != wb::RunStatus::Crashed &&
                                  r.status != wb::RunStatus::Stopped && r.status != wb::RunStatus::InputError;
            all_ok = all_ok && compiled;
            const char* which_name = which == 0 ? "starter" : "solution";
            if (as_json) {
                json j = wb::to_json(c);
                j["step"] = st->id;
                j["source"] = which_name;
                j["ok"] = compiled;
                if (!c.ok || !compiled) j["status"] = wb::run_status_name(r.status), j["message"] = r.message;
                results.push_back(j);
            } else if (!c.ok && c.options.empty()) {
                // It never got to NVRTC's answer: a deadline, a crash, bad input.
                std::cout << st->id << " " << (which == 0 ? "starter " : "solution") << ": FAILED ("
                          << wb::run_status_name(r.status) << ": " << r.message << ")\n";
                if (!r.hint.empty()) std::cout << "  hint: " << r.hint << "\n";
            } else {
                std::cout << st->id << " " << (which == 0 ? "starter " : "solution") << ": " << (compiled ? "ok" : "FAILED")
                          << " (" << c.arch << (c.is_cubin ? " cubin, " : " PTX, ") << c.image_bytes << " bytes, "
                          << (c.from_cache ? c.cache_source + " cache" : fmt("%.2f s", c.seconds)) << ", "
                          << c.warning_count() << " warnings)\n";
                print_diagnostics(c.diagnostics, c.diagnostics_omitted);
            }
        }
    }
    if (as_json) std::cout << json{{"arch", arch}, {"results", results}}.dump(2) << "\n";
    return all_ok ? kOk : kFailed;
}

// ---- run ---------------------------------------------------------------------

int cmd_run(int argc, char** argv) {
    Args a = parse_args(argc, argv, 2, {"--step", "--case", "--block", "--grid", "--shared", "--param", "--source", "--arch",
                                        "--repeat", "--warmup", "--timeout"},
                        {"--solution", "--compile-only", "--no-timing", "--json", "--help", "--in-process", "--trust",
                         "--memcheck", "--racecheck"},
                        "run");
    if (a.flag("--help")) {
        std::cout << "Usage: cuda-workbook-cli run <lesson.json> [options]\n\n"
                     "Compiles a step's kernel, runs it on the GPU for one test case, and checks its\n"
                     "outputs against the lesson's CPU reference. Without a GPU it compiles, runs the\n"
                     "reference and checks the launch against the target's limits, then exits 4.\n\n"
                     "Options:\n"
                     "  --step S          step id or number (default: the first)\n"
                     "  --case C          test case name (default: the first)\n"
                     "  --block x,y,z     block size for the first launch (the grid follows, unless --grid)\n"
                     "  --grid x,y,z      grid size for the first launch\n"
                     "  --shared BYTES    dynamic shared memory for the first launch\n"
                     "  --param N=V       set a param (repeatable); checked against its bounds\n"
                     "  --solution        run the lesson's solution (default: the starter)\n"
                     "  --source FILE     run the kernel in FILE\n"
                     "  --arch A          compile for A (default: the GPU's own sm_XX)\n"
                     "  --warmup N, --repeat N   timing runs (default: the lesson's)\n"
                     "  --no-timing       check only\n"
                     "  --timeout S       stop the run after S seconds (default: the lesson's, else 30)\n"
                     "  --in-process      run in this process, not a worker (debugging; a fault ends the CLI)\n"
                     "  --compile-only    stop before the GPU\n"
                     "  --memcheck        run under compute-sanitizer memcheck: every out-of-bounds or\n"
                     "                    misaligned access is reported with its line, thread and block\n"
                     "                    (slow: not timed; the deadline is 10x the lesson's, at least 120 s)\n"
                     "  --racecheck       run under compute-sanitizer racecheck: shared-memory races\n"
                     "                    between threads of a block (a missing __syncthreads())\n"
                     "                    Either way, a report with errors is 'sanitizer-errors' (exit 1)\n"
                     "                    even when the outputs match; without a GPU nothing runs under\n"
                     "                    the tool, the run is compile-only (exit 4)\n"
                     "  --trust           the lesson is outside the shipped lessons folder and you trust\n"
                     "                    its author (its CPU reference is compiled and run here)\n"
                     "  --json            print the result as JSON\n\n"
                  << kExitCodes;
        return kOk;
    }
    int refused = kOk;
    auto lesson = open_one_lesson(a, "run", refused);
    if (!lesson) return refused;
    bool as_json = a.flag("--json");
    wb::RunRequest req;
    req.lesson = lesson;
    req.step = a.value("--step").value_or("");
    req.test_case = a.value("--case").value_or("");
    req.arch = a.value("--arch").value_or("");
    req.compile_only = a.flag("--compile-only");
    req.timing = !a.flag("--no-timing");
    req.keep_buffers = false;
    if (a.flag("--solution") && a.value("--source")) throw UsageError("--solution and --source cannot be used together");
    if (a.flag("--solution")) req.source = wb::SourceChoice::Solution;
    if (auto f = a.value("--source")) {
        req.source = wb::SourceChoice::Custom;
        try {
            req.custom_source = wb::read_file(*f, 4u << 20);
        } catch (const wb::Error& e) {
            throw UsageError(e.what());
        }
        req.custom_origin = fs::path(*f).filename().string();
    }
    for (const auto& [k, v] : a.repeated) {
        auto eq = v.find('=');
        if (eq == std::string::npos || eq == 0) throw UsageError("--param takes NAME=VALUE, not '" + v + "'");
        char* end = nullptr;
        double d = std::strtod(v.c_str() + eq + 1, &end);
        if (*end || eq + 1 == v.size()) throw UsageError("--param " + v + ": '" + v.substr(eq + 1) + "' is not a number");
        req.params[v.substr(0, eq)] = d;
    }
    wb::LaunchOverride ov;
    if (auto b = a.value("--block")) ov.block = parse_dim3(*b, "--block");
    if (auto g = a.value("--grid")) ov.grid = parse_dim3(*g, "--grid");
    if (auto s = a.value("--shared")) ov.shared_bytes = std::atoll(s->c_str());
    if (ov.block || ov.grid || ov.shared_bytes) req.launches.push_back(ov);
    auto int_opt = [&](const char* k) {
        auto v = a.value(k);
        if (!v) return -1;
        char* end = nullptr;
        long n = std::strtol(v->c_str(), &end, 10);
        if (*end || n < 0) throw UsageError(std::string(k) + " takes a whole number >= 0");
        return int(n);
    };
    req.warmup = int_opt("--warmup");
    req.repeat = int_opt("--repeat");
    req.timeout_s = seconds_option(a, "--timeout");
    req.trusted = true;  // open_one_lesson checked

    if (a.flag("--memcheck") && a.flag("--racecheck"))
        throw UsageError("--memcheck and --racecheck cannot be used together: run one, then the other");
    if (a.flag("--memcheck")) req.sanitizer = wb::SanitizerTool::Memcheck;
    if (a.flag("--racecheck")) req.sanitizer = wb::SanitizerTool::Racecheck;
    if (req.sanitizer != wb::SanitizerTool::None && a.flag("--in-process"))
        throw UsageError("--in-process cannot be used with --memcheck or --racecheck: the tool runs a worker process");

    auto backend = make_backend(a);
    wb::RunResult r = backend->run(req);
    if (as_json) std::cout << wb::to_json(r).dump(2) << "\n";
    else print_run_text(r);
    return exit_for(r);
}

// ---- check -------------------------------------------------------------------

int cmd_check(int argc, char** argv) {
    Args a = parse_args(argc, argv, 2, {"--arch"}, {"--compile-only", "--json", "--help", "--in-process", "--trust"}, "check");
    if (a.flag("--help")) {
        std::cout << "Usage: cuda-workbook-cli check <lesson.json or folder...> [--compile-only] [--trust] [--json]\n\n"
                     "The instructor's check: every lesson validates, every starter compiles, and every\n"
                     "solution passes every test case on the GPU. Without a GPU (or with --compile-only)\n"
                     "it checks everything up to the launch: solutions compile, references build and run,\n"
                     "and launches fit the target's limits. Lessons outside the shipped lessons folder\n"
                     "need --trust: their CPU references are compiled and run on this computer.\n\n"
                  << kExitCodes;
        return kOk;
    }
    if (a.positional.empty()) throw UsageError("check needs at least one lesson file or folder");
    bool as_json = a.flag("--json");
    std::vector<std::string> files;
    for (const auto& p : a.positional) {
        if (fs::is_directory(p)) {
            for (const auto& f : wb::list_lessons(p)) files.push_back(f.string());
        } else {
            files.push_back(p);
        }
    }
    if (files.empty()) throw UsageError("no lesson files found in the given folders");
    // Before anything is compiled: one untrusted lesson stops the whole check.
    if (!trusted_or_explain(files, a.flag("--trust"), "check")) return kUntrusted;

    auto backend = make_backend(a);
    wb::BackendInfo bi = backend->info();
    bool compile_only = a.flag("--compile-only") || !bi.has_gpu;
    if (!as_json) {
        if (bi.has_gpu && !a.flag("--compile-only")) std::cout << "device: " << bi.devices[0].name << " (" << bi.devices[0].arch() << ")\n";
        else std::cout << "compile-only: " << (a.flag("--compile-only") ? "asked for with --compile-only" : bi.no_gpu_reason) << "\n";
    }
    int passed = 0, failed = 0, invalid = 0;
    json out = json::array();
    for (const auto& file : files) {
        wb::LoadResult lr = wb::load_lesson(file);
        if (!lr.ok()) {
            ++invalid;
            ++failed;
            if (as_json) {
                json issues = json::array();
                for (const auto& i : lr.issues) issues.push_back(wb::to_json(i));
                out.push_back({{"file", file}, {"ok", false}, {"issues", issues}});
            } else {
                std::cout << "FAIL " << file << ": invalid lesson\n";
                print_issues(lr.issues);
            }
            continue;
        }
        auto lesson = std::make_shared<const wb::Lesson>(std::move(*lr.lesson));
        for (const auto& step : lesson->steps) {
            // The starter must compile, so a student never opens a broken exercise.
            {
                wb::RunRequest req;
                req.lesson = lesson;
                req.step = step.id;
                req.source = wb::SourceChoice::Starter;
                req.compile_only = true;
                req.reference = false;
                req.arch = a.value("--arch").value_or("");
                req.keep_buffers = false;
                req.trusted = true;  // trusted_or_explain checked every file
                wb::RunResult r = backend->run(req);
                bool ok = r.compile.ok;
                ok ? ++passed : ++failed;
                if (as_json) {
                    json j = wb::to_json(r);
                    j["check"] = "starter-compiles";
                    out.push_back(j);
                } else {
                    std::cout << (ok ? "ok   " : "FAIL ") << lesson->id << " / " << step.id << " / starter compiles";
                    if (!ok) std::cout << ": " << r.message;
                    std::cout << "\n";
                }
            }
            for (const auto& tc : step.checks.cases) {
                wb::RunRequest req;
                req.lesson = lesson;
                req.step = step.id;
                req.test_case = tc.name;
                req.source = wb::SourceChoice::Solution;
                req.compile_only = compile_only;
                req.arch = a.value("--arch").value_or("");
                req.keep_buffers = false;
                req.timing = tc.timing;
                req.trusted = true;
                wb::RunResult r = backend->run(req);
                bool ok = r.status == wb::RunStatus::Passed || (compile_only && r.status == wb::RunStatus::CompileOnly);
                ok ? ++passed : ++failed;
                if (as_json) {
                    json j = wb::to_json(r);
                    j["check"] = "solution-passes";
                    out.push_back(j);
                } else {
                    std::cout << (ok ? "ok   " : "FAIL ") << lesson->id << " / " << step.id << " / " << tc.name << " ("
                              << params_str(r.params) << "): " << wb::run_status_name(r.status);
                    if (r.status == wb::RunStatus::Passed && r.gpu_time)
                        std::cout << fmt(", GPU %.4f ms", r.gpu_time->median_ms) << fmt(", CPU %.3f ms", r.cpu_ms)
                                  << (r.bytes > 0 ? fmt(", %.1f GB/s", r.gbs()) : "")
                                  << (r.flops > 0 ? fmt(", %.1f GFLOP/s", r.gflops()) : "");
                    if (!ok) std::cout << ": " << r.message;
                    std::cout << "\n";
                    if (!ok)
                        for (const auto& c : r.comparisons)
                            for (const auto& m : c.first)
                                std::cout << "       " << c.buffer << index_str(m.index) << ": got " << fmt("%.9g", m.got)
                                          << ", want " << fmt("%.9g", m.want) << "\n";
                }
            }
        }
    }
    if (as_json) std::cout << out.dump(2) << "\n";
    else std::cout << "check: " << passed << " passed, " << failed << " failed" << (compile_only ? " (compile-only: no kernel ran)" : "") << "\n";
    if (invalid) return kInvalidLesson;
    if (failed) return kFailed;
    return compile_only && !a.flag("--compile-only") ? kNoGpu : kOk;
}

// ---- device ------------------------------------------------------------------

int cmd_device(int argc, char** argv) {
    Args a = parse_args(argc, argv, 2, {}, {"--json", "--help"}, "device");
    if (a.flag("--help")) {
        std::cout << "Usage: cuda-workbook-cli device [--json]\n\nShows each GPU and its limits, or why there is none.\n\n"
                  << kExitCodes;
        return kOk;
    }
    bool as_json = a.flag("--json");
    std::vector<wb::DeviceInfo> devices;
    try {
        devices = wb::query_devices();
    } catch (const wb::Error& e) {
        if (as_json) std::cout << json{{"devices", json::array()}, {"reason", e.message()}, {"nvrtc", wb::nvrtc_version()}}.dump(2) << "\n";
        else std::cout << e.message() << "\nNVRTC " << wb::nvrtc_version() << " is available; default target " << wb::default_arch() << ".\n";
        return kNoGpu;
    }
    if (as_json) {
        json arr = json::array();
        for (const auto& d : devices) arr.push_back(wb::to_json(d));
        std::cout << json{{"devices", arr}, {"nvrtc", wb::nvrtc_version()}}.dump(2) << "\n";
        return kOk;
    }
    for (const auto& d : devices) {
        const auto& l = d.limits;
        std::cout << "GPU " << d.ordinal << ": " << d.name << "\n"
                  << "  compute capability " << d.cc_major << "." << d.cc_minor << " (" << d.arch() << "), " << d.sm_count
                  << " SMs, " << bytes_human(double(d.total_memory)) << " memory, L2 " << bytes_human(d.l2_bytes) << "\n"
                  << "  driver " << d.driver_version / 1000 << "." << (d.driver_version % 1000) / 10 << ", NVRTC "
                  << wb::nvrtc_version() << "\n"
                  << "  threads/block " << l.max_threads_per_block << ", block " << dims_str(l.max_block) << ", grid "
                  << dims_str(l.max_grid) << "\n"
                  << "  shared memory/block " << l.shared_per_block / 1024 << " KiB (opt-in " << l.shared_per_block_optin / 1024
                  << " KiB), registers/block " << l.regs_per_block << ", warp " << l.warp_size << "\n";
    }
    return kOk;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h" || std::string(argv[1]) == "help") {
        std::cout << kMainHelp << "\n" << kExitCodes;
        return argc < 2 ? kUsage : kOk;
    }
    std::string cmd = argv[1];
    try {
        if (cmd == "validate") return cmd_validate(argc, argv);
        if (cmd == "compile") return cmd_compile(argc, argv);
        if (cmd == "run") return cmd_run(argc, argv);
        if (cmd == "check") return cmd_check(argc, argv);
        if (cmd == "device") return cmd_device(argc, argv);
        if (cmd == "cache") return wb::cli::cmd_cache(argc, argv);
        std::cerr << "cuda-workbook-cli: unknown command '" << cmd << "' (commands: validate, compile, run, check, device, cache)\n";
        return kUsage;
    } catch (const UsageError& e) {
        std::cerr << "cuda-workbook-cli " << cmd << ": " << e.what() << "\n";
        return kUsage;
    } catch (const wb::Error& e) {
        std::cerr << "cuda-workbook-cli " << cmd << ": " << e.describe() << "\n";
        return e.kind() == wb::ErrorKind::Usage ? kUsage : e.kind() == wb::ErrorKind::NoDevice ? kNoGpu : kInternal;
    } catch (const std::exception& e) {
        std::cerr << "cuda-workbook-cli " << cmd << ": internal error: " << e.what() << "\n";
        return kInternal;
    }
}
