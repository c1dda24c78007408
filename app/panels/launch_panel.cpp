// app/panels/launch_panel.cpp — how the step's tuned kernel is launched:
// block and grid (3 components each), dynamic shared memory, an automatic
// grid computed from the lesson's expression, params within their bounds and
// the test case. The settings are checked against the device's limits every
// frame (or the target architecture's without a GPU); a refusal shows in red
// at the top of the panel and Run stays disabled until it is fixed. A step
// with several launches (a zeroing helper, the passes of a reduction) lists
// them all at the top, sized with the current params, the tuned one marked.
// A host step has no launches to edit: its run() makes them, so the panel
// says so and keeps the test case, the time limit and the params.
#include "panels/panels.hpp"

#include "app_state.hpp"
#include "core/error.hpp"
#include "palette.hpp"
#include "ui_text.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace wb::app {
namespace {

bool is_integer(DType t) { return t == DType::I32 || t == DType::U32 || t == DType::U8; }

void draw_param(LaunchSettings& s, const Param& p) {
    double& value = s.params[p.name];
    const char* name = p.name.c_str();
    const bool bounded = p.min && p.max;
    // A wide range is only usable on a logarithmic slider (N from 1 to 10^8).
    const bool wide = bounded && *p.min >= 0 && *p.max > 1000.0 * std::max(1.0, *p.min);
    const ImGuiSliderFlags flags = ImGuiSliderFlags_AlwaysClamp | (wide ? ImGuiSliderFlags_Logarithmic : 0);
    if (is_integer(p.type) && bounded && *p.min >= std::numeric_limits<int>::min() &&
        *p.max <= std::numeric_limits<int>::max()) {
        int v = static_cast<int>(value);
        if (ImGui::SliderInt(name, &v, static_cast<int>(*p.min), static_cast<int>(*p.max), "%d", flags)) value = v;
    } else if (bounded) {
        float v = static_cast<float>(value);
        if (ImGui::SliderFloat(name, &v, static_cast<float>(*p.min), static_cast<float>(*p.max), "%.4g", flags))
            value = v;
    } else if (is_integer(p.type)) {
        int v = static_cast<int>(value);
        if (ImGui::InputInt(name, &v)) value = v;
    } else {
        ImGui::InputDouble(name, &value, 0.0, 0.0, "%.6g");
    }
    if (!p.description.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.description.get().c_str());
}

std::string dims_text(const std::array<long long, 3>& d) {
    std::string s = std::to_string(d[0]);
    if (d[1] != 1 || d[2] != 1) s += "," + std::to_string(d[1]);
    if (d[2] != 1) s += "," + std::to_string(d[2]);
    return s;
}

// Every launch in order, as the run will make it: name<<<grid, block, shared>>>
// and its number of passes, the tuned one marked (its sizes are last frame's
// settings). Read-only: the lesson fixes the helpers.
void draw_all_launches(AppState& state, const Step& step) {
    const std::string& lang = state.lang;
    ImGui::TextDisabled("%s", tr(UiText::AllLaunches, lang));
    const std::size_t tuned = step.tuned_launch();
    for (std::size_t i = 0; i < step.launches.size(); ++i) {
        const LaunchSpec& spec = step.launches[i];
        std::string line = std::to_string(i + 1) + ". " + spec.entry;
        try {
            const LaunchDims d = i == tuned && state.launch_dims ? *state.launch_dims : resolve_launch(spec, state.launch.params);
            line += "<<<" + dims_text(d.grid) + ", " + dims_text(d.block) + ", " + std::to_string(d.shared_bytes) + ">>>";
            const long long passes = resolve_passes(spec, state.launch.params);
            if (spec.multi_pass()) line += "  x" + std::to_string(passes) + " " + tr(UiText::Passes, lang);
        } catch (const wb::Error& e) {
            line += ": " + e.message();
        }
        if (i == tuned) line += std::string("  (") + tr(UiText::TunedLaunch, lang) + ")";
        if (i == tuned) ImGui::TextUnformatted(line.c_str());
        else ImGui::TextDisabled("%s", line.c_str());
        record_drawn_text(state.drawn.texts, line);
    }
    ImGui::Separator();
}

// Block, grid (automatic or typed) and dynamic shared memory of the tuned launch.
void draw_dims(AppState& state) {
    const std::string& lang = state.lang;
    LaunchSettings& s = state.launch;
    ImGui::InputInt3(tr(UiText::Block, lang), s.block.data());
    ImGui::Checkbox(tr(UiText::AutomaticGrid, lang), &s.auto_grid);
    if (s.auto_grid) {
        // Shown, not edited: the lesson's grid expression with this block.
        std::array<int, 3> grid = s.grid;
        if (state.launch_dims)
            for (int i = 0; i < 3; ++i) grid[i] = static_cast<int>(state.launch_dims->grid[i]);
        ImGui::BeginDisabled();
        ImGui::InputInt3(tr(UiText::Grid, lang), grid.data());
        ImGui::EndDisabled();
        s.grid = grid;  // switching to manual starts from the automatic grid
    } else {
        ImGui::InputInt3(tr(UiText::Grid, lang), s.grid.data());
    }
    ImGui::InputInt(tr(UiText::SharedBytes, lang), &s.shared_bytes, 1024, 4096);
}

}  // namespace

