// app/panels/results_panel.cpp — the last run: a pass/fail badge, the worst
// errors and first mismatches per compared buffer, timings and throughput,
// and the buffers by name and shape.
//
// TODO(buffer_view widget): images, heat maps and plots of the buffers come
// from app/widgets/buffer_view.hpp and plot.hpp; until then buffers are listed.
#include "panels/panels.hpp"

#include "app_state.hpp"
#include "ui_text.hpp"

#include <string>

namespace wb::app {
namespace {

const ImVec4 kGood(0.35f, 0.80f, 0.40f, 1.0f);
const ImVec4 kBad(1.0f, 0.40f, 0.40f, 1.0f);
const ImVec4 kNeutral(0.95f, 0.75f, 0.30f, 1.0f);

std::string shape_text(const HostBuffer& b) {
    std::string s = "[";
    for (std::size_t i = 0; i < b.shape.size(); ++i) s += (i ? ", " : "") + std::to_string(b.shape[i]);
    return s + "] " + std::string(dtype_name(b.type));
}

std::string index_text(const std::vector<std::size_t>& index) {
    std::string s = "[";
    for (std::size_t i = 0; i < index.size(); ++i) s += (i ? ", " : "") + std::to_string(index[i]);
    return s + "]";
}

void badge(const char* text, const ImVec4& colour) {
    ImGui::PushStyleColor(ImGuiCol_Button, colour);
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, colour);
    ImGui::PushStyleColor(ImGuiCol_ButtonActive, colour);
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0, 0, 0, 1));
    ImGui::SmallButton(text);
    ImGui::PopStyleColor(4);
}

}  // namespace

void draw_results_panel(AppState& state, const PanelRect& rect) {
    PanelWindow window("###results", rect);
    if (!window.visible()) return;
    ImGui::TextDisabled("%s", tr(UiText::Results, state.lang));
    if (!state.last_run) {
        ImGui::TextUnformatted(tr(UiText::NoRunYet, state.lang));
        return;
    }
    const RunResult& r = *state.last_run;
    const ImVec4 colour = r.status == RunStatus::Passed        ? kGood
                          : r.status == RunStatus::CompileOnly ? kNeutral
                                                               : kBad;
    badge(run_status_name(r.status), colour);
    ImGui::SameLine();
    ImGui::Text("case %s", r.case_name.c_str());
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(r.message.c_str());
    if (!r.hint.empty()) ImGui::TextDisabled("%s", r.hint.c_str());
    ImGui::PopTextWrapPos();

    for (const CompareResult& c : r.comparisons) {
        ImGui::Separator();
        ImGui::TextColored(c.passed ? kGood : kBad, "%s: %s", c.buffer.c_str(), c.passed ? "ok" : "wrong");
        ImGui::Text("max abs error %.3g, max rel error %.3g (atol %.3g, rtol %.3g)", c.max_abs_error, c.max_rel_error,
                    c.atol, c.rtol);
        if (c.mismatches > 0) {
            ImGui::Text("%zu of %zu mismatched (%zu unwritten, %zu nondeterministic)", c.mismatches, c.count,
                        c.unwritten, c.nondeterministic);
            for (const Mismatch& m : c.first)
                ImGui::BulletText("%s: got %.6g, want %.6g (%s)", index_text(m.index).c_str(), m.got, m.want,
                                  mismatch_reason_name(m.reason));
        }
        if (!c.note.empty()) ImGui::TextColored(kBad, "%s", c.note.c_str());
    }

    ImGui::Separator();
    if (r.gpu_time) {
        const Timing& t = *r.gpu_time;
        ImGui::Text("GPU %.4f ms median (%.4f - %.4f), %zu samples%s", t.median_ms, t.min_ms, t.max_ms,
                    t.samples_ms.size(), t.near_resolution ? ", near the timer's resolution" : "");
    }
    if (r.cpu_ms >= 0) ImGui::Text("CPU %.4f ms", r.cpu_ms);
    if (r.gpu_time && r.gpu_time->median_ms > 0 && r.cpu_ms > 0)
        ImGui::Text("speed-up %.1fx", r.cpu_ms / r.gpu_time->median_ms);
    if (r.gbs() > 0) ImGui::Text("%.1f GB/s", r.gbs());
    if (r.gflops() > 0) ImGui::Text("%.1f GFLOP/s", r.gflops());

    if (!r.inputs.empty() || !r.gpu_outputs.empty() || !r.cpu_outputs.empty()) {
        ImGui::Separator();
        ImGui::TextDisabled("%s", tr(UiText::Buffers, state.lang));
        for (const HostBuffer& b : r.inputs) ImGui::BulletText("%s (input) %s", b.name.c_str(), shape_text(b).c_str());
        for (const HostBuffer& b : r.gpu_outputs) ImGui::BulletText("%s (GPU) %s", b.name.c_str(), shape_text(b).c_str());
        for (const HostBuffer& b : r.cpu_outputs) ImGui::BulletText("%s (CPU) %s", b.name.c_str(), shape_text(b).c_str());
    }
}

}  // namespace wb::app
