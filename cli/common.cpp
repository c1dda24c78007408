// cli/common.cpp — the shared pieces of cuda-workbook-cli's commands (common.hpp).
#include "common.hpp"

#include "compile/diagnostics.hpp"
#include "core/data_dirs.hpp"
#include "core/error.hpp"
#include "core/fs.hpp"
#include "pipeline/report.hpp"
#include "pipeline/run.hpp"
#include "pipeline/remote.hpp"
#include "pipeline/worker.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace wb::cli {

const char* const kExitCodes =
    "Exit codes:\n"
    "  0  success (also a compile-only check or run that --compile-only asked for)\n"
    "  1  a check failed: compile error, wrong output, refused launch, CUDA error\n"
    "  2  bad command line (unknown option, step or case)\n"
    "  3  a lesson file is invalid\n"
    "  4  no GPU: what could be checked without one passed, but nothing ran\n"
    "  5  internal error\n"
    "  6  the lesson is not one of the shipped lessons and --trust was not given\n"
    "     (its CPU reference is C++ that would be compiled and run on this computer)\n";

std::vector<OptionSpec> run_request_options() {
    return {
        value_option("--step", "S", "step id, or number from 1 as in the app (default: the first)"),
        value_option("--case", "C", "test case name (default: the first)"),
        repeated_option("--param", "N=V", "set a param (repeatable); checked against its bounds"),
        flag_option("--solution", "run the lesson's solution (default: the starter)"),
        value_option("--source", "FILE", "run the kernel in FILE"),
        value_option("--arch", "A", "compile for A (default: the GPU's own sm_XX)"),
        value_option("--warmup", "N", "warm-up runs before timing (default: the lesson's)"),
        value_option("--repeat", "N", "timed runs (default: the lesson's)"),
        flag_option("--warm-l2", "keep L2 warm between timing samples (default: flush it when\n"
                                 "the buffers fit in it, for a cold measurement)"),
        value_option("--timeout", "S", "stop the run after S seconds (default: the lesson's, else 30)"),
        flag_option("--compile-only", "stop before the GPU: compile, reference, limits (exit 0 if they pass)"),
        flag_option("--in-process", "run in this process, not a worker (debugging; a fault ends the CLI)"),
        worker_option(),
        flag_option("--trust", "the lesson is outside the shipped lessons folder and you trust\n"
                               "its author (its CPU reference is compiled and run here)"),
    };
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

double seconds_option(const Args& a, const char* name) {
    auto t = a.value(name);
    if (!t) return 0;
    char* end = nullptr;
    const double v = std::strtod(t->c_str(), &end);
    if (*end || !(v > 0)) throw UsageError(std::string(name) + " takes a number of seconds above 0");
    return v;
}

std::optional<long long> whole_number_option(const Args& a, const char* name, long long min) {
    auto v = a.value(name);
    if (!v) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const long long n = std::strtoll(v->c_str(), &end, 10);
    if (v->empty() || *end || errno == ERANGE || n < min)
        throw UsageError(std::string(name) + " takes a whole number >= " + std::to_string(min) + ", not '" + *v + "'");
    return n;
}

bool trusted_or_explain(const std::vector<std::string>& files, bool trust_given, const std::string& command) {
    if (trust_given) return true;
    std::vector<fs::path> folders;
    for (const auto& f : files) {
        if (is_shipped_lesson(f)) continue;
        fs::path folder = lesson_trust_folder(f);
        if (std::find(folders.begin(), folders.end(), folder) != folders.end()) continue;
        folders.push_back(folder);
        const auto shipped = shipped_lessons_folder();
        std::cerr << "cuda-workbook-cli " << command << ": " << f << " is in " << folder.string()
                  << ", which is not the shipped lessons folder ("
                  << (shipped ? shipped->string() : std::string("none was found")) << "): "
                  << untrusted_lesson_explanation() << ". If you trust its author, add --trust.\n";
    }
    return folders.empty();
}

json issues_json(const std::vector<LessonIssue>& issues) {
    json arr = json::array();
    for (const auto& i : issues) arr.push_back(report_json(i));
    return arr;
}

void print_issues(const std::vector<LessonIssue>& issues) {
    for (const auto& i : issues) std::cerr << i.to_string() << "\n";
}

std::shared_ptr<const Lesson> open_one_lesson(const Args& a, const std::string& command, int& exit_code) {
    if (a.positional.size() != 1) throw UsageError(command + " needs exactly one lesson file");
    const bool as_json = a.flag("--json");
    LoadResult lr = load_lesson(a.positional[0]);
    if (!lr.ok()) {
        if (as_json) std::cout << json{{"issues", issues_json(lr.issues)}}.dump(2) << "\n";
        else print_issues(lr.issues);
        exit_code = kInvalidLesson;
        return nullptr;
    }
    if (!trusted_or_explain(a.positional, a.flag("--trust"), command)) {
        exit_code = kUntrusted;
        return nullptr;
    }
    return std::make_shared<const Lesson>(std::move(*lr.lesson));
}

const Step& step_or_usage_error(const Lesson& lesson, const std::string& id_or_number) {
    if (const Step* s = lesson.find_step(id_or_number)) return *s;
    std::string ids;
    for (const auto& s : lesson.steps) ids += (ids.empty() ? "" : ", ") + s.id;
    const std::string numbers =
        lesson.steps.size() == 1 ? "the number 1" : "a number from 1 to " + std::to_string(lesson.steps.size());
    throw UsageError("lesson '" + lesson.id + "' has no step '" + id_or_number + "'; give " + numbers + " or an id: " + ids);
}

bool is_schema_file(const std::string& path) {
    const std::string name = fs::path(path).filename().string();
    const std::string suffix = ".schema.json";
    return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::vector<std::string> expand_lesson_args(const std::vector<std::string>& positional) {
    std::vector<std::string> files;
    for (const auto& p : positional) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            for (const auto& f : list_lessons(p)) files.push_back(f.string());
        } else {
            files.push_back(p);
        }
    }
    return files;
}