void draw_launch_panel(AppState& state, const PanelRect& rect) {
    PanelWindow window("###launch", rect);
    if (!window.visible()) return;
    const Step* step = selected_step(state);
    if (step == nullptr) return;
    const std::string& lang = state.lang;
    LaunchSettings& s = state.launch;
    const bool host = step->is_host();
    if (host) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(tr(UiText::LaunchHostStep, lang));
        record_drawn_text(state.drawn.texts, tr(UiText::LaunchHostStep, lang));
        ImGui::PopTextWrapPos();
        ImGui::Separator();
    } else if (step->launches.size() > 1) draw_all_launches(state, *step);
    else ImGui::TextDisabled("%s: %s", tr(UiText::Launch, lang), step->launches.empty() ? "-" : step->launches[0].entry.c_str());
    // The refusal comes first, where even a short panel shows it without
    // scrolling: it is why Run is off.
    if (!state.launch_refusal.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, palette::kFail.vec4());
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(state.launch_refusal.c_str());
        record_drawn_text(state.drawn.texts, state.launch_refusal);
        ImGui::PopTextWrapPos();
        ImGui::PopStyleColor();
    }
    ImGui::PushItemWidth(ImGui::GetContentRegionAvail().x * 0.55f);

    // Test case first: choosing one resets the params (and the automatic grid) to it.
    if (ImGui::BeginCombo(tr(UiText::TestCase, lang), s.test_case.c_str())) {
        for (const TestCase& c : step->checks.cases) {
            const std::string label = c.name + (c.timing ? "  (timing)" : "");
            if (ImGui::Selectable(label.c_str(), c.name == s.test_case)) reset_launch(state, c.name);
        }
        ImGui::EndCombo();
    }
    if (!host) draw_dims(state);
    // Past this the run is stopped and its worker replaced: an endless kernel
    // costs the student this many seconds, not the app.
    ImGui::InputFloat(tr(UiText::TimeoutSeconds, lang), &s.timeout_s, 1.0f, 10.0f, "%.0f");
    s.timeout_s = std::clamp(s.timeout_s, 1.0f, 3600.0f);

    if (!step->params.empty()) {
        ImGui::Separator();
        ImGui::TextDisabled("%s", tr(UiText::Params, lang));
        for (const Param& p : step->params) draw_param(s, p);
    }
    // The last row the student edits: shown whole, without scrolling (the 1366x768 test reads it).
    state.drawn.launch_params_shown = ImGui::GetScrollY() == 0.0f &&
                                      ImGui::GetItemRectMax().y <= ImGui::GetWindowPos().y + ImGui::GetWindowHeight();
    ImGui::PopItemWidth();

    check_launch_settings(state);
    if (state.launch_dims) {
        ImGui::Separator();
        const LaunchDims& d = *state.launch_dims;
        const long long warp = state.device ? state.device->limits.warp_size : state.compile_only_limits.warp_size;
        ImGui::Text("%lld %s, %lld %s, %lld %s", d.threads_per_block() * d.blocks(), tr(UiText::Threads, lang),
                    d.blocks(), tr(UiText::Blocks, lang), (d.threads_per_block() + warp - 1) / warp,
                    tr(UiText::WarpsPerBlock, lang));
    }
}

}  // namespace wb::app
