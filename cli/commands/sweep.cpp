// cli/commands/sweep.cpp — `cuda-workbook-cli sweep <lesson.json> [options]`.
//
// One step run across the block sizes that fit (the default) or across a
// param's values (--range), every point checked against the CPU reference and
// timed like `run`. runtime/measure/sweep.hpp plans the points and picks the
// fastest; this prints one line per point with a bar for its GB/s (or its
// time, when the lesson has no bytes metric), or the whole sweep as JSON.
#include "commands.hpp"

#include "common.hpp"
#include "core/error.hpp"
#include "pipeline/report.hpp"
#include "pipeline/run.hpp"
#include "measure/sweep.hpp"

#include <algorithm>
#include <iostream>

#include <unistd.h>

namespace wb::cli {

namespace {

nlohmann::json point_json(const SweepPoint& p, const RunResult& r) {
    nlohmann::json j = {{"label", p.label}, {"x", p.x}, {"status", run_status_name(r.status)}, {"message", r.message}};
    if (p.block) j["block"] = *p.block;
    if (!p.params.empty()) j["params"] = p.params;
    for (const auto& l : r.launches)
        if (l.tuned || r.launches.size() == 1) {
            j["grid"] = l.dims.grid;
            j["launch_block"] = l.dims.block;
            if (l.resources.registers >= 0) j["registers"] = l.resources.registers;
            if (l.refusal) j["refusal"] = l.refusal->message;
        }
    if (const Timing* t = r.step_time()) {
        j["median_ms"] = t->median_ms;
        j["min_ms"] = t->min_ms;
        j["max_ms"] = t->max_ms;
        j["samples"] = t->samples_ms.size();
        j["noise"] = t->noise;
        if (r.bytes > 0) j["gbs"] = r.gbs();
        if (r.flops > 0) j["gflops"] = r.gflops();
        if (r.bandwidth_fraction() > 0) j["bandwidth_fraction"] = r.bandwidth_fraction();
        if (r.compute_fraction() > 0) j["compute_fraction"] = r.compute_fraction();
    }
    if (r.cpu_ms >= 0) j["cpu_ms"] = r.cpu_ms;
    return j;
}

// "########" scaled so the largest value fills `width` columns.
std::string bar(double v, double max, int width) {
    if (!(v > 0) || !(max > 0)) return "";
    return std::string(size_t(std::max(1.0, v / max * width + 0.5)), '#');
}

int sweep_main(const Args& a) {
    if (a.flag("--blocks") && a.value("--range")) throw UsageError("--blocks and --range cannot be used together");
    int refused = kOk;
    auto lesson = open_one_lesson(a, "sweep", refused);
    if (!lesson) return refused;
    RunRequest base = run_request_from_args(a, lesson);
    base.keep_buffers = false;
    // A sweep is about the GPU's times: without one its points are compile-only, never emulated.
    base.executor = Executor::Gpu;
    const Step* step = request_step(base);
    if (!step) throw UsageError("the lesson has no such step");

    SweepAxis axis;
    if (auto r = a.value("--range")) {
        try {
            axis = parse_param_sweep(*r);
        } catch (const Error& e) {
            throw UsageError(e.message());
        }
    } else if (!base.launches.empty() && base.launches.back().block) {
        throw UsageError("--block fixes the block that --blocks sweeps: give one or the other");
    }

    auto backend = make_backend(a);
    const BackendInfo info = backend->info();
    const int max_threads = info.has_gpu && !info.devices.empty() ? info.devices.front().limits.max_threads_per_block : 1024;
    SweepPlan plan;
    try {
        plan = plan_sweep(*step, axis, max_threads);
    } catch (const Error& e) {
        throw UsageError(e.message());
    }

    const bool as_json = a.flag("--json");
    const std::string what = axis.kind == SweepAxis::Kind::Block
                                 ? "block size of " + step->launches[step->tuned_launch()].entry
                                 : "param " + plan.x_label;
    if (!as_json) {
        std::cout << "lesson " << lesson->id << " · step " << step->id << " · sweep " << what << ", "
                  << plan.points.size() << " points\n";
        if (info.has_gpu && !info.devices.empty()) std::cout << "device  " << info.devices.front().name << "\n";
        for (const auto& l : plan.left_out) std::cout << "left out " << l << "\n";
    }

    // A counter on a terminal; nothing in a log or a pipe.
    const bool progress = !as_json && isatty(2);
    std::vector<RunResult> results;
    for (size_t i = 0; i < plan.points.size(); ++i) {
        results.push_back(backend->run(sweep_request(base, *step, plan.points[i])));
        if (progress) std::cerr << "\r" << (i + 1) << " of " << plan.points.size() << " points run" << std::flush;
    }
    if (progress) std::cerr << "\r" << std::string(40, ' ') << "\r" << std::flush;
    const SweepSummary summary = summarize_sweep(plan, results);

    if (as_json) {
        nlohmann::json j;
        j["lesson"] = lesson->id;
        j["step"] = step->id;
        j["axis"] = axis.kind == SweepAxis::Kind::Block ? "block" : "param";
        if (axis.kind == SweepAxis::Kind::Param) j["param"] = axis.param;
        j["x_label"] = plan.x_label;
        if (info.has_gpu && !info.devices.empty()) j["device"] = info.devices.front().name;
        j["points"] = nlohmann::json::array();
        for (size_t i = 0; i < results.size(); ++i) j["points"].push_back(point_json(plan.points[i], results[i]));
        j["left_out"] = plan.left_out;
        j["summary"] = {{"passed", summary.passed}, {"failed", summary.failed}, {"text", summary.text}};
        if (summary.fastest >= 0) j["summary"]["fastest"] = plan.points[size_t(summary.fastest)].label;
        std::cout << j.dump(2) << "\n";
    } else {
        // Bars show GB/s when the lesson counts bytes (higher is better), else the time.
        bool by_gbs = false;
        double top = 0;
        bool host = false;
        for (const auto& r : results)
            if (const Timing* t = r.step_time()) {
                by_gbs = by_gbs || (r.bytes > 0 && r.gpu_time);
                host = host || r.host_step;
                top = std::max(top, r.bytes > 0 && r.gpu_time ? r.gbs() : t->median_ms);
            }
        std::cout << "point        status     " << (host ? "run() ms" : "  GPU ms") << "       GB/s    GFLOP/s   "
                  << (by_gbs ? "GB/s" : "time") << "\n";
        for (size_t i = 0; i < results.size(); ++i) {
            const RunResult& r = results[i];
            char line[200];
            std::snprintf(line, sizeof line, "%-12s %-12s", plan.points[i].label.c_str(), run_status_name(r.status));
            std::cout << line;
            if (const Timing* t = r.step_time()) {
                std::snprintf(line, sizeof line, " %9.4f %10.1f %10.1f   ", t->median_ms, r.gbs(), r.gflops());
                std::cout << line << bar(by_gbs ? r.gbs() : t->median_ms, top, 30);
                if (int(i) == summary.fastest) std::cout << "  <- fastest";
            } else if (r.status != RunStatus::Passed && r.status != RunStatus::CompileOnly) {
                std::cout << " " << r.message;
            }
            std::cout << "\n";
        }
        std::cout << "summary " << summary.text << "\n";
    }

    // Compile-only (no GPU) says so as `run` does; otherwise every point must pass.
    int code = kOk;
    for (const auto& r : results) code = std::max(code, exit_for(r, a.flag("--compile-only")));
    if (plan.points.empty()) code = kFailed;
    return code;
}

}  // namespace

CommandSpec sweep_command() {
    CommandSpec c;
    c.name = "sweep";
    c.operands = "<lesson.json>";
    c.summary = "a step across block sizes or a param's range, each point checked";
    c.about =
        "Runs a step at every point of a sweep, checks each point against the CPU\n"
        "reference and times it as `run` does, then prints a line per point with a\n"
        "bar of its GB/s (its time when the lesson has no bytes metric) and the\n"
        "fastest point that passed. --blocks (the default) or --range says what to sweep;\n"
        "the other options are run's (--timeout is per point).\n"
        "Exit 0 when every point passed, 1 when one did not, 4 without a GPU.\n";
    c.options = {
        flag_option("--blocks", "block sizes of the tuned launch (the default). A 1-D block\n"
                                "tries 32 to 1024 threads in warp multiples; a 2-D one tries\n"
                                "x in 8..64 by y in 2..32, 64 to 1024 threads. The grid\n"
                                "follows from the lesson's grid expression."),
        value_option("--range", "N=SPEC", "a param's values: N=1024:1048576:x2 (times 2 each step),\n"
                                          "N=256:4096:+256 (plus 256), or N=1000,5000,20000.\n"
                                          "Values outside the param's bounds are left out and said.\n"
                                          "At most 64 points."),
    };
    for (OptionSpec o : run_request_options()) c.options.push_back(o);
    for (OptionSpec o : {value_option("--block", "x,y,z", "the block a --range sweep runs with"),
                         value_option("--grid", "x,y,z", "the grid a --range sweep runs with"),
                         value_option("--shared", "BYTES", "dynamic shared memory for the tuned launch"),
                         flag_option("--json", "the sweep as JSON: {axis, x_label, points: [...], left_out, summary}")})
        c.options.push_back(o);
    c.run = sweep_main;
    return c;
}

}  // namespace wb::cli
