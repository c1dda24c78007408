// app/panels/roofline_tab.cpp — the results panel's Roofline tab: this step's
// runs placed by arithmetic intensity (the lesson's FLOPs over its bytes, for
// each run's params) and GFLOP/s reached, under the roofs of this GPU's
// measured copy bandwidth and FP32 peak, with cuBLAS SGEMM as a dashed line.
//
// Every point, the bound and the share of the roof are the runtime's:
// wb::roofline_point (measure/roofline.hpp), for the run on show and for each
// run of the step's history; this tab only draws them.
#include "panels/inside_views.hpp"

#include "app_state.hpp"
#include "panels/panel.hpp"
#include "ui_text.hpp"
#include "widgets/roofline.hpp"

#include "measure/roofline.hpp"

#include <imgui.h>

#include <cstdio>
#include <string>
#include <vector>

namespace wb::app {

void draw_roofline_tab(AppState& state) {
    const std::string& lang = state.lang;
    if (!state.last_run) return;
    const RunResult& r = *state.last_run;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", tr(UiText::RoofIntro, lang));
    char line[512];
    auto say = [&](const char* text) {
        ImGui::TextUnformatted(text);
        record_drawn_text(state.drawn.texts, text);
    };
    if (r.host_step) {  // run() is copies, launches and waits, not one kernel's FLOPs over its bytes
        say(tr(UiText::RoofHostStep, lang));
        ImGui::PopTextWrapPos();
        return;
    }
    const RooflinePoint point = roofline_point(r);
    const double ai = point.intensity;
    if (ai <= 0) {
        say(tr(UiText::RoofNoMetrics, lang));
        ImGui::PopTextWrapPos();
        return;
    }
    if (!point.has_roof) {
        std::snprintf(line, sizeof line, tr(UiText::RoofNoGpu, lang), ai);
        say(line);
        ImGui::PopTextWrapPos();
        return;
    }
    std::snprintf(line, sizeof line, tr(point.memory_bound ? UiText::RoofMemoryBound : UiText::RoofComputeBound, lang),
                  ai, point.ridge);
    say(line);
    if (point.roof_fraction > 0) {
        std::snprintf(line, sizeof line, tr(UiText::RoofThisRun, lang), point.gflops, 100 * point.roof_fraction,
                      point.attainable);
        say(line);
    }
    ImGui::PopTextWrapPos();

    const Roofline roof = Roofline::of(*r.ceilings);
    RooflineRoofs roofs;
    roofs.bandwidth_gbs = roof.copy_gbs;
    roofs.peak_gflops = roof.fp32_gflops;
    std::snprintf(line, sizeof line, tr(UiText::RoofCopy, lang), roof.copy_gbs);
    roofs.bandwidth_label = line;
    std::snprintf(line, sizeof line, tr(UiText::RoofPeak, lang), roof.fp32_gflops);
    roofs.peak_label = line;
    if (r.ceilings->sgemm_gflops > 0) {
        roofs.reference_gflops = r.ceilings->sgemm_gflops;
        std::snprintf(line, sizeof line, tr(UiText::RoofSgemm, lang), r.ceilings->sgemm_gflops);
        roofs.reference_label = line;
    }
    // This step's timed runs, oldest first; the last is the run on show.
    std::vector<RooflineMark> marks;
    const std::vector<RunRecord>& runs = step_history(state);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunRecord& run = runs[i];
        const RooflinePoint at = roofline_point(run.bytes, run.flops, run.gpu_ms, nullptr);
        if (!at.placed()) continue;
        RooflineMark m;
        m.intensity = at.intensity;
        m.gflops = at.gflops;
        m.latest = i + 1 == runs.size();
        m.passed = run.passed();
        std::snprintf(line, sizeof line, tr(UiText::RoofRun, lang), int(i + 1), run.case_name.c_str(), m.intensity, m.gflops);
        m.label = line;
        marks.push_back(std::move(m));
    }
    const float height = std::max(ImGui::GetFontSize() * 14, ImGui::GetContentRegionAvail().y - 4);
    draw_roofline("##roofline", roofs, marks, ImVec2(0, height));
    record_drawn_text(state.drawn.texts, "roofline chart");
}

}  // namespace wb::app
