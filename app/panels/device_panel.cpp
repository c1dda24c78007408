// app/panels/device_panel.cpp — where runs go, in one state: the GPU, with its limits; or,
// without one, the CPU emulator or compile only (by the switch below), each with why there is no
// GPU; the switch that sends runs to the CPU emulator; when runs are not contained, why; and the
// worker command that sends runs to another machine (runtime/pipeline/remote.hpp), with the
// machine its far end named.
#include "panels/panels.hpp"

#include "app_state.hpp"
#include "palette.hpp"
#include "ui_text.hpp"

#include <cstdio>
#include <string>

namespace wb::app {

namespace {

// The worker command: a text field and Apply, which hands it to the job runner
// (Requests::apply_worker_command); a command that does not split says why.
void draw_worker_command(AppState& state) {
    const std::string& lang = state.lang;
    ImGui::TextDisabled("%s", tr(UiText::WorkerCommand, lang));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(UiText::WorkerCommandTip, lang));
    char buf[1024];
    std::snprintf(buf, sizeof buf, "%s", state.worker_command_edit.c_str());
    ImGui::SetNextItemWidth(-ImGui::CalcTextSize(tr(UiText::WorkerApply, lang)).x - ImGui::GetStyle().FramePadding.x * 2 -
                            ImGui::GetStyle().ItemSpacing.x);
    if (ImGui::InputTextWithHint("##worker_command", tr(UiText::WorkerCommandHint, lang), buf, sizeof buf))
        state.worker_command_edit = buf;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(UiText::WorkerCommandTip, lang));
    ImGui::SameLine();
    if (ImGui::Button(tr(UiText::WorkerApply, lang))) state.requests.apply_worker_command = true;
    record_drawn_text(state.drawn.texts, tr(UiText::WorkerApply, lang));
    if (!state.worker_command_error.empty()) {
        const std::string why = render(state.worker_command_error, lang);
        ImGui::TextColored(palette::kCaution.vec4(), "%s", why.c_str());
        record_drawn_text(state.drawn.texts, why);
    }
}

}  // namespace

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
    if (state.backend_known && !state.worker_where.empty()) {
        char on[256];
        std::snprintf(on, sizeof on, tr(UiText::DevOnHost, state.lang), state.worker_where.c_str());
        ImGui::TextColored(palette::kWhere.vec4(), "%s", on);
        record_drawn_text(state.drawn.texts, on);
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
    draw_worker_command(state);
    ImGui::PopTextWrapPos();
}

}  // namespace wb::app
