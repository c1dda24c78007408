// app/widgets/draw_text.hpp — every piece of text a frame draws, recorded for
// the scripted tests that audit it (script.hpp: expect-no-english, dump-text).
//
// ImGui's log does the recording: while it is on, every text widget, button,
// menu item, tab and tooltip adds its text. The log stops at the End of a
// window (ImGui 1.86 ends it at any top-level window's End, 1.90 at the End of
// the window that began it), so the panels resume it after their Begin
// (text_record_resume) and the widgets' own text on draw lists goes through
// draw_text. The log writes straight into the record (a FILE* over a string),
// so what a window logged stays when its End stops the log.
#pragma once

#include <imgui.h>

#include <string>

namespace wb::app {

// dl->AddText, and the same text into the record while it runs.
void draw_text(ImDrawList* dl, ImVec2 pos, ImU32 colour, const char* text, const char* text_end = nullptr);

// Recording: begin at the start of a frame (after ImGui::NewFrame), resume
// after any Begin (a panel, popup or menu), finish before ImGui::Render.
void text_record_begin();
void text_record_resume();
std::string text_record_finish();

// While one lives, nothing is recorded: text that is not the workbook's own
// words. A lesson's Markdown ("lesson text"), which the lesson lint renders
// and checks itself; a compiler's or compute-sanitizer's messages
// ("compiler text"), shown as the tool wrote them, English in every language.
// The record says "[lesson text]" (or `what`) where it was.
class TextRecordPause {
public:
    explicit TextRecordPause(const char* what = "lesson text");
    ~TextRecordPause();
    TextRecordPause(const TextRecordPause&) = delete;
    TextRecordPause& operator=(const TextRecordPause&) = delete;

private:
    bool was_recording_;
};

}  // namespace wb::app
