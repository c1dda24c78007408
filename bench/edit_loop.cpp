// bench/edit_loop.cpp — how long a student waits from an edit to a checked
// result, through the same warm worker process the GUI uses, against NVRTC
// compiling the same source alone (and CuPy's RawKernel, when it is there).
//
//   wb_bench_edit_loop [--lessons DIR] [--edits N] [--host-edits N] [--lesson ID]... [--cupy]
//
// A host step's edit is an nvcc build of seconds: it takes --host-edits
// edits (default 10), so that all 20 lessons fit in the GPU bench's time.
//
// For each shipped lesson (all 20; --lesson picks some), its last step's solution on its smallest case
// ("small", else the first), checked but not timed (the timing method's own
// samples would dwarf the loop):
//   first_run     a fresh worker and empty caches: NVRTC, g++ for the CPU reference, the run
//   edit          the source with a new comment each time: a compile-cache miss, then the run
//   rerun         the same source again: a cache hit and the run
//   nvrtc         NVRTC alone on the same edited sources, in this process, no cache:
//                 the step's options as a student would pass them by hand
//   nvrtc_as_worker  the same with the worker's own options (-minimal where the
//                 source allows it, compile/nvrtc.hpp), no cache
//   nvrtc_cache_miss  the worker's options through the compile cache: key, NVRTC, store
// (the three nvrtc figures are for kernel steps: a host step is built by nvcc, in the edit)
// p50 and p90 of N edits (default 30), the edit split at the end of the
// compile (edit_to_compiled: the request's trip and the compile; after: the
// run), and the ratios edit/nvrtc and edit/nvrtc_as_worker. With --cupy
// (python3 and cupy importable), bench/cupy_edit_loop.py times RawKernel on
// the same edited source and the ratio edit/cupy is printed too.
// One figure per line, "edit_loop LESSON FIGURE VALUE", for scripts to compare.
// At the end, each lesson's edit p50 over the median of the header-free
// lessons' (their measured source includes nothing; a host step is not one):
// "edit_over_header_free_p50", the figure the edit loop's goal is stated in
// (docs/performance.md), and "header_free_edit_p50_ms" under the name "all".
#include "compile/nvrtc.hpp"
#include "core/fs.hpp"
#include "lesson/expr.hpp"
#include "lesson/loader.hpp"
#include "pipeline/run.hpp"
#include "pipeline/worker.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

namespace fs = std::filesystem;

namespace {

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double pct(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(p * double(v.size() - 1) + 0.5))];
}

