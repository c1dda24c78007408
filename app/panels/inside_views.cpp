// app/panels/inside_views.cpp — Resources, PTX and SASS (inside_views.hpp).
#include "panels/inside_views.hpp"

#include "palette.hpp"
#include "panels/panels.hpp"

#include "app_state.hpp"
#include "ui_text.hpp"

#include "inspect/inspect.hpp"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>

namespace wb::app {
namespace {

const ImVec4 kNote = palette::kCaution.vec4();
const ImVec4 kSourceLine = palette::kWhere.vec4();

// Says why there is nothing to show yet; true when there is a report to draw.
bool have_report(AppState& state) {
    state.inspect_wanted = true;  // act_on_requests asks the worker when the text changed
    const std::string& lang = state.lang;
    if (!state.inspection) {
        ImGui::TextDisabled("%s", tr(UiText::InspectPending, lang));
        return false;
    }
    if (state.inspection_revision != state.editor.revision) ImGui::TextColored(kNote, "%s", tr(UiText::InspectStale, lang));
    if (state.inspection->kernels.empty()) {
        ImGui::TextColored(kNote, "%s", tr(UiText::InspectNoKernels, lang));
        return false;
    }
    return true;
}

std::string limiters(const Occupancy& o, const std::string& lang) {
    std::string s;
    for (const std::string& l : o.limited_by) {
        const UiText id = l == "warps"           ? UiText::LimitWarps
                          : l == "registers"     ? UiText::LimitRegisters
                          : l == "shared memory" ? UiText::LimitShared
                          : l == "blocks"        ? UiText::LimitBlocks
                                                 : UiText::LimitBarriers;
        s += (s.empty() ? "" : ", ") + std::string(tr(id, lang));
    }
    return s;
}

// One bar per block size, the launch's own in a brighter colour; hovering
// one says its size and occupancy.
void draw_occupancy_chart(const std::vector<Occupancy>& chart, int current, const std::string& lang) {
    const float height = ImGui::GetTextLineHeight() * 5.0f;
    const float width = std::max(ImGui::GetContentRegionAvail().x, 100.0f);
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##occupancy_chart", ImVec2(width, height));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p0, ImVec2(p0.x + width, p0.y + height), ImGui::GetColorU32(ImGuiCol_FrameBg));
    const float bar = width / static_cast<float>(std::max<std::size_t>(chart.size(), 1));
    int hovered = -1;
    for (std::size_t i = 0; i < chart.size(); ++i) {
        const float x0 = p0.x + bar * static_cast<float>(i) + 1.0f, x1 = x0 + bar - 2.0f;
        const float top = p0.y + height * (1.0f - static_cast<float>(chart[i].fraction()));
        const bool now = chart[i].block_threads == current;
        const ImU32 colour = now ? palette::kCurrentBar.u32() : palette::kOtherBar.u32();
        dl->AddRectFilled(ImVec2(x0, top), ImVec2(x1, p0.y + height), colour);
        if (ImGui::IsItemHovered() && ImGui::GetIO().MousePos.x >= x0 - 1.0f && ImGui::GetIO().MousePos.x < x1 + 1.0f)
            hovered = static_cast<int>(i);
    }
    if (hovered >= 0) {
        const Occupancy& o = chart[static_cast<std::size_t>(hovered)];
        ImGui::SetTooltip(tr(UiText::OccupancyAt, lang), o.block_threads, 100.0 * o.fraction(), o.active_blocks);
    }
    ImGui::TextDisabled(tr(UiText::OccupancyAxis, lang), chart.empty() ? 0 : chart.front().block_threads,
                        chart.empty() ? 0 : chart.back().block_threads);
}

void draw_listing(AppState& state, const Listing& listing, const char* id) {
    ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, 320.0f * state.ui_scale));
    char filter[128];
    std::snprintf(filter, sizeof filter, "%s", state.listing_filter.c_str());
    const std::string hint = std::string(tr(UiText::WFind, state.lang)) + "...";
    if (ImGui::InputTextWithHint("##listing_filter", hint.c_str(), filter, sizeof filter)) state.listing_filter = filter;
    std::string needle = state.listing_filter;
    std::transform(needle.begin(), needle.end(), needle.begin(), [](unsigned char c) { return std::tolower(c); });
    // The lines the search keeps; every line without a search.
    std::vector<int> shown;
    for (int i = 0; i < static_cast<int>(listing.size()); ++i) {
        if (needle.empty()) {
            shown.push_back(i);
            continue;
        }
        std::string text = listing[static_cast<std::size_t>(i)].text;
        std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
        if (text.find(needle) != std::string::npos) shown.push_back(i);
    }
    const int caret = state.drawn.cursor_line;
    int shown_for_caret = 0;
    for (int i : shown) shown_for_caret += listing[static_cast<std::size_t>(i)].source_line == caret && !listing[static_cast<std::size_t>(i)].is_source;
    ImGui::SameLine();
    ImGui::TextDisabled(tr(UiText::ListingCaret, state.lang), caret, shown_for_caret);
    char summary[128];
    std::snprintf(summary, sizeof summary, "%s: %zu lines, %d for line %d", id, listing.size(), shown_for_caret, caret);
    record_drawn_text(state.drawn.texts, summary);
    if (!ImGui::BeginChild(id, ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar)) {
        ImGui::EndChild();
        return;
    }
    if (state.code_font) ImGui::PushFont(state.code_font);
    // When the caret moves to another line, the listing scrolls to that line's instructions.
    const std::string scroll_key = std::string(id) + ":" + std::to_string(caret) + ":" + state.listing_filter;
    if (scroll_key != state.listing_scrolled_for) {
        state.listing_scrolled_for = scroll_key;
        for (std::size_t row = 0; row < shown.size(); ++row)
            if (listing[static_cast<std::size_t>(shown[row])].source_line == caret) {
                ImGui::SetScrollY(static_cast<float>(row) * ImGui::GetTextLineHeightWithSpacing());
                break;
            }
    }
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(shown.size()));
    while (clipper.Step()) {
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
            const ListingLine& line = listing[static_cast<std::size_t>(shown[static_cast<std::size_t>(row)])];
            ImGui::PushID(row);
            const bool here = line.source_line > 0 && line.source_line == caret;
            if (line.is_source) ImGui::PushStyleColor(ImGuiCol_Text, kSourceLine);
            // A click on a line that came from the student's source puts the caret there.
            if (ImGui::Selectable(line.text.empty() ? " " : line.text.c_str(), here) && line.source_line > 0)
                state.editor.goto_line = line.source_line;
            if (line.is_source) ImGui::PopStyleColor();
            ImGui::PopID();
        }
    }
    if (state.code_font) ImGui::PopFont();
    ImGui::EndChild();
}

}  // namespace

