// bench/large_sizes.cpp — what a run costs at the largest sizes the shipped
// lessons allow, through the same worker process the GUI and the CLI use.
//
//   wb_bench_large [--lessons DIR] [--only LESSON]
//
// For each case (vector add at 10^8, RGB to gray at 8192^2, tiled matmul at
// 2048^3, warp-shuffle reduction at 2^26), the solution, three runs:
//   cli     as `cuda-workbook-cli run`: checked and timed, no buffers back
//   gui     as the GUI's Run: checked and timed, buffers back as samples
//   rerun   the GUI's request again: inputs and reference outputs reused
// Before them, the step's first case runs once, as when the GUI opens a
// lesson: the worker has its CUDA context (and, on a GPU, the measured
// ceilings) before the clock starts. Per run: end-to-end wall time, the time
// in each phase the worker reports (prepare, compile, reference, gpu,
// timing), the worker's resident memory before the run and its peak during
// it (VmHWM, reset before it through clear_refs), the peak's growth over the
// lesson's buffers, and for the GUI the bytes that crossed the pipe.
// One figure per line, "large CASE RUN FIGURE VALUE", for scripts to compare.
#include "core/fs.hpp"
#include "data/buffers.hpp"
#include "lesson/expr.hpp"
#include "lesson/loader.hpp"
#include "pipeline/run.hpp"
#include "pipeline/worker.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

namespace fs = std::filesystem;

namespace {

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A process's resident memory now ("VmRSS") or its peak since the last reset
// ("VmHWM"), in bytes (0 when unreadable).
std::uint64_t resident(int pid, const std::string& field) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(field + ":", 0) == 0) return std::strtoull(line.c_str() + field.size() + 1, nullptr, 10) << 10;
    return 0;
}

// Starts a new peak at the current resident size (Linux's clear_refs "5").
void reset_peak(int pid) { std::ofstream("/proc/" + std::to_string(pid) + "/clear_refs") << "5"; }

struct Case {
    const char* lesson;
    const char* step;
    std::map<std::string, double> params;
};

void figure(const std::string& name, const char* run, const char* what, double value) {
    std::printf("large %-12s %-6s %-22s %.3f\n", name.c_str(), run, what, value);
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    const std::string root = std::getenv("WB_SOURCE_DIR") ? std::getenv("WB_SOURCE_DIR") : WB_SOURCE_DIR;
    fs::path lessons = root + "/lessons";
    std::string only;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--lessons" && i + 1 < argc) lessons = argv[++i];
        else if (a == "--only" && i + 1 < argc) only = argv[++i];
        else {
            std::fprintf(stderr, "usage: wb_bench_large [--lessons DIR] [--only LESSON]\n");
            return 2;
        }
    }
    const std::vector<Case> cases = {
        {"vector_add", "grid_stride_loop", {{"N", 1e8}}},
        {"rgb_to_gray", "grid_2d_hwc", {{"H", 8192}, {"W", 8192}}},
        {"matmul", "shared_memory_tiles", {{"M", 2048}, {"N", 2048}, {"K", 2048}}},
        {"reduction", "warp_shuffle", {{"N", 67108864}}},
    };
    std::map<std::string, fs::path> files;
    for (const fs::path& f : wb::list_lessons(lessons))
        if (auto l = wb::load_lesson(f); l.ok()) files[l.lesson->id] = f;

    int status = 0;
    for (const Case& c : cases) {
        if (!only.empty() && only != c.lesson) continue;
        if (!files.count(c.lesson)) {
            std::fprintf(stderr, "%s: not among the lessons in %s\n", c.lesson, lessons.c_str());
            status = 1;
            continue;
        }
        auto lesson = std::make_shared<const wb::Lesson>(std::move(*wb::load_lesson(files[c.lesson]).lesson));
        const wb::Step* step = nullptr;
        for (const auto& s : lesson->steps)
            if (s.id == c.step) step = &s;
        if (!step) {
            std::fprintf(stderr, "%s: no step %s\n", c.lesson, c.step);
            status = 1;
            continue;
        }
        // The lesson's buffers at these params: what "1.5 x the buffers" measures against.
        const wb::ExprVars vars(c.params.begin(), c.params.end());
        std::uint64_t buffer_bytes = 0;
        for (const auto& b : step->buffers) {
            std::uint64_t n = wb::dtype_size(b.type);
            for (std::size_t d : wb::eval_shape(b, vars)) n *= d;
            buffer_bytes += n;
        }

        wb::WorkerBackend worker;
        wb::RunRequest req;
        req.lesson = lesson;
        req.step = step->id;
        req.source = wb::SourceChoice::Solution;
        req.trusted = true;
        const std::string name = c.lesson;
        figure(name, "-", "buffers_mb", double(buffer_bytes) / 1e6);
        {
            wb::RunRequest warm = req;
            warm.keep_buffers = false;
            const wb::RunResult w = worker.run(warm);
            figure(name, "warmup", "passed", w.status == wb::RunStatus::Passed || w.status == wb::RunStatus::CompileOnly);
            req.params = c.params;
        }

        struct Run {
            const char* label;
            bool gui;
        };
        for (const Run run : {Run{"cli", false}, Run{"gui", true}, Run{"rerun", true}}) {
            req.keep_buffers = run.gui;
            req.sample_over = run.gui ? wb::kSampleOver : 0;
            std::vector<std::pair<std::string, double>> marks;
            req.on_phase = [&](const char* phase) { marks.push_back({phase, now_ms()}); };
            const int before_pid = worker.worker_pid();
            const std::uint64_t before = before_pid > 0 ? resident(before_pid, "VmRSS") : 0;
            if (before_pid > 0) reset_peak(before_pid);
            const double t0 = now_ms();
            const wb::RunResult r = worker.run(req);
            const double t1 = now_ms();
            const int pid = worker.worker_pid();
            const std::uint64_t peak = pid > 0 ? resident(pid, "VmHWM") : 0;
            if (r.status != wb::RunStatus::Passed && r.status != wb::RunStatus::CompileOnly) {
                std::fprintf(stderr, "%s %s: %s: %s\n", c.lesson, run.label, wb::run_status_name(r.status), r.message.c_str());
                status = 1;
            }
            figure(name, run.label, r.status == wb::RunStatus::Passed ? "ran_on_gpu" : "compile_only", 1);
            figure(name, run.label, "end_to_end_ms", t1 - t0);
            double from = t0;
            std::string phase = "prepare";
            for (const auto& [next, at] : marks) {
                figure(name, run.label, (phase + "_ms").c_str(), at - from);
                phase = next, from = at;
            }
            figure(name, run.label, (phase + "_ms").c_str(), t1 - from);
            if (r.gpu_time) figure(name, run.label, "kernel_ms", r.gpu_time->median_ms);
            figure(name, run.label, "cpu_reference_ms", r.cpu_ms);
            figure(name, run.label, "worker_before_mb", double(before) / 1e6);
            figure(name, run.label, "worker_peak_mb", double(peak) / 1e6);
            const double growth = peak > before ? double(peak - before) : 0;
            figure(name, run.label, "peak_growth_over_buffers", buffer_bytes ? growth / double(buffer_bytes) : 0);
            std::uint64_t sent = 0;
            for (const auto* list : {&r.inputs, &r.gpu_outputs, &r.cpu_outputs})
                for (const auto& b : *list) sent += b.size_bytes();
            if (run.gui) figure(name, run.label, "buffers_sent_mb", double(sent) / 1e6);
        }
    }
    return status;
}