void figure(const std::string& lesson, const char* name, double value) {
    std::printf("edit_loop %-12s %-22s %.3f\n", lesson.c_str(), name, value);
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    // The checkout: $WB_SOURCE_DIR (a bundle on another machine), else where this was built from.
    const std::string root = std::getenv("WB_SOURCE_DIR") ? std::getenv("WB_SOURCE_DIR") : WB_SOURCE_DIR;
    fs::path lessons = root + "/lessons";
    int edits = 30;
    int host_edits = 10;
    bool cupy = false;
    std::vector<std::string> only;  // --lesson IDs; empty: every lesson
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--lessons" && i + 1 < argc) lessons = argv[++i];
        else if (a == "--edits" && i + 1 < argc) edits = std::max(3, std::atoi(argv[++i]));
        else if (a == "--host-edits" && i + 1 < argc) host_edits = std::max(3, std::atoi(argv[++i]));
        else if (a == "--lesson" && i + 1 < argc) only.push_back(argv[++i]);
        else if (a == "--cupy") cupy = true;
        else {
            std::fprintf(stderr, "usage: wb_bench_edit_loop [--lessons DIR] [--edits N] [--host-edits N] [--lesson ID]... [--cupy]\n");
            return 2;
        }
    }
    // Empty caches, so the first run pays what a first run pays.
    char tmpl[] = "/tmp/wb-bench-XXXXXX";
    if (!mkdtemp(tmpl)) return 1;
    setenv("XDG_CACHE_HOME", tmpl, 1);

    int status = 0;
    struct Measured {
        std::string id;
        double edit_p50_ms;
        bool header_free;
    };
    std::vector<Measured> measured;
    for (const fs::path& file : wb::list_lessons(lessons)) {
        auto loaded = wb::load_lesson(file);
        if (!loaded.ok()) {
            std::fprintf(stderr, "%s: not measured, the lesson does not load\n", file.string().c_str());
            status = 1;
            continue;
        }
        auto lesson = std::make_shared<const wb::Lesson>(std::move(*loaded.lesson));
        if (!only.empty() && std::find(only.begin(), only.end(), lesson->id) == only.end()) continue;
        const wb::Step& step = lesson->steps.back();
        const bool host_step = step.is_host();
        std::string case_name;
        for (const auto& c : step.checks.cases)
            if (c.name == "small") case_name = c.name;
        if (case_name.empty() && !step.checks.cases.empty()) case_name = step.checks.cases.front().name;

        wb::WorkerBackend worker;  // a fresh worker per lesson, as when the GUI starts
        wb::RunRequest req;
        req.lesson = lesson;
        req.step = step.id;
        req.test_case = case_name;
        req.source = wb::SourceChoice::Custom;
        req.custom_source = step.solution.text;
        req.custom_origin = "kernel.cu";
        req.timing = false;
        req.keep_buffers = false;
        req.trusted = true;

        double t0 = now_ms();
        wb::RunResult first = worker.run(req);
        const double first_ms = now_ms() - t0;
        const bool ran = first.status == wb::RunStatus::Passed || first.status == wb::RunStatus::CompileOnly;
        if (!ran) {
            std::fprintf(stderr, "%s: the first run did not pass: %s\n", lesson->id.c_str(), first.message.c_str());
            status = 1;
            continue;
        }
        std::vector<double> edit_ms, rerun_ms, nvrtc_ms;
        // Where an edit's time goes, by the phases the worker reports: the
        // request's trip and the compile (to "reference"), the rest of the run after it.
        std::vector<double> edit_compile_ms, edit_after_ms;
        double compile_began = 0, compile_ended = 0;
        req.on_phase = [&](const char* phase) {
            const std::string p = phase;
            if (p == "compile") compile_began = now_ms();
            else if (p == "reference" && compile_ended == 0) compile_ended = now_ms();
        };
        wb::CompileOptions nv = wb::step_compile_options(step, first.compile.arch);
        const wb::CompileOptions cached_nv = nv;
        nv.use_cache = false;
        // "NVRTC alone" is the plain compile a student would run by hand: the
        // step's options, without the -minimal the worker adds where it can.
        wb::CompileOptions nv_minimal = nv;
        nv.minimal = false;
        std::vector<double> nvrtc_cached_ms, nvrtc_minimal_ms;
        // Each figure's order alternates from edit to edit (the edit and its
        // re-run first, then NVRTC alone and through the cache; then the other
        // way round), so what one leaves warm in the CPU's caches (the same
        // NVRTC code, shared between the processes) favours neither.
        const int step_edits = host_step ? host_edits : edits;
        for (int i = 0; i < step_edits; ++i) {
            // A new comment: a different text (a cache miss), the same kernel.
            req.custom_source = step.solution.text + "\n// edit " + std::to_string(i) + " at " + std::to_string(now_ms()) + "\n";
            auto edit_and_rerun = [&] {
                t0 = now_ms();
                compile_began = compile_ended = 0;
                const wb::RunResult r = worker.run(req);
                edit_ms.push_back(now_ms() - t0);
                if (compile_ended > 0) {
                    edit_compile_ms.push_back(compile_ended - t0);
                    edit_after_ms.push_back(t0 + edit_ms.back() - compile_ended);
                }
                if (r.status != first.status) {
                    std::fprintf(stderr, "%s: edit %d: %s\n", lesson->id.c_str(), i, r.message.c_str());
                    status = 1;
                }
                t0 = now_ms();
                worker.run(req);
                rerun_ms.push_back(now_ms() - t0);
            };
            auto nvrtc_alone = [&] {
                if (host_step) return;  // nvcc builds it, inside the edit
                t0 = now_ms();
                const wb::CompileResult c = wb::compile_cuda(wb::SourceText{req.custom_source, "kernel.cu", ""}, nv);
                nvrtc_ms.push_back(now_ms() - t0);
                if (!c.ok) status = 1;
                t0 = now_ms();
                const wb::CompileResult cm = wb::compile_cuda(
                    wb::SourceText{req.custom_source + "// minimal " + std::to_string(i) + "\n", "kernel.cu", ""}, nv_minimal);
                nvrtc_minimal_ms.push_back(now_ms() - t0);
                if (!cm.ok) status = 1;
                // The same through the compile cache (a miss, then the store), in this process.
                t0 = now_ms();
                const wb::CompileResult cc = wb::compile_cuda(
                    wb::SourceText{req.custom_source + "// cached " + std::to_string(i) + "\n", "kernel.cu", ""}, cached_nv);
                nvrtc_cached_ms.push_back(now_ms() - t0);
                if (!cc.ok) status = 1;
            };
            if (i % 2 == 0) {
                edit_and_rerun();
                nvrtc_alone();
            } else {
                nvrtc_alone();
                edit_and_rerun();
            }
        }
        const std::string& id = lesson->id;
        figure(id, first.status == wb::RunStatus::Passed ? "ran_on_gpu" : "compile_only", 1);
        figure(id, "first_run_ms", first_ms);
        figure(id, "edit_p50_ms", pct(edit_ms, 0.5));
        figure(id, "edit_p90_ms", pct(edit_ms, 0.9));
        figure(id, "edit_to_compiled_p50_ms", pct(edit_compile_ms, 0.5));
        figure(id, "edit_after_compile_p50_ms", pct(edit_after_ms, 0.5));
        figure(id, "rerun_p50_ms", pct(rerun_ms, 0.5));
        figure(id, "rerun_p90_ms", pct(rerun_ms, 0.9));
        if (host_step) {
            figure(id, "host_step_nvcc", 1);
        } else {
            figure(id, "nvrtc_p50_ms", pct(nvrtc_ms, 0.5));
            figure(id, "nvrtc_cache_miss_p50_ms", pct(nvrtc_cached_ms, 0.5));
            figure(id, "nvrtc_as_worker_p50_ms", pct(nvrtc_minimal_ms, 0.5));
            figure(id, "edit_over_nvrtc_as_worker_p50", pct(edit_ms, 0.5) / pct(nvrtc_minimal_ms, 0.5));
            figure(id, "edit_over_nvrtc_p50", pct(edit_ms, 0.5) / pct(nvrtc_ms, 0.5));
            figure(id, "edit_over_nvrtc_p90", pct(edit_ms, 0.9) / pct(nvrtc_ms, 0.5));
            figure(id, "first_over_nvrtc", first_ms / pct(nvrtc_ms, 0.5));
        }
        measured.push_back({id, pct(edit_ms, 0.5),
                            !host_step && step.solution.text.find("#include") == std::string::npos});
        if (cupy && first.status == wb::RunStatus::Passed && step.launches.size() == 1) {
            // The same kernel through CuPy's RawKernel: edited source, compile, launch, synchronise.
            const std::string src_file = std::string(tmpl) + "/" + id + ".cu";
            wb::write_file_atomic(src_file, step.solution.text);
            const auto& d = first.launches.front().dims;
            // The kernel's arguments as the lesson gives them: "b" for a buffer
            // (CuPy allocates each as large as the largest of this case's), "i:V"
            // or "f:V" for a number.
            std::string args;
            std::uint64_t largest = 1;
            for (const auto& b : step.buffers) {
                double elems = 1;
                for (const auto& dim : b.shape) elems *= wb::eval_expr(dim, wb::ExprVars(first.params.begin(), first.params.end()));
                largest = std::max<std::uint64_t>(largest, std::uint64_t(elems) * wb::dtype_size(b.type));
            }
            for (const auto& a : step.launches.front().args) {
                if (!args.empty()) args += ",";
                if (a.kind == wb::Arg::Kind::Buffer) {
                    args += "b";
                    continue;
                }
                const double v = wb::eval_expr(a.name, wb::ExprVars(first.params.begin(), first.params.end()));
                args += (wb::dtype_is_float(a.type) ? "f:" : "i:") + std::to_string(v);
            }
            const std::string cmd = "python3 '" + root + "/bench/cupy_edit_loop.py' '" + src_file + "' " +
                                    step.launches.front().entry + " " + std::to_string(edits) + " " +
                                    std::to_string(d.grid[0]) + "," + std::to_string(d.grid[1]) + "," +
                                    std::to_string(d.grid[2]) + " " + std::to_string(d.block[0]) + "," +
                                    std::to_string(d.block[1]) + "," + std::to_string(d.block[2]) + " " + args + " " +
                                    std::to_string(largest) + " " + std::to_string(d.shared_bytes) + " '" + root +
                                    "/runtime/compile/nvrtc_include'";
            FILE* p = popen(cmd.c_str(), "r");
            double cupy_p50 = 0;
            if (p) {
                char line[256];
                while (std::fgets(line, sizeof line, p))
                    if (std::sscanf(line, "cupy_edit_p50_ms %lf", &cupy_p50) == 1) break;
                pclose(p);
            }
            if (cupy_p50 > 0) {
                figure(id, "cupy_edit_p50_ms", cupy_p50);
                figure(id, "edit_over_cupy_p50", pct(edit_ms, 0.5) / cupy_p50);
            } else {
                std::printf("edit_loop %-12s cupy                   not measured (python3 with cupy not available, or its kernel failed)\n", id.c_str());
            }
        }
    }
    // Each lesson against the header-free lessons' median edit.
    std::vector<double> header_free;
    for (const auto& m : measured)
        if (m.header_free) header_free.push_back(m.edit_p50_ms);
    if (!header_free.empty()) {
        const double base = pct(header_free, 0.5);
        figure("all", "header_free_edit_p50_ms", base);
        for (const auto& m : measured) figure(m.id, "edit_over_header_free_p50", m.edit_p50_ms / base);
    }
    std::error_code ec;
    fs::remove_all(tmpl, ec);
    return status;
}
