// app/panels/device_panel.cpp — where runs go, in one state: the GPU, with its limits; or,
// without one, the CPU emulator or compile only (by the switch below), each with why there is no
// GPU; the switch that sends runs to the CPU emulator; and, when runs are not contained, why.
#include "panels/panels.hpp"

#include "app_state.hpp"
#include "palette.hpp"
#include "ui_text.hpp"

#include <string>

namespace wb::app {

void draw_device_panel(AppState& state, const PanelRect& rect) {
    PanelWindow window("###device", rect);
    if (!window.visible()) return;
    ImGui::TextDisabled("%s", tr(UiText::Device, state.lang));
    ImGui::PushTextWrapPos(0.0f);
    if (!state.backend_known) {
        ImGui::TextUnformatted(tr(UiText::Waiting, state.lang));
    } else if (!state.device && state.use_emulator) {
        const std::string why = no_gpu_text(state);
        const char* where = tr(UiText::OnTheEmulator, state.lang);
        ImGui::TextColored(palette::kWhere.vec4(), "%s", where);
        record_drawn_text(state.drawn.texts, where);
        ImGui::TextDisabled("%s", why.c_str());
        record_drawn_text(state.drawn.texts, why);
        ImGui::Text(tr(UiText::DevTarget, state.lang), state.default_arch.c_str());
    } else if (!state.device) {
        const std::string why = no_gpu_text(state);
        const std::string note = std::string(tr(UiText::CompileOnly, state.lang)) + ": " + why;
        ImGui::TextColored(palette::kCaution.vec4(), "%s", note.c_str());
        record_drawn_text(state.drawn.texts, note);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip(tr(UiText::RunDisabledBecause, state.lang), why.c_str());
        ImGui::Text(tr(UiText::DevTarget, state.lang), state.default_arch.c_str());
    } else {
        const DeviceInfo& d = *state.device;
        ImGui::Text("%s", d.name.c_str());
        const std::string& lang = state.lang;
        ImGui::Text(tr(UiText::DevCapability, lang), d.cc_major, d.cc_minor, d.arch().c_str(), d.sm_count);
        ImGui::Text(tr(UiText::DevMemory, lang), d.total_memory / 1073741824.0, d.free_memory / 1073741824.0);
        const DeviceLimits& l = d.limits;
        ImGui::Text(tr(UiText::DevThreads, lang), l.max_threads_per_block, l.max_block[0], l.max_block[1],
                    l.max_block[2]);
        ImGui::Text(tr(UiText::DevShared, lang), l.shared_per_block / 1024, l.shared_per_block_optin / 1024,
                    l.regs_per_block);
    }
    if (!state.not_contained.empty()) {  // runs are not contained (sandbox/): said, never hidden
        const std::string note = render(state.not_contained, state.lang);
        ImGui::TextColored(palette::kCaution.vec4(), "%s", note.c_str());
        record_drawn_text(state.drawn.texts, note);
    }
    if (state.backend_known) {
        if (ImGui::Checkbox(tr(UiText::RunOnEmulator, state.lang), &state.use_emulator)) state.emulator_chosen = true;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(UiText::RunOnEmulatorTip, state.lang));
        record_drawn_text(state.drawn.texts, tr(UiText::RunOnEmulator, state.lang));
    }
    ImGui::PopTextWrapPos();
}

}  // namespace wb::app
