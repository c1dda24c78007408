// cli/commands/run.cpp — `cuda-workbook-cli run <lesson.json> [options]`.
//
// One step, one test case: compile, CPU reference, limit check, two poisoned
// validation runs, comparison, timing (runtime/pipeline/run.hpp does the work,
// in a worker process unless --in-process). Prints the result as text lines
// (lesson, device, compile, reference, launch, check, time, result) or JSON.
#include "commands.hpp"

#include "common.hpp"
#include "core/error.hpp"
#include "core/fs.hpp"
#include "emulate/access_record.hpp"
#include "measure/roofline.hpp"
#include "pipeline/report.hpp"
#include "pipeline/run.hpp"

#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace fs = std::filesystem;

namespace wb::cli {

namespace {

// Under compute-sanitizer: no time, then each finding as  file:line: what, by thread (x,y,z) in block (x,y,z).
// The raw report (r.output) is printed only when no finding could be read from it.
void print_sanitizer(const RunResult& r) {
    const char* tool = sanitizer_tool_name(r.sanitizer);
    if (!r.gpu_time && r.status != RunStatus::CompileOnly) std::cout << "time    not timed under compute-sanitizer\n";
    if (r.sanitizer_errors >= 0)
        std::cout << "sanitizer " << tool << ": " << r.sanitizer_errors << (r.sanitizer_errors == 1 ? " error" : " errors")
                  << ", " << r.sanitizer_findings.size() << " distinct finding" << (r.sanitizer_findings.size() == 1 ? "" : "s")
                  << "\n";
    for (const auto& f : r.sanitizer_findings) std::cout << f.to_string() << "\n";
    if (r.sanitizer_findings.empty() && r.status != RunStatus::Passed && !r.output.empty()) {
        std::cout << "output  (the worker and compute-sanitizer)\n";
        std::istringstream lines(r.output);
        for (std::string line; std::getline(lines, line);) std::cout << "        " << line << "\n";
    }
}

// "baseline cuBLAS SGEMM 0.0410 ms (52000.0 GFLOP/s), output checked: PASS; yours reaches 15% of its speed"
void print_baseline(const RunResult& r, const std::string& lang) {
    const BaselineResult& b = *r.baseline;
    std::cout << "baseline " << b.label;
    if (!b.ran) {
        std::cout << " did not run: " << b.note_in(lang) << "\n";
        return;
    }
    std::cout << " " << fmt("%.4f ms", b.median_ms);
    if (b.kind == "memcpy") std::cout << " (" << fmt("%.1f GB/s", b.gbs()) << ")";
    else if (b.gflops() > 0) std::cout << " (" << fmt("%.1f GFLOP/s", b.gflops()) << ")";
    std::cout << ", " << (b.kind == "memcpy" ? "copy" : "output") << " checked: " << (b.passed ? "PASS" : "FAIL");
    if (!b.note.empty()) std::cout << " (" << b.note_in(lang) << ")";
    if (r.baseline_fraction() > 0)
        std::cout << "; yours reaches " << fmt("%.0f%%", 100 * r.baseline_fraction())
                  << (b.kind == "memcpy" ? " of its GB/s" : " of its speed");
    std::cout << "\n";
}

// RunRequest::access's table: per source line, the warp-level requests of the
// sampled blocks, the 32-byte sectors per request (global memory) and the
// bank-conflict ways (shared memory); docs/memory-access.md defines them.
// The same table from Nsight Compute (RunRequest::profile) covers every block.
void print_access(const AccessSummary& a, const std::string& lang) {
    const bool ncu = a.source == "ncu";
    const char* head = ncu ? "profile " : "access  ";
    if (!a.not_recorded.empty()) {
        Sentence why = a.not_recorded;
        if (why.front().key == "access.needs_emulator") why.push_back({"cli.access_backend_cpu", {}});
        std::cout << head << render(why, lang) << "\n";
        return;
    }
    if (ncu)  // every block
        std::cout << head << render({{"profile.source", {std::to_string(a.launches.size())}}}, lang) << "\n";
    else  // the emulator's sampled blocks
        for (const auto& l : a.launches) {
            std::string blocks;
            for (const auto& b : l.sampled) blocks += (blocks.empty() ? "" : ", ") + dims_str(b);
            std::cout << "access  "
                      << render({{"access.sampled", {l.kernel, std::to_string(l.sampled.size()), std::to_string(l.blocks), blocks}}}, lang)
                      << "\n";
        }
    if (a.truncated)
        std::cout << "        " << render({{"access.truncated", {std::to_string(AccessRecord::kAccesses)}}}, lang) << "\n";
    if (a.lines.empty()) {
        std::cout << "        " << render({{"access.none", {}}}, lang) << "\n";
        return;
    }
    std::size_t width = 4;
    std::vector<std::string> where;
    for (const auto& l : a.lines) {
        where.push_back((l.file.empty() ? std::string("?") : l.file) + ":" + std::to_string(l.line));
        width = std::max(width, where.back().size());
    }
    const auto w = static_cast<int>(width);
    std::cout << "        " << std::left << std::setw(w) << "line" << "  op      space   requests  sectors/req  ways\n";
    bool uneven = false;
    for (std::size_t i = 0; i < a.lines.size(); ++i) {
        const AccessLine& l = a.lines[i];
        const bool global = l.space == "global";
        uneven = uneven || l.uneven_requests > 0;
        std::cout << "        " << std::left << std::setw(w) << where[i] << "  " << std::setw(6) << l.op << "  " << std::setw(6)
                  << l.space << "  " << std::right << std::setw(8)
                  << (std::to_string(l.requests) + (l.uneven_requests > 0 ? "~" : "")) << "  " << std::setw(11)
                  << (global ? fmt("%.2f", l.sectors_per_request) : "-") << "  " << std::setw(4)
                  << (global ? "-" : fmt("%.2f", l.bank_conflict_ways)) << "\n";
    }
    if (uneven) std::cout << "        " << render({{"access.uneven", {}}}, lang) << "\n";
}

// The step's access limits (lesson checks.access), one line each: the
// verdict, the limit, and what was found (the worst thread, element or line).
void print_access_limits(const RunResult& r, const std::string& lang) {
    for (const AccessLimitResult& l : r.access_limits) {
        const char* verdict = l.verdict == LimitVerdict::Passed ? "PASS" : l.verdict == LimitVerdict::Failed ? "FAIL" : "not judged";
        std::cout << "limit   " << verdict << "  " << l.limit_in(lang) << " — " << l.said_in(lang) << "\n";
        if (l.verdict == LimitVerdict::Failed && !l.why.empty())
            std::cout << "        " << render({{"access.limit.why_line", {}}, lesson_text(l.why)}, lang) << "\n";
    }
}

// The run as text. Its sentences (the result, the hint, a refusal, a note, why there is no
// GPU) are in the student's language (LANG, core/phrase.hpp); the row names are the fields'.
// `where`: the machine a worker command's far end ran it on; empty when it ran here.
void print_run_text(const RunResult& r, const std::string& lang, const std::string& where) {
    // Only what is known: an input error or a timeout may come before the step,
    // the case or the params are.
    std::string header = "lesson " + (r.lesson_id.empty() ? std::string("?") : r.lesson_id);
    if (!r.step_id.empty()) header += " · step " + r.step_id;
    if (!r.case_name.empty()) header += " · case " + r.case_name;
    if (!r.params.empty()) header += " (" + params_str(r.params) + ")";
    std::cout << header << "\n";
    if (r.emulated)  // the CPU emulator ran it; without a GPU, the line also says why there is none
        std::cout << "device  " << render({{"cli.emulator", {}}}, lang)
                  << (r.device_note.empty() ? "" : render({{"cli.no_gpu", {r.device_note_in(lang)}}}, lang)) << "\n";
    else if (r.device)
        std::cout << "device  " << r.device->name << " (" << r.device->arch() << ", " << r.device->sm_count << " SMs, "
                  << bytes_human(double(r.device->total_memory)) << ")\n";
    else if (!r.device_note.empty())
        std::cout << "device  " << render({{"cli.no_device", {r.device_note_in(lang)}}}, lang) << "\n";
    if (!r.notice_said.empty()) std::cout << "note    " << render(r.notice_said, lang) << "\n";  // said once
    if (!r.compile.options.empty()) {
        std::cout << "compile " << (r.compile.ok ? "ok" : "FAILED") << ": " << r.compile.arch << " "
                  << (r.host_step ? "nvcc shared library" : r.compile.is_cubin ? "cubin" : "PTX") << ", "
                  << (r.compile.from_cache ? "from " + r.compile.cache_source + " cache" : fmt("%.2f s", r.compile.seconds))
                  << ", " << r.compile.error_count() << " errors, " << r.compile.warning_count() << " warnings\n";
        print_diagnostics(r.compile.diagnostics, r.compile.diagnostics_omitted);
    }
    if (!r.reference.ok && !r.reference.log.empty()) {
        std::cout << "reference FAILED to compile:\n";
        print_diagnostics(r.reference.diagnostics);
    } else if (r.cpu_ms >= 0) {
        std::cout << "reference ok: CPU " << fmt("%.4f ms", r.cpu_ms) << " (" << render(r.cpu_method(), "en") << "; "
                  << (r.reference.from_cache ? "library from cache)" : fmt("built in %.2f s)", r.reference.seconds)) << "\n";
    }
    for (const auto& l : r.launches) {
        long long tpb = l.dims.threads_per_block();
        std::cout << "launch  " << l.entry << "<<<" << dims_str(l.dims.grid) << ", " << dims_str(l.dims.block) << ", "
                  << l.dims.shared_bytes << ">>>  " << l.dims.blocks() << " blocks x " << tpb << " threads = "
                  << l.dims.blocks() * tpb << " threads, " << (tpb + 31) / 32 << " warps/block";
        if (l.passes != 1) std::cout << ", " << l.passes << " passes (sizes above: the first)";
        if (l.tuned && r.launches.size() > 1) std::cout << "  [tuned: --block/--grid/--shared change this one]";
        if (l.resources.registers >= 0)
            std::cout << ", " << l.resources.registers << " regs/thread, " << l.resources.static_shared << " B static smem";
        std::cout << "\n";
        if (l.refusal) std::cout << "        REFUSED (" << l.refusal->limit << "): " << l.refusal->message_in(lang) << "\n";
    }
    for (const auto& c : r.comparisons) {
        std::cout << "check   " << c.buffer << ": " << (c.passed ? "PASS" : "FAIL") << "  max abs err "
                  << fmt("%.3g", c.max_abs_error) << ", max rel err " << fmt("%.3g", c.max_rel_error) << ", "
                  << c.mismatches << " mismatches of " << c.count << " (atol " << fmt("%g", c.atol) << ", rtol "
                  << fmt("%g", c.rtol) << ")\n";
        if (!c.note.empty()) std::cout << "        " << c.note_in(lang) << "\n";
        for (const auto& m : c.first)
            std::cout << "        at " << index_str(m.index) << ": got " << fmt("%.9g", m.got) << ", want "
                      << fmt("%.9g", m.want) << " (" << render({{mismatch_reason_key(m.reason), {}}}, lang) << ")\n";
    }
    print_access_limits(r, lang);
    if (r.wall_time) {
        const auto& t = *r.wall_time;
        std::cout << "time    run() " << fmt("%.4f", t.median_ms) << " ms median (min " << fmt("%.4f", t.min_ms) << ", max "
                  << fmt("%.4f", t.max_ms) << ", " << t.samples_ms.size() << " samples after " << t.warmup
                  << " warm-up, noise " << fmt("%.2f%%", 100 * t.noise) << ")";
        if (r.cpu_ms >= 0) std::cout << "  CPU reference " << fmt("%.4f", r.cpu_ms) << " ms";
        std::cout << "\n";
    }
    if (r.timeline) print_timeline(*r.timeline);
    if (r.target) std::cout << "target  " << target_text(*r.target, r.host_step) << "\n";
    if (r.gpu_time) {
        const auto& t = *r.gpu_time;
        std::cout << "time    GPU " << fmt("%.4f", t.median_ms) << " ms median (min " << fmt("%.4f", t.min_ms) << ", max "
                  << fmt("%.4f", t.max_ms) << ", " << t.samples_ms.size() << " samples after " << t.warmup << " warm-up)";
        if (r.cpu_ms >= 0) std::cout << "  CPU " << fmt("%.4f", r.cpu_ms) << " ms  speed-up " << fmt("%.1fx", r.cpu_ms / t.median_ms);
        if (r.bytes > 0) std::cout << "  " << fmt("%.1f GB/s", r.gbs());
        if (r.bandwidth_fraction() > 0)
            std::cout << " (" << fmt("%.0f%%", 100 * r.bandwidth_fraction()) << " of the measured copy, "
                      << fmt("%.0f GB/s)", r.ceilings->copy_gbs);
        if (r.flops > 0) std::cout << "  " << fmt("%.1f GFLOP/s", r.gflops());
        if (r.compute_fraction() > 0)
            std::cout << " (" << fmt("%.1f%%", 100 * r.compute_fraction()) << " of the measured FP32 peak, "
                      << fmt("%.0f GFLOP/s)", r.ceilings->fp32_gflops);
        std::cout << "\n";
        if (const RooflinePoint p = roofline_point(r); p.roof_fraction > 0) {
            std::cout << "roofline " << fmt("%.3g FLOP/byte", p.intensity) << ", "
                      << (p.memory_bound ? "memory-bound" : "compute-bound") << " (ridge " << fmt("%.1f", p.ridge)
                      << "): " << fmt("%.0f%%", 100 * p.roof_fraction) << " of the "
                      << fmt("%.1f GFLOP/s", p.attainable) << " the roof allows here\n";
        }
        std::cout << "        " << render(timing_method(t), lang) << "\n";
        if (r.baseline) print_baseline(r, lang);
        if (t.near_resolution) std::cout << "        (under 10 us: near the resolution of event timing, about 1-2 us)\n";
    }
    if (r.access) print_access(*r.access, lang);
    if (r.profile) print_access(*r.profile, lang);
    if (r.sanitizer != SanitizerTool::None) print_sanitizer(r);
    else if (!r.output.empty()) {
        std::cout << "output  (what the kernel printed)\n";
        std::istringstream lines(r.output);
        for (std::string line; std::getline(lines, line);) std::cout << "        " << line << "\n";
    }
    if (!where.empty()) std::cout << "where   " << render({{"cli.on_host", {where}}}, lang) << "\n";
    std::cout << "result  " << run_status_label(r.status, lang) << ": " << r.message_in(lang) << "\n";
    if (!r.hint.empty()) std::cout << "hint    " << r.hint_in(lang) << "\n";
}

int run(const Args& a) {
    int refused = kOk;
    auto lesson = open_one_lesson(a, "run", refused);
    if (!lesson) return refused;
    bool as_json = a.flag("--json");
    RunRequest req = run_request_from_args(a, lesson);

    if (a.flag("--memcheck") && a.flag("--racecheck"))
        throw UsageError("--memcheck and --racecheck cannot be used together: run one, then the other");
    if (a.flag("--memcheck")) req.sanitizer = SanitizerTool::Memcheck;
    if (a.flag("--racecheck")) req.sanitizer = SanitizerTool::Racecheck;
    req.access = a.flag("--access");
    req.profile = a.flag("--profile");
    if (req.sanitizer != SanitizerTool::None && a.flag("--in-process"))
        throw UsageError("--in-process cannot be used with --memcheck or --racecheck: the tool runs a worker process");
    if (req.profile && req.sanitizer != SanitizerTool::None)
        throw UsageError("--profile cannot be used with --memcheck or --racecheck: run one, then the other");
    if (req.profile && a.flag("--in-process")) throw UsageError(render({{"cli.profile_in_process", {}}}, language_from_environment()));

    auto backend = make_backend(a);
    RunResult r = backend->run(req);
    const std::string where = remote_where(*backend);
    if (as_json) {
        auto j = report_json(r);
        if (!where.empty()) j["where"] = where;  // the machine the worker command's far end ran it on
        std::cout << j.dump(2) << "\n";
    } else {
        print_run_text(r, language_from_environment(), where);
    }
    return exit_for(r, a.flag("--compile-only"));
}

}  // namespace

CommandSpec run_command() {
    CommandSpec c;
    c.name = "run";
    c.operands = "<lesson.json>";
    c.summary = "run a step's kernel on the GPU against the CPU reference";
    c.about =
        "Compiles a step's kernel, runs it on the GPU for one test case, and checks its\n"
        "outputs against the lesson's CPU reference. Without a GPU it runs the kernel on the\n"
        "CPU emulator; with --backend gpu it compiles, runs the reference and checks the\n"
        "launch against the target's limits, then exits 4 (no GPU).\n"
        "With --compile-only it stops there by request and exits 0 when all of that passed.\n";
    c.options = run_request_options();
    c.options.insert(c.options.begin() + 2,
                     {value_option("--block", "x,y,z", "block size for the tuned launch (the grid follows, unless --grid);\n"
                                                       "the tuned launch is the one marked \"tuned\", else the first"),
                      value_option("--grid", "x,y,z", "grid size for the tuned launch"),
                      value_option("--shared", "BYTES", "dynamic shared memory for the tuned launch")});
    for (OptionSpec o : {
             flag_option("--no-timing", "check only"),
             value_option("--backend", "B", "where the kernel runs: auto (default: the GPU when there is one,\n"
                                            "else the CPU emulator), gpu (compile-only without a GPU), or cpu\n"
                                            "(the CPU emulator: every check works, times are CPU times)"),
             flag_option("--memcheck", "run under compute-sanitizer memcheck: every out-of-bounds or\n"
                                       "misaligned access is reported with its line, thread and block\n"
                                       "(slow: not timed; the deadline is 10x the lesson's, at least 120 s)"),
             flag_option("--racecheck", "run under compute-sanitizer racecheck: shared-memory races\n"
                                        "between threads of a block (a missing __syncthreads())\n"
                                        "Either way, a report with errors is 'sanitizer-errors' (exit 1)\n"
                                        "even when the outputs match; without a GPU nothing runs under\n"
                                        "the tool, the run is compile-only (exit 4)"),
             flag_option("--access", "record what the threads of a few blocks read and write (CPU emulator):\n"
                                     "per source line, the warp-level requests, 32-byte sectors per request\n"
                                     "(global memory) and bank-conflict ways (shared memory); with --json,\n"
                                     "access.lines and each recorded thread's reads and writes in access.threads"),
             flag_option("--profile", "on a GPU, profile the step's kernels with Nsight Compute (ncu from the\n"
                                      "toolkit): the same per-line table from its source counters, over every\n"
                                      "block of the first validation run (not timed; with --json, profile.lines)"),
             flag_option("--json", "print the result as JSON"),
         })
        c.options.push_back(o);
    c.run = run;
    return c;
}

}  // namespace wb::cli
