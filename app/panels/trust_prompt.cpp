// app/panels/trust_prompt.cpp — the "Trust lessons in <folder>?" modal, asked
// once per folder for lessons from outside the shipped lessons folder
// (app/trust.hpp says why and what each answer does). Its text is here in
// both languages: it is the one place that says it.
#include "panels/panels.hpp"
#include "widgets/draw_text.hpp"

#include "app_state.hpp"
#include "trust.hpp"

#include "core/data_dirs.hpp"

#include <string>

namespace wb::app {
namespace {

constexpr const char* kPopupId = "###trust_lessons";

}  // namespace

void draw_trust_prompt(AppState& state) {
    TrustState& t = state.trust;
    const bool zh = state.lang == "zh";
    if (t.prompt_open && !ImGui::IsPopupOpen(kPopupId)) ImGui::OpenPopup(kPopupId);
    const std::string title = std::string(zh ? "信任这些课程吗？" : "Trust these lessons?") + kPopupId;
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (!ImGui::BeginPopupModal(title.c_str(), nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    text_record_resume();
    if (!t.prompt_open) {  // answered elsewhere (a script)
        ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        return;
    }
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34.0f);
    if (zh) {
        ImGui::Text("信任 %s 中的课程吗？", t.folder.string().c_str());
        ImGui::Spacing();
        ImGui::TextUnformatted("这些课程不是随 CUDA Workbook 附带的。课程的 CPU 参考实现是 C++ 代码，"
                               "会在这台计算机上编译并运行，课程的内核也会运行。只有在你信任课程作者时才选择“信任”。"
                               "不信任时仍可阅读说明，但不能编译和运行。");
    } else {
        ImGui::Text("Trust lessons in %s?", t.folder.string().c_str());
        ImGui::Spacing();
        ImGui::TextUnformatted(("These lessons did not come with CUDA Workbook: " + untrusted_lesson_explanation() +
                                ". Trust them only if you trust their author. Until then you can read the "
                                "instructions, but nothing is compiled or run.")
                                   .c_str());
    }
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    if (ImGui::Button(zh ? "信任" : "Trust")) {
        answer_trust(state, true);
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button(zh ? "不信任" : "Don't trust")) {
        answer_trust(state, false);
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

}  // namespace wb::app
