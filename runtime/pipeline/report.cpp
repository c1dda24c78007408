// runtime/pipeline/report.cpp — a result's one JSON form, with what is derived
// from it for a reader of --json (see report.hpp).
#include "pipeline/report.hpp"

#include "measure/roofline.hpp"
#include "pipeline/result_json.hpp"

namespace wb {

using nlohmann::json;

namespace {

// The figures a CompileResult implies, beside its fields.
void add_compile_figures(json& j, const CompileResult& c) {
    j["errors"] = c.error_count();
    j["warnings"] = c.warning_count();
}

void add_device_figures(json& j, const DeviceInfo& d) {
    j["arch"] = d.arch();
    j["compute_capability"] = std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor);
    j["peak_bandwidth_gbs"] = d.peak_bandwidth_gbs();
}

}  // namespace

json report_json(const CompileResult& c) {
    json j = c;
    add_compile_figures(j, c);
    return j;
}

json report_json(const DeviceInfo& d) {
    json j = d;
    add_device_figures(j, d);
    return j;
}

json report_json(const LessonIssue& i) {
    return {{"file", i.file}, {"json_path", i.json_path}, {"message", i.message}, {"line", i.line},
            {"column", i.column}};
}

json report_json(const RunResult& r) {
    json j = result_json(r);
    add_compile_figures(j["compile"], r.compile);
    if (r.device) add_device_figures(j["device"], *r.device);
    for (std::size_t i = 0; i < r.launches.size(); ++i) {
        j["launches"][i]["threads_per_block"] = r.launches[i].dims.threads_per_block();
        j["launches"][i]["blocks"] = r.launches[i].dims.blocks();
    }
    if (r.cpu_ms >= 0) j["reference"]["built_with"] = reference_compiler_summary(r.reference);  // the compiler and the flags that shape the CPU time
    if (r.gpu_time) j["gpu_time"]["method"] = render(timing_method(*r.gpu_time), "en");
    if (r.timeline) {
        const Timeline& t = *r.timeline;
        j["timeline"]["summary"] = {{"kernel_us", t.kernel_us()}, {"copy_us", t.copy_us()}, {"copy_bytes", t.copy_bytes()},
                                    {"copy_kernel_overlap_us", t.copy_kernel_overlap_us()}, {"busy_us", t.busy_us()},
                                    {"devices", t.devices()}, {"lanes", t.lanes().size()}};
    }
    if (r.target) {
        const TargetResult& t = *r.target;
        j["target"]["ratio"] = t.ratio();
        j["target"]["applies"] = t.applies();
        j["target"]["met"] = t.met();
        j["target"]["not_applicable_text"] = render(t.not_applicable, "en");
    }
    if (r.access && !r.access->not_recorded.empty()) j["access"]["not_recorded_text"] = render(r.access->not_recorded, "en");
    for (std::size_t i = 0; i < r.sanitizer_findings.size(); ++i)
        j["sanitizer_findings"][i]["text"] = r.sanitizer_findings[i].to_string();
    const RooflinePoint roof = roofline_point(r);
    j["metrics"] = {{"gb_per_s", r.gbs()}, {"gflop_per_s", roof.gflops}, {"intensity", roof.intensity}};
    if (r.ceilings) {
        j["metrics"]["bandwidth_fraction"] = r.bandwidth_fraction();
        j["metrics"]["compute_fraction"] = r.compute_fraction();
        j["metrics"]["roof_fraction"] = roof.roof_fraction;
        j["metrics"]["memory_bound"] = roof.memory_bound;
    }
    if (r.gpu_time && r.cpu_ms > 0) j["metrics"]["speedup_vs_cpu"] = r.cpu_ms / r.gpu_time->median_ms;
    if (r.baseline && r.baseline->ran) {
        j["baseline"]["gb_per_s"] = r.baseline->gbs();
        j["baseline"]["gflop_per_s"] = r.baseline->gflops();
        j["baseline"]["yours_fraction"] = r.baseline_fraction();
    }
    return j;
}

}  // namespace wb
