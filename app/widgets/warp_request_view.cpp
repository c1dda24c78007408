// app/widgets/warp_request_view.cpp — the warp picture (warp_request_view.hpp).
#include "widgets/warp_request_view.hpp"

#include "palette.hpp"

#include "emulate/access_summary.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <map>

namespace wb::app {

int WarpRequestLayout::sectors() const {
    return static_cast<int>(std::count_if(sector_slots.begin(), sector_slots.end(), [](long long s) { return s >= 0; }));
}

WarpRequestLayout warp_request_layout(const std::vector<WarpLane>& lanes, bool shared) {
    WarpRequestLayout out;
    out.shared = shared;
    out.lane_places.assign(kWarpLanes, {});
    const auto last_byte = [](const WarpLane& l) { return l.offset + std::max(1, l.size) - 1; };
    if (!shared) {
        std::vector<long long> touched;
        for (const WarpLane& l : lanes)
            for (long long s = sector_of(l.offset); s <= sector_of(last_byte(l)); ++s) touched.push_back(s);
        std::sort(touched.begin(), touched.end());
        touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
        std::map<long long, int> slot_of;
        for (long long s : touched) {
            if (!out.sector_slots.empty() && s > out.sector_slots.back() + 1) out.sector_slots.push_back(-1);
            slot_of[s] = static_cast<int>(out.sector_slots.size());
            out.sector_slots.push_back(s);
        }
        for (const WarpLane& l : lanes) {
            if (l.lane < 0 || l.lane >= kWarpLanes) continue;
            for (long long s = sector_of(l.offset); s <= sector_of(last_byte(l)); ++s)
                out.lane_places[std::size_t(l.lane)].push_back(slot_of[s]);
        }
        return out;
    }
    // Each bank's distinct words, in order: a word's row is its place among them.
    std::map<long long, std::vector<int>> lanes_of_word;
    for (const WarpLane& l : lanes) {
        if (l.lane < 0 || l.lane >= kWarpLanes) continue;
        for (long long w = bank_word_of(l.offset); w <= bank_word_of(last_byte(l)); ++w) lanes_of_word[w].push_back(l.lane);
    }
    std::vector<std::vector<long long>> words_of_bank(kSharedBanks);
    for (const auto& [word, _] : lanes_of_word) words_of_bank[std::size_t(word % kSharedBanks)].push_back(word);
    for (const auto& words : words_of_bank) out.rows = std::max(out.rows, static_cast<int>(words.size()));
    out.cell_lanes.assign(std::size_t(out.rows) * kSharedBanks, {});
    out.cell_word.assign(std::size_t(out.rows) * kSharedBanks, -1);
    for (int bank = 0; bank < kSharedBanks; ++bank)
        for (std::size_t row = 0; row < words_of_bank[std::size_t(bank)].size(); ++row) {
            const long long word = words_of_bank[std::size_t(bank)][row];
            const std::size_t cell = row * kSharedBanks + std::size_t(bank);
            out.cell_word[cell] = word;
            out.cell_lanes[cell] = lanes_of_word[word];
            for (int lane : lanes_of_word[word]) out.lane_places[std::size_t(lane)].push_back(static_cast<int>(cell));
        }
    return out;
}

namespace {

// Small text centred in [a, b] when it fits.
void centred_number(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 colour, const char* text, float size) {
    ImFont* font = ImGui::GetFont();
    const ImVec2 t = font->CalcTextSizeA(size, 1e9f, 0, text);
    if (t.x > b.x - a.x + 1) return;
    dl->AddText(font, size, ImVec2((a.x + b.x - t.x) * 0.5f, (a.y + b.y - t.y) * 0.5f), colour, text);
}

void tooltip_lines(const std::vector<std::string>& lines) {
    if (lines.empty()) return;
    ImGui::BeginTooltip();
    for (const std::string& l : lines) ImGui::TextUnformatted(l.c_str());
    ImGui::EndTooltip();
}

}  // namespace

WarpRequestLayout draw_warp_request(const char* id, const std::vector<WarpLane>& lanes, bool shared,
                                    const WarpRequestText& text, float width) {
    const WarpRequestLayout layout = warp_request_layout(lanes, shared);
    if (width <= 0) width = ImGui::GetContentRegionAvail().x;
    const float font = ImGui::GetFontSize();
    const float small = std::max(8.0f, font * 0.72f);
    const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 faint = palette::kUntouched.u32();
    const ImU32 lane_colour = palette::kLane.u32();
    const ImU32 touched = palette::kTouched.with_alpha(150).u32();
    const ImU32 touched_edge = palette::kTouched.u32();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const ImGuiIO& io = ImGui::GetIO();
    const WarpLane* by_lane[kWarpLanes] = {};
    for (const WarpLane& l : lanes)
        if (l.lane >= 0 && l.lane < kWarpLanes) by_lane[l.lane] = &l;
    ImGui::PushID(id);
    char buf[32];

    if (!shared) {
        const float lane_w = width / kWarpLanes, row_h = font * 1.4f, gap = font * 3.0f;
        const int gaps = static_cast<int>(layout.sector_slots.size()) - layout.sectors();
        // A sector holds 32 bytes: at most the width of 8 lanes of 4-byte values, so whole-warp reads line up.
        const float unit = std::min(8 * lane_w, width / std::max(1.0f, float(layout.sectors()) + 0.5f * float(gaps)));
        std::vector<float> slot_x(layout.sector_slots.size() + 1, o.x);
        for (std::size_t i = 0; i < layout.sector_slots.size(); ++i)
            slot_x[i + 1] = slot_x[i] + (layout.sector_slots[i] < 0 ? 0.5f * unit : unit);
        const float sector_y = o.y + row_h + gap;
        const ImVec2 size(width, row_h * 2 + gap + small + 4);
        ImGui::InvisibleButton("##warp", size);
        const bool hovered = ImGui::IsItemHovered();
        // Lanes, and each active one joined to its sectors.
        for (int l = 0; l < kWarpLanes; ++l) {
            const ImVec2 a(o.x + l * lane_w + 1, o.y), b(o.x + (l + 1) * lane_w - 1, o.y + row_h);
            if (by_lane[l]) dl->AddRectFilled(a, b, lane_colour, 2.0f);
            else dl->AddRect(a, b, faint, 2.0f);
            std::snprintf(buf, sizeof buf, "%d", l);
            centred_number(dl, a, b, by_lane[l] ? palette::kOnBadge.u32() : faint, buf, small);
            for (int slot : layout.lane_places[std::size_t(l)])
                dl->AddLine(ImVec2((a.x + b.x) * 0.5f, b.y), ImVec2((slot_x[std::size_t(slot)] + slot_x[std::size_t(slot) + 1]) * 0.5f, sector_y),
                            palette::kLane.with_alpha(140).u32(), 1.0f);
        }
        for (std::size_t i = 0; i < layout.sector_slots.size(); ++i) {
            const ImVec2 a(slot_x[i] + 1, sector_y), b(slot_x[i + 1] - 1, sector_y + row_h);
            if (layout.sector_slots[i] < 0) {
                centred_number(dl, a, b, ink, "\xE2\x80\xA6", font);  // …
                continue;
            }
            dl->AddRectFilled(a, b, touched, 2.0f);
            dl->AddRect(a, b, touched_edge, 2.0f);
            std::snprintf(buf, sizeof buf, "%lld", layout.sector_slots[i]);
            centred_number(dl, ImVec2(a.x, b.y + 2), ImVec2(b.x, b.y + 2 + small), ink, buf, small);
        }
        if (hovered) {
            const ImVec2 m = io.MousePos;
            std::vector<std::string> lines;
            if (m.y < o.y + row_h) {
                const int l = std::clamp(static_cast<int>((m.x - o.x) / lane_w), 0, kWarpLanes - 1);
                if (by_lane[l] && text.lane) lines.push_back(text.lane(*by_lane[l]));
            } else if (m.y >= sector_y) {
                for (std::size_t i = 0; i < layout.sector_slots.size(); ++i)
                    if (m.x >= slot_x[i] && m.x < slot_x[i + 1] && layout.sector_slots[i] >= 0) {
                        if (text.sector) lines.push_back(text.sector(layout.sector_slots[i]));
                        for (int l = 0; l < kWarpLanes; ++l)
                            if (by_lane[l] && text.lane &&
                                std::count(layout.lane_places[std::size_t(l)].begin(), layout.lane_places[std::size_t(l)].end(), int(i)))
                                lines.push_back("  " + text.lane(*by_lane[l]));
                    }
            }
            tooltip_lines(lines);
        }
        ImGui::PopID();
        return layout;
    }

    // Shared: bank numbers across the top, then a row per pass.
    const float col_w = width / kSharedBanks, head_h = small + 4;
    // A few rows at the text's height; many (a conflict) lower, 32 of them in 24 lines of text.
    const float row_h = layout.rows <= 8 ? font * 1.1f : std::max(4.0f, std::min(font * 0.75f, 24 * font / float(layout.rows)));
    const ImVec2 size(width, head_h + row_h * float(std::max(1, layout.rows)) + 2);
    ImGui::InvisibleButton("##warp", size);
    const bool hovered = ImGui::IsItemHovered();
    const float numbers_every = ImGui::GetFont()->CalcTextSizeA(small, 1e9f, 0, "31").x + 2 > col_w ? 4 : 1;
    for (int bank = 0; bank < kSharedBanks; ++bank) {
        if (bank % int(numbers_every) != 0) continue;
        std::snprintf(buf, sizeof buf, "%d", bank);
        centred_number(dl, ImVec2(o.x + bank * col_w, o.y), ImVec2(o.x + (bank + 1) * col_w, o.y + small), ImGui::GetColorU32(ImGuiCol_TextDisabled), buf, small);
    }
    const float grid_y = o.y + head_h;
    for (int row = 0; row < layout.rows; ++row)
        for (int bank = 0; bank < kSharedBanks; ++bank) {
            const std::size_t cell = std::size_t(row) * kSharedBanks + std::size_t(bank);
            const ImVec2 a(o.x + bank * col_w + 1, grid_y + row * row_h + 1), b(o.x + (bank + 1) * col_w - 1, grid_y + (row + 1) * row_h - 1);
            const std::vector<int>& in = layout.cell_lanes[cell];
            if (in.empty()) {
                dl->AddRect(a, b, faint);
                continue;
            }
            dl->AddRectFilled(a, b, touched, 2.0f);
            std::snprintf(buf, sizeof buf, in.size() > 1 ? "%d+" : "%d", in.front());
            centred_number(dl, a, b, ink, buf, small);
        }
    if (hovered) {
        const ImVec2 m = io.MousePos;
        const int bank = std::clamp(static_cast<int>((m.x - o.x) / col_w), 0, kSharedBanks - 1);
        const int row = static_cast<int>((m.y - grid_y) / row_h);
        std::vector<std::string> lines;
        if (text.bank) lines.push_back(text.bank(bank));
        if (m.y >= grid_y && row >= 0 && row < layout.rows)
            for (int lane : layout.cell_lanes[std::size_t(row) * kSharedBanks + std::size_t(bank)])
                if (by_lane[lane] && text.lane) lines.push_back("  " + text.lane(*by_lane[lane]));
        tooltip_lines(lines);
    }
    ImGui::PopID();
    return layout;
}

}  // namespace wb::app
