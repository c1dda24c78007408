// runtime/pipeline/report.cpp — JSON forms of results (see report.hpp).
#include "pipeline/report.hpp"

#include "measure/roofline.hpp"

namespace wb {

using nlohmann::json;

json to_json(const Diagnostic& d) {
    return {{"file", d.file}, {"line", d.line}, {"column", d.column}, {"severity", severity_name(d.severity)},
            {"message", d.message}, {"code", d.code}};
}

json to_json(const DeviceInfo& d) {
    const auto& l = d.limits;
    return {{"ordinal", d.ordinal},
            {"name", d.name},
            {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
            {"arch", d.arch()},
            {"sm_count", d.sm_count},
            {"total_memory", d.total_memory},
            {"free_memory", d.free_memory},
            {"l2_bytes", d.l2_bytes},
            {"clock_khz", d.clock_khz},
            {"peak_bandwidth_gbs", d.peak_bandwidth_gbs()},
            {"driver_version", d.driver_version},
            {"pci_bus_id", d.pci_bus_id},
            {"limits",
             {{"max_threads_per_block", l.max_threads_per_block},
              {"max_block", l.max_block},
              {"max_grid", l.max_grid},
              {"shared_per_block", l.shared_per_block},
              {"shared_per_block_optin", l.shared_per_block_optin},
              {"shared_per_sm", l.shared_per_sm},
              {"regs_per_block", l.regs_per_block},
              {"regs_per_sm", l.regs_per_sm},
              {"max_threads_per_sm", l.max_threads_per_sm},
              {"warp_size", l.warp_size}}}};
}

json to_json(const LessonIssue& i) {
    return {{"file", i.file}, {"json_path", i.json_path}, {"message", i.message}, {"line", i.line},
            {"column", i.column}};
}

json to_json(const CompileResult& c) {
    json diags = json::array();
    for (const auto& d : c.diagnostics) diags.push_back(to_json(d));
    return {{"ok", c.ok},
            {"arch", c.arch},
            {"output", c.is_cubin ? "cubin" : "ptx"},
            {"image_bytes", c.image_bytes},
            {"seconds", c.seconds},
            {"cache", c.cache_source},
            {"options", c.options},
            {"lowered_names", c.lowered_names},
            {"errors", c.error_count()},
            {"warnings", c.warning_count()},
            {"diagnostics", diags},
            {"diagnostics_omitted", c.diagnostics_omitted},
            {"log", c.log}};
}

json to_json(const CompareResult& c) {
    json first = json::array();
    for (const auto& m : c.first)
        first.push_back({{"index", m.index}, {"got", m.got}, {"want", m.want}, {"reason", mismatch_reason_name(m.reason)}});
    return {{"buffer", c.buffer},
            {"passed", c.passed},
            {"count", c.count},
            {"mismatches", c.mismatches},
            {"unwritten", c.unwritten},
            {"nondeterministic", c.nondeterministic},
            {"max_abs_error", c.max_abs_error},
            {"max_rel_error", c.max_rel_error},
            {"atol", c.atol},
            {"rtol", c.rtol},
            {"first_mismatches", first},
            {"note", c.note}};
}

json to_json(const RunResult& r) {
    json j = {{"status", run_status_name(r.status)},
              {"message", r.message},
              {"hint", r.hint},
              {"error_code", r.error_code},
              {"lesson", r.lesson_id},
              {"step", r.step_id},
              {"case", r.case_name},
              {"params", r.params},
              {"arch", r.arch},
              {"compile", to_json(r.compile)}};
    if (r.device) j["device"] = to_json(*r.device);
    if (!r.device_note.empty()) j["device_note"] = r.device_note;
    json ref = {{"ok", r.reference.ok}, {"from_cache", r.reference.from_cache}, {"build_seconds", r.reference.seconds}};
    json rdiags = json::array();
    for (const auto& d : r.reference.diagnostics) rdiags.push_back(to_json(d));
    ref["diagnostics"] = rdiags;
    if (!r.reference.ok) ref["log"] = r.reference.log;
    if (r.cpu_ms >= 0) {
        ref["run_ms"] = r.cpu_ms;
        ref["cold_ms"] = r.cpu_cold_ms;
        ref["warm_runs"] = r.cpu_warm_runs;
        ref["threads"] = r.cpu_threads;
        ref["outputs_cached"] = r.cpu_from_cache;
        ref["built_with"] = reference_compiler_summary(r.reference);  // the compiler and the flags that shape the time
    }
    j["reference"] = ref;
    json launches = json::array();
    for (const auto& l : r.launches) {
        json lj = {{"entry", l.entry},
                   {"grid", l.dims.grid},
                   {"block", l.dims.block},
                   {"shared_bytes", l.dims.shared_bytes},
                   {"threads_per_block", l.dims.threads_per_block()},
                   {"blocks", l.dims.blocks()},
                   {"passes", l.passes},
                   {"tuned", l.tuned},
                   {"shared_optin", l.shared_optin}};
        if (l.resources.registers >= 0)
            lj["resources"] = {{"registers", l.resources.registers},
                               {"static_shared", l.resources.static_shared},
                               {"local_bytes", l.resources.local_bytes},
                               {"max_threads_per_block", l.resources.max_threads_per_block}};
        if (l.refusal) lj["refusal"] = {{"limit", l.refusal->limit}, {"message", l.refusal->message}};
        launches.push_back(lj);
    }
    j["launches"] = launches;
    json comps = json::array();
    for (const auto& c : r.comparisons) comps.push_back(to_json(c));
    j["comparisons"] = comps;
    if (r.gpu_time) {
        const auto& t = *r.gpu_time;
        j["gpu_time"] = {{"median_ms", t.median_ms}, {"min_ms", t.min_ms}, {"max_ms", t.max_ms},
                         {"warmup", t.warmup}, {"samples_ms", t.samples_ms}, {"near_resolution", t.near_resolution},
                         {"noise", t.noise}, {"stopped_by", t.stopped_by}, {"l2_flushed", t.l2_flushed},
                         {"batch", t.batch}, {"not_batched", t.not_batched}, {"flush_subtracted", t.flush_subtracted},
                         {"sm_clock_mhz", t.sm_clock_mhz}, {"max_sm_clock_mhz", t.max_sm_clock_mhz}, {"throttled", t.throttled},
                         {"method", render(timing_method(t), "en")}};
    }
    if (r.host_step) {
        j["host_step"] = true;
        if (r.wall_time) {
            const auto& t = *r.wall_time;
            j["wall_time"] = {{"median_ms", t.median_ms}, {"min_ms", t.min_ms}, {"max_ms", t.max_ms}, {"warmup", t.warmup},
                              {"samples_ms", t.samples_ms}, {"noise", t.noise}, {"stopped_by", t.stopped_by}};
        }
        if (r.timeline) {
            const Timeline& t = *r.timeline;
            j["timeline"] = timeline_to_json(t);
            j["timeline"]["summary"] = {{"kernel_us", t.kernel_us()}, {"copy_us", t.copy_us()}, {"copy_bytes", t.copy_bytes()},
                                        {"copy_kernel_overlap_us", t.copy_kernel_overlap_us()}, {"busy_us", t.busy_us()},
                                        {"devices", t.devices()}, {"lanes", t.lanes().size()}};
        }
        if (r.target) {
            const TargetResult& t = *r.target;
            j["target"] = {{"step", t.step}, {"measure", target_measure_name(t.measure)}, {"at_most", t.at_most},
                           {"this_ms", t.this_ms}, {"that_ms", t.that_ms}, {"ratio", t.ratio()}, {"applies", t.applies()},
                           {"met", t.met()}, {"gpus", t.gpus}, {"min_gpus", t.min_gpus},
                           {"not_applicable", render(t.not_applicable, "en")}};
        }
    }
    if (r.sanitizer != SanitizerTool::None) {
        json fs = json::array();
        for (const auto& f : r.sanitizer_findings)
            fs.push_back({{"kind", f.kind}, {"file", f.file}, {"line", f.line}, {"other_line", f.other_line},
                          {"function", f.function}, {"block", f.has_thread ? json(f.block) : json()},
                          {"thread", f.has_thread ? json(f.thread) : json()}, {"address", f.address},
                          {"error", f.is_error}, {"count", f.count}, {"text", f.to_string()}});
        j["sanitizer"] = {{"tool", sanitizer_tool_name(r.sanitizer)}, {"errors", r.sanitizer_errors}, {"findings", fs},
                          {"report", r.output}};  // the tool's own text, for what the parser did not read
    }
    const RooflinePoint roof = roofline_point(r);
    j["metrics"] = {{"bytes", r.bytes}, {"flops", r.flops}, {"gb_per_s", r.gbs()}, {"gflop_per_s", roof.gflops},
                    {"intensity", roof.intensity}};
    if (r.ceilings) {
        j["metrics"]["bandwidth_fraction"] = r.bandwidth_fraction();
        j["metrics"]["compute_fraction"] = r.compute_fraction();
        j["metrics"]["roof_fraction"] = roof.roof_fraction;
        j["metrics"]["memory_bound"] = roof.memory_bound;
        j["ceilings"] = {{"device", r.ceilings->device},           {"copy_gbs", r.ceilings->copy_gbs},
                         {"fp32_gflops", r.ceilings->fp32_gflops}, {"fp16_gflops", r.ceilings->fp16_gflops},
                         {"sgemm_gflops", r.ceilings->sgemm_gflops}, {"sgemm_note", r.ceilings->sgemm_note},
                         {"measured_at", r.ceilings->measured_at}};
    }
    if (r.gpu_time && r.cpu_ms > 0) j["metrics"]["speedup_vs_cpu"] = r.cpu_ms / r.gpu_time->median_ms;
    if (r.baseline) {
        const BaselineResult& b = *r.baseline;
        j["baseline"] = {{"kind", b.kind}, {"label", b.label}, {"ran", b.ran}, {"passed", b.passed}, {"note", b.note}};
        if (b.ran) {
            j["baseline"]["median_ms"] = b.median_ms;
            j["baseline"]["min_ms"] = b.min_ms;
            j["baseline"]["max_ms"] = b.max_ms;
            j["baseline"]["samples"] = b.samples;
            j["baseline"]["batch"] = b.batch;
            j["baseline"]["gb_per_s"] = b.gbs();
            j["baseline"]["gflop_per_s"] = b.gflops();
            j["baseline"]["yours_fraction"] = r.baseline_fraction();
        }
        if (b.check)
            j["baseline"]["check"] = {{"buffer", b.check->buffer}, {"passed", b.check->passed},
                                      {"max_abs_error", b.check->max_abs_error}, {"mismatches", b.check->mismatches}};
    }
    return j;
}

}  // namespace wb
