// app/panels/sweep_tab.cpp — the results panel's Sweep tab: the step run at
// every block size that fits, or across a param's values, with the time and
// GB/s of each point plotted and listed, the fastest that passed marked, and
// a Use button that puts a point's block or value into the launch panel.
// A host step's run() makes its own launches: it is swept over its params
// only, and each point is timed by run()'s wall time.
//
// The plan and the verdict on each point are the runtime's (measure/sweep.hpp,
// RunResult::status); this only asks for the sweep and draws what came back.
#include "panels/inside_views.hpp"

#include "app_state.hpp"
#include "palette.hpp"
#include "panels/panel.hpp"
#include "ui_text.hpp"
#include "widgets/plot.hpp"

#include <imgui.h>

#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace wb::app {
namespace {

const ImVec4 kGood = palette::kPass.vec4();
const ImVec4 kBad = palette::kFail.vec4();
const ImVec4 kNeutral = palette::kCaution.vec4();

// The time a point is judged by (RunResult::step_time), when it was measured.
const Timing* point_time(const RunResult& r) {
    const Timing* t = r.step_time();
    return t && t->median_ms > 0 ? t : nullptr;
}

void draw_controls(AppState& state, const Step& step) {
    const std::string& lang = state.lang;
    SweepState& sw = state.sweep;
    if (sw.axis < 0 || std::size_t(sw.axis) > step.params.size()) sw.axis = 0;
    if (step.is_host() && sw.axis == 0) sw.axis = 1;  // no block size of its own to sweep
    const std::string current = sw.axis == 0 ? tr(UiText::SweepBlockSize, lang) : step.params[std::size_t(sw.axis - 1)].name;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
    if (ImGui::BeginCombo(tr(UiText::SweepOver, lang), current.c_str())) {
        if (!step.is_host() && ImGui::Selectable(tr(UiText::SweepBlockSize, lang), sw.axis == 0)) sw.axis = 0;
        for (std::size_t i = 0; i < step.params.size(); ++i)
            if (ImGui::Selectable(step.params[i].name.c_str(), sw.axis == int(i) + 1)) sw.axis = int(i) + 1;
        ImGui::EndCombo();
    }
    if (sw.axis > 0) {
        const Param& p = step.params[std::size_t(sw.axis - 1)];
        if (sw.range.empty()) {
            // A start that covers the param's bounds by factors of 4.
            const double lo = p.min.value_or(1) > 0 ? p.min.value_or(1) : 1;
            const double hi = p.max.value_or(p.default_value * 16);
            char buf[96];
            std::snprintf(buf, sizeof buf, "%.10g:%.10g:x4", lo < 1024 && hi >= 1024 ? 1024.0 : lo, hi > 1 << 24 ? double(1 << 24) : hi);
            sw.range = buf;
        }
        char buf[128];
        std::snprintf(buf, sizeof buf, "%s", sw.range.c_str());
        ImGui::SameLine();
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
        if (ImGui::InputText(tr(UiText::SweepValues, lang), buf, sizeof buf)) sw.range = buf;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(UiText::SweepValuesHelp, lang));
    }
    ImGui::BeginDisabled(sw.running());
    if (ImGui::Button(tr(UiText::SweepRun, lang))) state.requests.sweep = true;
    ImGui::EndDisabled();
    if (sw.running() && sw.plan) {
        ImGui::SameLine();
        char line[96];
        std::snprintf(line, sizeof line, tr(UiText::SweepProgress, lang), sw.finished, int(sw.plan->points.size()));
        ImGui::TextColored(kNeutral, "%s", line);
        record_drawn_text(state.drawn.texts, line);
    }
}

// Puts the point's block (the grid follows) or param value into the launch panel.
void use_point(AppState& state, const SweepPoint& p) {
    if (p.block) {
        for (int d = 0; d < 3; ++d) state.launch.block[std::size_t(d)] = int((*p.block)[std::size_t(d)]);
        state.launch.auto_grid = true;
    }
    for (const auto& [name, value] : p.params) state.launch.params[name] = value;
    check_launch_settings(state);
}

