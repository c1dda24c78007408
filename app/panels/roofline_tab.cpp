// app/panels/roofline_tab.cpp — the results panel's Roofline tab: this step's
// runs placed by arithmetic intensity (the lesson's FLOPs over its bytes, for
// each run's params) and GFLOP/s reached, under the roofs of this GPU's
// measured copy bandwidth and FP32 peak, with cuBLAS SGEMM as a dashed line.
//
// The roofs and the verdict (memory- or compute-bound, share of the roof) are
// the runtime's: wb::Roofline over the run's Ceilings (ceilings.hpp).
#include "panels/inside_views.hpp"

#include "app_state.hpp"
#include "panels/panel.hpp"
#include "ui_text.hpp"
#include "widgets/roofline.hpp"

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
    const double ai = r.intensity();
    if (ai <= 0) {
        say(tr(UiText::RoofNoMetrics, lang));
        ImGui::PopTextWrapPos();
        return;
    }
    if (!r.ceilings) {
        std::snprintf(line, sizeof line, tr(UiText::RoofNoGpu, lang), ai);
        say(line);
        ImGui::PopTextWrapPos();
        return;
    }
    const Roofline roof = Roofline::of(*r.ceilings);
    std::snprintf(line, sizeof line, tr(roof.memory_bound(ai) ? UiText::RoofMemoryBound : UiText::RoofComputeBound, lang),
                  ai, roof.ridge());
    say(line);
    if (r.roof_fraction() > 0) {
        std::snprintf(line, sizeof line, tr(UiText::RoofThisRun, lang), r.gflops(), 100 * r.roof_fraction(),
                      roof.attainable(ai));
        say(line);
    }
    ImGui::PopTextWrapPos();

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
    std::vector<RooflinePoint> points;
    const std::vector<RunRecord>& runs = step_history(state);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunRecord& run = runs[i];
        if (run.gpu_ms <= 0 || run.bytes <= 0 || run.flops <= 0) continue;
        RooflinePoint p;
        p.intensity = run.flops / run.bytes;
        p.gflops = run.flops / run.gpu_ms / 1e6;
        p.latest = i + 1 == runs.size();
        p.passed = run.passed();
        std::snprintf(line, sizeof line, tr(UiText::RoofRun, lang), int(i + 1), run.case_name.c_str(), p.intensity, p.gflops);
        p.label = line;
        points.push_back(std::move(p));
    }
    const float height = std::max(ImGui::GetFontSize() * 14, ImGui::GetContentRegionAvail().y - 4);
    draw_roofline("##roofline", roofs, points, ImVec2(0, height));
    record_drawn_text(state.drawn.texts, "roofline chart");
}

}  // namespace wb::app
