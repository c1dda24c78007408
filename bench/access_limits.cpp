// bench/access_limits.cpp — what a step's access limits (lesson checks.access)
// cost on the CPU emulator: lesson 06 step 3 (the shared-memory tiled matmul)
// at M = N = K = 256, its solution run in this process without limits, and
// with each kind of limit added to the step for the benchmark (the shipped
// lesson has none):
//   none      the step as shipped: counting is off
//   thread    two counts per thread: global reads at most 2K/16, shared reads at most 16K/16
//   element   each element of C written exactly once
//   all       both of those, a per-thread count of one buffer, and a bank-conflict
//             figure (which turns on the sampled blocks' record)
// The configurations take turns, so a machine that slows down slows them all.
// Per configuration, the launches' wall time (RunResult::emulated_ms, the
// first, checked validation run) over the runs: median, min and max, and the
// median over the median without limits. One figure per line,
// "access_limits CONFIG FIGURE VALUE", for scripts.
//
//   wb_bench_access_limits [--runs N] [--size S]
#include "lesson/loader.hpp"
#include "pipeline/run.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

wb::AccessLimitSpec count(wb::AccessCount what, const std::string& at_most, const std::string& buffer = "", bool per_element = false) {
    wb::AccessLimitSpec a;
    a.count = what;
    a.at_most = at_most;
    a.buffer = buffer;
    a.per_element = per_element;
    if (per_element) a.at_least = at_most;
    a.json_path = "steps[2].checks.access[bench]";
    return a;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string root = std::getenv("WB_SOURCE_DIR") ? std::getenv("WB_SOURCE_DIR") : WB_SOURCE_DIR;
    int runs = 7;
    int size = 256;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
        else if (a == "--size" && i + 1 < argc) size = std::max(16, std::atoi(argv[++i]));
        else {
            std::fprintf(stderr, "usage: wb_bench_access_limits [--runs N] [--size S]\n");
            return 2;
        }
    }
    auto loaded = wb::load_lesson(root + "/lessons/06_matmul.json");
    if (!loaded.ok()) {
        std::fprintf(stderr, "lessons/06_matmul.json does not load\n");
        return 1;
    }
    const wb::Lesson shipped = std::move(*loaded.lesson);
    const std::string k = std::to_string(size);
    wb::AccessLimitSpec ways;
    ways.is_figure = true;
    ways.figure = wb::AccessFigure::BankConflictWays;
    ways.figure_at_most = 32;
    ways.json_path = "steps[2].checks.access[bench]";
    const std::vector<std::pair<std::string, std::vector<wb::AccessLimitSpec>>> configs = {
        {"none", {}},
        {"thread", {count(wb::AccessCount::GlobalReads, "2 * K / 16 + 2"), count(wb::AccessCount::SharedReads, "2 * K + 32")}},
        {"element", {count(wb::AccessCount::GlobalWrites, "1", "C", true)}},
        {"all", {count(wb::AccessCount::GlobalReads, "2 * K / 16 + 2"), count(wb::AccessCount::SharedReads, "2 * K + 32"),
                 count(wb::AccessCount::GlobalReads, "K / 16 + 1", "A"), count(wb::AccessCount::GlobalWrites, "1", "C", true), ways}},
    };
    auto backend = wb::make_local_backend();
    std::map<std::string, std::vector<double>> ms;
    // One run of each first: the kernel library is built and cached, the reference's outputs kept.
    for (int r = -1; r < runs; ++r)
        for (const auto& [name, limits] : configs) {
            auto lesson = std::make_shared<wb::Lesson>(shipped);
            lesson->steps.at(2).checks.access = limits;
            wb::RunRequest req;
            req.trusted = true;
            req.lesson = lesson;
            req.step = "3";
            req.test_case = "small";
            req.params = {{"M", size}, {"N", size}, {"K", size}};
            req.source = wb::SourceChoice::Solution;
            req.executor = wb::Executor::Cpu;
            req.timing = false;
            req.keep_buffers = false;
            const wb::RunResult res = backend->run(req);
            if (res.status != wb::RunStatus::Passed) {
                std::fprintf(stderr, "%s: %s: %s\n", name.c_str(), wb::run_status_name(res.status), res.message.c_str());
                return 1;
            }
            if (res.access_limits.size() != limits.size()) {
                std::fprintf(stderr, "%s: %zu limits judged of %zu\n", name.c_str(), res.access_limits.size(), limits.size());
                return 1;
            }
            if (r >= 0) ms[name].push_back(res.emulated_ms);
        }
    const double base = median(ms["none"]);
    for (const auto& [name, limits] : configs) {
        const auto& v = ms[name];
        std::printf("access_limits %-8s emulated_ms_median %.1f\n", name.c_str(), median(v));
        std::printf("access_limits %-8s emulated_ms_min    %.1f\n", name.c_str(), *std::min_element(v.begin(), v.end()));
        std::printf("access_limits %-8s emulated_ms_max    %.1f\n", name.c_str(), *std::max_element(v.begin(), v.end()));
        std::printf("access_limits %-8s over_none          %.2f\n", name.c_str(), base > 0 ? median(v) / base : 0);
    }
    return 0;
}