void draw_points(AppState& state) {
    const std::string& lang = state.lang;
    SweepState& sw = state.sweep;
    const SweepPlan& plan = *sw.plan;
    const SweepSummary summary = sw.summary();
    const Step* step = selected_step(state);
    const UiText time_label = step && step->is_host() ? UiText::SweepWallMs : UiText::SweepGpuMs;

    for (const std::string& l : plan.left_out) {
        char line[256];
        std::snprintf(line, sizeof line, tr(UiText::SweepLeftOut, lang), l.c_str());
        ImGui::TextDisabled("%s", line);
        record_drawn_text(state.drawn.texts, line);
    }
    if (!sw.running()) {
        char line[160];
        std::snprintf(line, sizeof line, tr(UiText::SweepSummary, lang), int(plan.points.size()), summary.passed,
                      summary.failed);
        ImGui::TextUnformatted(line);
        record_drawn_text(state.drawn.texts, line);
        if (summary.compile_only) {
            ImGui::SameLine();
            ImGui::TextColored(kNeutral, "%s", tr(UiText::SweepCompileOnly, lang));
        }
    }

    // Time and GB/s by point, where a point was timed.
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> ms, gbs;
    bool any_time = false, any_gbs = false;
    for (const auto& r : sw.results) {
        const Timing* t = r ? point_time(*r) : nullptr;
        const bool timed = t != nullptr;
        ms.push_back(timed ? float(t->median_ms) : nan);
        gbs.push_back(timed && r->bytes > 0 ? float(r->gbs()) : nan);
        any_time = any_time || timed;
        any_gbs = any_gbs || (timed && r->bytes > 0);
    }
    if (any_time) {
        const float width = ImGui::GetContentRegionAvail().x;
        const float each = any_gbs ? (width - ImGui::GetStyle().ItemSpacing.x) / 2 : width;
        PlotOptions o;
        o.label = tr(time_label, lang);
        o.x_label = tr(UiText::SweepPoint, lang);
        o.unit = "ms";
        o.markers = true;
        o.include_zero = true;
        draw_line_plot("##sweep_ms", ms.data(), int(ms.size()), ImVec2(each, 120), o);
        if (any_gbs) {
            ImGui::SameLine();
            PlotOptions g = o;
            g.label = "GB/s";
            g.unit = "GB/s";
            g.colour = palette::kBandwidth.u32();
            draw_line_plot("##sweep_gbs", gbs.data(), int(gbs.size()), ImVec2(each, 120), g);
        }
    }

    constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("##sweep_points", 6, kFlags)) return;
    ImGui::TableSetupColumn(tr(UiText::SweepPoint, lang));
    ImGui::TableSetupColumn(tr(UiText::SweepStatus, lang));
    ImGui::TableSetupColumn(tr(time_label, lang));
    ImGui::TableSetupColumn("GB/s");
    ImGui::TableSetupColumn("GFLOP/s");
    ImGui::TableSetupColumn("");
    ImGui::TableHeadersRow();
    for (std::size_t i = 0; i < plan.points.size(); ++i) {
        const SweepPoint& p = plan.points[i];
        const std::optional<RunResult>& r = sw.results[i];
        ImGui::PushID(int(i));
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(p.label.c_str());
        ImGui::TableNextColumn();
        if (!r) {
            ImGui::TextDisabled("...");
        } else {
            const ImVec4 c = r->status == RunStatus::Passed ? kGood : r->status == RunStatus::CompileOnly ? kNeutral : kBad;
            ImGui::TextColored(c, "%s", run_status_label(r->status, lang).c_str());
            if (r->status != RunStatus::Passed && ImGui::IsItemHovered())
                ImGui::SetTooltip("%s", r->message_in(lang).c_str());
        }
        ImGui::TableNextColumn();
        if (const Timing* t = r ? point_time(*r) : nullptr) ImGui::Text("%.4f", t->median_ms);
        ImGui::TableNextColumn();
        if (r && r->gbs() > 0) ImGui::Text("%.1f", r->gbs());
        ImGui::TableNextColumn();
        if (r && r->gflops() > 0) ImGui::Text("%.1f", r->gflops());
        ImGui::TableNextColumn();
        if (int(i) == summary.fastest) {
            ImGui::TextColored(kGood, "%s", tr(UiText::SweepFastest, lang));
            ImGui::SameLine();
        }
        if (ImGui::SmallButton(tr(UiText::SweepUse, lang))) use_point(state, p);
        ImGui::PopID();
    }
    ImGui::EndTable();
}

}  // namespace

void draw_sweep_tab(AppState& state) {
    const Step* step = selected_step(state);
    if (!step) return;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", tr(UiText::SweepIntro, state.lang));
    if (step->is_host() && step->params.empty()) {
        ImGui::TextDisabled("%s", tr(UiText::SweepHostNoParams, state.lang));
        ImGui::PopTextWrapPos();
        return;
    }
    ImGui::PopTextWrapPos();
    draw_controls(state, *step);
    const SweepState& sw = state.sweep;
    if (sw.key != step_key(state)) return;  // the sweep, if any, was of another step
    if (!sw.error.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(kBad, "%s", sw.error.c_str());
        ImGui::PopTextWrapPos();
        record_drawn_text(state.drawn.texts, sw.error);
    }
    if (sw.plan) draw_points(state);
}

}  // namespace wb::app