OptionSpec worker_option() {
    return value_option("--worker", "CMD",
                        "run the worker through CMD, e.g. \"ssh gpu-server cuda-workbook-worker --stdio\"\n"
                        "(default: $WB_WORKER_COMMAND, else a local worker; docs/remote-worker.md)");
}

std::vector<std::string> worker_command(const Args& a) {
    try {
        if (auto v = a.value("--worker")) return split_worker_command(*v);
        return worker_command_from_environment();
    } catch (const Error& e) {
        throw UsageError((a.value("--worker") ? "--worker: " : "WB_WORKER_COMMAND: ") + e.message());
    }
}

std::unique_ptr<RunBackend> make_backend(const Args& a) {
    std::vector<std::string> command = worker_command(a);
    if (a.flag("--in-process")) {
        if (!command.empty()) throw UsageError(render({{"cli.in_process_worker", {}}}, language_from_environment()));
        return make_local_backend();
    }
    WorkerOptions options;
    options.command = std::move(command);
    return std::make_unique<WorkerBackend>(std::move(options));
}

std::string remote_where(const RunBackend& backend) {
    const auto* worker = dynamic_cast<const WorkerBackend*>(&backend);
    return worker && worker->remote() ? worker->where() : std::string();
}

int exit_for(const RunResult& r, bool compile_only_asked) {
    switch (r.status) {
    case RunStatus::Passed: return kOk;
    case RunStatus::CompileOnly: return compile_only_asked ? kOk : kNoGpu;
    case RunStatus::InputError: return kUsage;
    default: return kFailed;
    }
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

void print_diagnostics(const std::vector<Diagnostic>& diags, std::size_t omitted) {
    for (const auto& d : diags) std::cout << "  " << d.to_string() << "\n";
    if (omitted) std::cout << "  ... and " << omitted << " more (only the first " << diags.size() << " are listed)\n";
}

Executor executor_from_args(const Args& a) {
    const auto v = a.value("--backend");
    // Without a choice: the GPU when there is one, else the CPU emulator. The
    // sanitizers are the GPU's tools, so they keep the GPU (or compile-only).
    if (!v) return a.flag("--memcheck") || a.flag("--racecheck") ? Executor::Gpu : Executor::Auto;
    const auto e = parse_executor(*v);
    if (!e) throw UsageError("--backend takes gpu, cpu or auto, not '" + *v + "'");
    return *e;
}

std::map<std::string, double> param_overrides(const Args& a) {
    std::map<std::string, double> params;
    for (const auto& [k, v] : a.repeated) {
        auto eq = v.find('=');
        if (eq == std::string::npos || eq == 0) throw UsageError("--param takes NAME=VALUE, not '" + v + "'");
        char* end = nullptr;
        double d = std::strtod(v.c_str() + eq + 1, &end);
        if (*end || eq + 1 == v.size()) throw UsageError("--param " + v + ": '" + v.substr(eq + 1) + "' is not a number");
        params[v.substr(0, eq)] = d;
    }
    return params;
}

RunRequest run_request_from_args(const Args& a, std::shared_ptr<const Lesson> lesson) {
    RunRequest req;
    req.lesson = lesson;
    // Checked here too, so that the message lists the numbers and ids to choose from.
    if (auto s = a.value("--step")) req.step = step_or_usage_error(*lesson, *s).id;
    req.test_case = a.value("--case").value_or("");
    req.arch = a.value("--arch").value_or("");
    req.compile_only = a.flag("--compile-only");
    req.executor = executor_from_args(a);
    req.timing = !a.flag("--no-timing");
    req.warm_l2 = a.flag("--warm-l2");
    req.keep_buffers = false;
    if (a.flag("--solution") && a.value("--source")) throw UsageError("--solution and --source cannot be used together");
    if (a.flag("--solution")) req.source = SourceChoice::Solution;
    if (auto f = a.value("--source")) {
        req.source = SourceChoice::Custom;
        try {
            req.custom_source = read_file(*f, 4u << 20);
        } catch (const Error& e) {
            throw UsageError(e.what());
        }
        req.custom_origin = fs::path(*f).filename().string();
    }
    req.params = param_overrides(a);
    LaunchOverride ov;
    if (auto b = a.value("--block")) ov.block = parse_dim3(*b, "--block");
    if (auto g = a.value("--grid")) ov.grid = parse_dim3(*g, "--grid");
    if (auto s = a.value("--shared")) ov.shared_bytes = std::atoll(s->c_str());
    // The options change the launch the lesson marks as tuned (the first, unless it says).
    if (ov.block || ov.grid || ov.shared_bytes)
        if (const Step* step = request_step(req)) {
            req.launches.resize(step->tuned_launch() + 1);
            req.launches.back() = ov;
        }
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
    return req;
}

void print_timeline(const Timeline& t, std::size_t max_rows) {
    if (!t.unavailable.empty()) {
        std::cout << "timeline none: " << t.unavailable << "\n";
        return;
    }
    const auto lanes = t.lanes();
    std::cout << "timeline " << t.activities.size() << " activities on " << lanes.size() << (lanes.size() == 1 ? " stream" : " streams")
              << " of " << t.devices() << (t.devices() == 1 ? " GPU" : " GPUs") << " in " << fmt("%.3f ms", t.wall_us / 1e3)
              << ": kernels " << fmt("%.3f ms", t.kernel_us() / 1e3) << ", copies " << fmt("%.3f ms", t.copy_us() / 1e3)
              << " (" << bytes_human(double(t.copy_bytes())) << "), copies under kernels "
              << fmt("%.3f ms", t.copy_kernel_overlap_us() / 1e3) << "\n";
    std::cout << "         start ms    end ms    dur ms  GPU stream  what\n";
    std::size_t shown = 0;
    for (const auto& a : t.activities) {
        if (shown++ == max_rows) {
            std::cout << "         ... and " << t.activities.size() - max_rows << " more (--json has every one)\n";
            break;
        }
        std::string what = a.kind == ActivityKind::Kernel ? a.name + "<<<" + std::to_string(a.grid[0]) + "," +
                                                                std::to_string(a.block[0]) + ">>>"
                                                          : std::string(activity_kind_name(a.kind)) + " " +
                                                                bytes_human(double(a.bytes));
        if (activity_is_copy(a.kind) || a.kind == ActivityKind::Memset) what += fmt(", %.1f GB/s", a.gbs());
        if (a.pageable) what += ", pageable";
        if (a.in_graph) what += ", in a graph";
        char row[96];
        std::snprintf(row, sizeof row, "       %10.3f %9.3f %9.3f  %3d %6u  ", a.start_us / 1e3, a.end_us / 1e3,
                      a.duration_us() / 1e3, a.device, a.stream);
        std::cout << row << what << "\n";
    }
}

std::string target_text(const TargetResult& t, bool host_step) {
    std::string s = "<= " + fmt("%.2f", t.at_most) + " x " + t.step + "'s " +
                    (!host_step ? std::string("GPU time")
                                : std::string(target_measure_name(t.measure)) +
                                      (t.measure == TargetMeasure::Wall ? " time" : " time on the timeline"));
    if (!t.not_applicable.empty()) return s + ": does not apply: " + render(t.not_applicable, "en");
    if (t.that_ms <= 0) return s + ": not measured";
    return s + ": " + fmt("%.3f ms", t.this_ms) + " vs " + fmt("%.3f ms", t.that_ms) + " = " + fmt("%.2fx", t.ratio()) +
           (t.met() ? ", met" : ", NOT met");
}

}  // namespace wb::cli
