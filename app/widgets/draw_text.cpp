// app/widgets/draw_text.cpp — see draw_text.hpp.
#include "widgets/draw_text.hpp"

#include <imgui_internal.h>  // GImGui, ImGui::LogRenderedText, ImGui::LogToTTY

#include <cstdio>

namespace wb::app {
namespace {

bool g_recording = false;
std::string g_record;
FILE* g_record_file = nullptr;

ssize_t record_write(void*, const char* buf, size_t size) {
    g_record.append(buf, size);
    return static_cast<ssize_t>(size);
}

FILE* record_file() {
    if (!g_record_file) {
        cookie_io_functions_t io{};
        io.write = record_write;
        g_record_file = fopencookie(nullptr, "w", io);
        if (g_record_file) std::setvbuf(g_record_file, nullptr, _IONBF, 0);
    }
    return g_record_file;
}

}  // namespace

void draw_text(ImDrawList* dl, ImVec2 pos, ImU32 colour, const char* text, const char* text_end) {
    dl->AddText(pos, colour, text, text_end);
    if (!g_recording) return;
    text_record_resume();
    ImGui::LogRenderedText(&pos, text, text_end);
}

void text_record_begin() {
    g_recording = record_file() != nullptr;
    g_record.clear();
    text_record_resume();
}

void text_record_resume() {
    if (!g_recording || GImGui->LogEnabled || !GImGui->CurrentWindow) return;
    ImGui::LogToTTY();
    GImGui->LogFile = g_record_file;  // LogFinish only flushes a TTY log's file
    g_record += "\n";
}

std::string text_record_finish() {
    if (g_recording && GImGui->LogEnabled) ImGui::LogFinish();
    g_recording = false;
    return std::move(g_record);
}

TextRecordPause::TextRecordPause(const char* what) : was_recording_(g_recording) {
    if (!g_recording) return;
    if (GImGui->LogEnabled) ImGui::LogFinish();
    g_record += std::string("\n[") + what + "]\n";
    g_recording = false;
}

TextRecordPause::~TextRecordPause() {
    g_recording = was_recording_;
    text_record_resume();
}

}  // namespace wb::app