void draw_resources_tab(AppState& state) {
    if (!have_report(state)) return;
    const InspectionReport& in = *state.inspection;
    const std::string& lang = state.lang;
    const bool own_gpu = state.device && state.device->arch() == in.arch;
    const DeviceLimits limits = own_gpu ? state.device->limits : limits_for_arch(in.cc);
    ImGui::TextDisabled(tr(own_gpu ? UiText::InspectLimitsGpu : UiText::InspectLimitsArch, lang),
                        own_gpu ? state.device->name.c_str() : in.arch.c_str());
    // The launch panel's block and dynamic shared memory, for the tuned launch's kernel.
    const int block = state.launch_dims ? static_cast<int>(state.launch_dims->threads_per_block()) : 256;
    const long long shared = state.launch_dims ? state.launch_dims->shared_bytes : 0;
    for (const KernelUsage& k : in.kernels) {
        ImGui::Separator();
        char line[512];
        std::snprintf(line, sizeof line, tr(UiText::InspectKernel, lang), k.entry.c_str(), k.registers,
                      k.shared_static, k.constant, k.stack_frame);
        ImGui::TextUnformatted(line);
        record_drawn_text(state.drawn.texts, "resources " + k.entry + " " + std::to_string(k.registers) + " registers");
        if (k.spill_stores > 0 || k.spill_loads > 0)
            ImGui::TextColored(kNote, tr(UiText::InspectSpills, lang), k.spill_stores, k.spill_loads);
        ImGui::TextDisabled(tr(UiText::InspectLargestBlock, lang), largest_block_for_registers(limits, k.registers));
        const Occupancy o = occupancy(in.cc, limits, k, block, shared);
        if (!o.error.empty()) {
            ImGui::TextColored(kNote, "%s", o.error.c_str());
            continue;
        }
        std::snprintf(line, sizeof line, tr(UiText::OccupancyNow, lang), block, shared, o.active_blocks, o.active_warps,
                      o.max_warps, 100.0 * o.fraction(), limiters(o, lang).c_str());
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(line);
        ImGui::PopTextWrapPos();
        char drawn[128];
        std::snprintf(drawn, sizeof drawn, "occupancy %s %d threads %.0f%%", k.entry.c_str(), block, 100.0 * o.fraction());
        record_drawn_text(state.drawn.texts, drawn);
        ImGui::PushID(k.entry.c_str());
        draw_occupancy_chart(occupancy_by_block_size(in.cc, limits, k, shared), block, lang);
        ImGui::PopID();
    }
}

void draw_ptx_tab(AppState& state) {
    if (!have_report(state)) return;
    draw_listing(state, state.inspection->ptx, "ptx");
}

void draw_sass_tab(AppState& state) {
    if (!have_report(state)) return;
    if (state.inspection->sass.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(kNote, "%s", state.inspection->sass_unavailable.c_str());
        ImGui::PopTextWrapPos();
        record_drawn_text(state.drawn.texts, "sass unavailable: " + state.inspection->sass_unavailable);
        return;
    }
    draw_listing(state, state.inspection->sass, "sass");
}

}  // namespace wb::app
