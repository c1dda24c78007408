// app/panels/timeline_tab.cpp — the results panel's Timeline tab, for a host
// step's run: run()'s wall time and what the GPUs did meanwhile (summed
// kernel and copy times, bytes, how far copies overlapped kernels), the
// target against another step's solution, then the lanes themselves
// (widgets/timeline_view.hpp), one per device and stream.
//
// The figures and the target's verdict are the runtime's (RunResult::wall_time,
// timeline, target); this tab only draws them.
#include "panels/inside_views.hpp"

#include "app_state.hpp"
#include "host_step_text.hpp"
#include "palette.hpp"
#include "panels/panel.hpp"
#include "ui_text.hpp"
#include "widgets/timeline_view.hpp"

#include <imgui.h>

#include <cstdio>
#include <string>

namespace wb::app {
namespace {

const ImVec4 kGood = palette::kPass.vec4();
const ImVec4 kBad = palette::kFail.vec4();
const ImVec4 kNeutral = palette::kCaution.vec4();

void say(AppState& state, const std::string& text, const ImVec4* colour = nullptr, bool dim = false) {
    if (colour) ImGui::TextColored(*colour, "%s", text.c_str());
    else if (dim) ImGui::TextDisabled("%s", text.c_str());
    else ImGui::TextUnformatted(text.c_str());
    record_drawn_text(state.drawn.texts, text);
}

}  // namespace

void draw_target_line(AppState& state, const RunResult& r) {
    if (!r.target) return;
    const TargetResult& t = *r.target;
    const ImVec4& colour = !t.applies() ? kNeutral : t.met() ? kGood : kBad;
    ImGui::PushTextWrapPos(0.0f);
    // The other step by its id: titles are sentences ("One stream: copy in, compute, copy out").
    say(state, target_text(t, t.step, state.lang), &colour);
    ImGui::PopTextWrapPos();
}

void draw_timeline_tab(AppState& state) {
    if (!state.last_run) return;
    const RunResult& r = *state.last_run;
    const std::string& lang = state.lang;
    ImGui::PushTextWrapPos(0.0f);
    if (const std::string summary = timeline_summary_text(r, lang); !summary.empty()) say(state, summary);
    ImGui::PopTextWrapPos();
    draw_target_line(state, r);

    ImGui::PushTextWrapPos(0.0f);
    char line[512];
    if (!r.timeline) {
        say(state, tr(UiText::TimelineNotTraced, lang), nullptr, true);
        state.drawn.timeline_lanes = state.drawn.timeline_bars = 0;
        ImGui::PopTextWrapPos();
        return;
    }
    const Timeline& t = *r.timeline;
    if (!t.unavailable.empty()) {
        std::snprintf(line, sizeof line, tr(UiText::TimelineUnavailable, lang), t.unavailable.c_str());
        say(state, line, &kNeutral);
        state.drawn.timeline_lanes = state.drawn.timeline_bars = 0;
        ImGui::PopTextWrapPos();
        return;
    }
    if (t.ran_past_return_us > 0) {
        std::snprintf(line, sizeof line, tr(UiText::TimelineRanPast, lang), format_duration_us(t.ran_past_return_us).c_str());
        say(state, line, &kBad);
    }
    if (t.dropped > 0) {
        std::snprintf(line, sizeof line, tr(UiText::TimelineDropped, lang), static_cast<unsigned long long>(t.dropped));
        say(state, line, &kNeutral);
    }
    ImGui::PopTextWrapPos();

    // A new run is shown whole; zoom and pan last until the next one.
    if (state.timeline_view.shown != state.run_serial) state.timeline_view = TimelineViewState{0, 0, state.run_serial};
    ImGui::Spacing();
    const TimelineDrawn drawn = draw_timeline("##timeline", t, state.timeline_view);
    if (drawn.message) record_drawn_text(state.drawn.texts, timeline_message(t));
    state.drawn.timeline_lanes = drawn.lanes;
    state.drawn.timeline_bars = drawn.bars;
}

}  // namespace wb::app
