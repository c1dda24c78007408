// app/panels/trust_prompt.cpp — the "Trust lessons in <folder>?" modal, asked
// once per folder for lessons from outside the shipped lessons folder
// (app/trust.hpp says why and what each answer does). Its words are the
// catalogue's (trust.prompt*, ui.trust*), in the student's language.
#include "panels/panels.hpp"
#include "widgets/draw_text.hpp"

#include "app_state.hpp"
#include "trust.hpp"
#include "ui_text.hpp"

#include "core/phrase.hpp"

#include <string>

namespace wb::app {
namespace {

constexpr const char* kPopupId = "###trust_lessons";

}  // namespace

void draw_trust_prompt(AppState& state) {
    TrustState& t = state.trust;
    const std::string& lang = state.lang;
    if (t.prompt_open && !ImGui::IsPopupOpen(kPopupId)) ImGui::OpenPopup(kPopupId);
    const std::string title = std::string(tr(UiText::TrustTitle, lang)) + kPopupId;
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (!ImGui::BeginPopupModal(title.c_str(), nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    text_record_resume();
    if (!t.prompt_open) {  // answered elsewhere (a script)
        ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        return;
    }
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34.0f);
    ImGui::TextUnformatted(render({{"trust.prompt_question", {t.folder.string()}}}, lang).c_str());
    ImGui::Spacing();
    ImGui::TextUnformatted(render({{"trust.prompt", {"@trust.explanation"}}}, lang).c_str());
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    if (ImGui::Button(tr(UiText::Trust, lang))) {
        answer_trust(state, true);
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button(tr(UiText::DontTrust, lang))) {
        answer_trust(state, false);
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

}  // namespace wb::app
