// app/panels/access_tab.cpp — the Memory access tab (access_tab.hpp).
//
// [SECTION] words and colours
// [SECTION] the per-line table
// [SECTION] the warp picture
// [SECTION] the per-thread view
// [SECTION] the tab
#include "panels/access_tab.hpp"

#include "app_state.hpp"
#include "panels/panel.hpp"
#include "ui_text.hpp"
#include "widgets/thread_grid.hpp"
#include "widgets/warp_request_view.hpp"

#include "emulate/access_record.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace wb::app {

// [SECTION] words and colours -----------------------------------------------------------------

Colour access_cost_colour(AccessCost cost) {
    switch (cost) {
    case AccessCost::Fits: return palette::kAccessFits;
    case AccessCost::Extra: return palette::kAccessExtra;
    case AccessCost::Heavy: return palette::kAccessHeavy;
    }
    return palette::kAccessFits;
}

const char* access_word(const std::string& name, const std::string& lang) {
    if (name == "load") return tr(UiText::AccessLoad, lang);
    if (name == "store") return tr(UiText::AccessStore, lang);
    if (name == "atomic") return tr(UiText::AccessAtomic, lang);
    if (name == "global") return tr(UiText::AccessGlobal, lang);
    if (name == "shared") return tr(UiText::AccessShared, lang);
    return name.c_str();
}

std::string access_mark_text(const std::vector<const AccessLine*>& rows, const std::string& lang) {
    std::string text = tr(UiText::AccessMarkTitle, lang);
    char line[256];
    for (const AccessLine* l : rows) {
        const double requests = double(std::max(1ll, l->requests));
        if (l->space == "shared")
            std::snprintf(line, sizeof line, tr(UiText::AccessMarkShared, lang), access_word(l->op, lang), l->requests,
                          l->bank_conflict_ways, double(l->least_wavefronts) / requests);
        else
            std::snprintf(line, sizeof line, tr(UiText::AccessMarkGlobal, lang), access_word(l->op, lang), l->requests,
                          l->sectors_per_request, double(l->least_sectors) / requests);
        text += "\n";
        text += line;
    }
    return text;
}

namespace {

std::string format(const char* f, auto... args) {
    char buf[512];
    std::snprintf(buf, sizeof buf, f, args...);
    return buf;
}

std::string xyz(const std::array<long long, 3>& v) {
    return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]) + ")";
}

// Wrapped text, recorded as drawn (scripts check it).
void say(AppState& state, const std::string& text, bool disabled = false) {
    if (disabled) ImGui::TextDisabled("%s", text.c_str());
    else ImGui::TextUnformatted(text.c_str());
    record_drawn_text(state.drawn.texts, text);
}

// The row the student chose, or -1.
int chosen_row(const AccessViewState& v, const std::vector<AccessLine>& lines) {
    if (v.line <= 0) return -1;
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (lines[i].line == v.line && lines[i].op == v.op && lines[i].space == v.space) return static_cast<int>(i);
    return -1;
}

// A buffer's name as the window says it: an array or a lesson's buffer by its name, the rest of shared memory as "shared".
std::string buffer_label(const AccessSummary& a, int buffer, const std::string& lang) {
    if (buffer < 0 || std::size_t(buffer) >= a.buffers.size()) return "?";
    const AccessBuffer& b = a.buffers[std::size_t(buffer)];
    return b.space == "shared" && b.name == "shared" ? access_word("shared", lang) : b.name;
}

// "in[35]", or "shared, byte 256" where the element's size is not known.
std::string element_text(const AccessSummary& a, int buffer, long long element, const std::string& lang) {
    const std::string name = buffer_label(a, buffer, lang);
    const bool counted = buffer >= 0 && std::size_t(buffer) < a.buffers.size() && a.buffers[std::size_t(buffer)].element_bytes > 0;
    return counted ? name + "[" + std::to_string(element) + "]" : format(tr(UiText::AccessByteOf, lang), name.c_str(), element);
}

}  // namespace

// [SECTION] the per-line table ----------------------------------------------------------------

void choose_access_row(AppState& state, const AccessLine& line) {
    AccessViewState& view = state.access_view;
    view.line = line.line;
    view.op = line.op;
    view.space = line.space;
    view.request = 0;
    if (line.file == state.editor.origin) state.editor.goto_line = line.line;
}

void draw_access_table(AppState& state, const std::vector<AccessLine>& lines, const char* title) {
    const std::string& lang = state.lang;
    const AccessViewState& view = state.access_view;
    ImGui::TextUnformatted(title);
    const int chosen = chosen_row(view, lines);
    constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("##access_lines", 6, kFlags)) return;
    for (UiText heading : {UiText::AccessColLine, UiText::AccessColOp, UiText::AccessColSpace, UiText::AccessColRequests,
                           UiText::AccessColSectors, UiText::AccessColWays})
        ImGui::TableSetupColumn(tr(heading, lang));
    ImGui::TableHeadersRow();
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const AccessLine& l = lines[i];
        const bool global = l.space == "global";
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        const std::string where = (l.file.empty() ? std::string("?") : l.file) + ":" + std::to_string(l.line);
        if (ImGui::Selectable((where + "##row" + std::to_string(i)).c_str(), int(i) == chosen, ImGuiSelectableFlags_SpanAllColumns))
            choose_access_row(state, l);
        const bool visible = ImGui::IsItemVisible();
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(access_word(l.op, lang));
        ImGui::TableSetColumnIndex(2);
        ImGui::TextUnformatted(access_word(l.space, lang));
        ImGui::TableSetColumnIndex(3);
        if (l.uneven_requests > 0) {
            ImGui::Text("%lld~", l.requests);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", render({{"access.uneven", {}}}, lang).c_str());
        } else {
            ImGui::Text("%lld", l.requests);
        }
        const AccessCost cost = access_cost(l);
        const std::string figure = format("%.2f", global ? l.sectors_per_request : l.bank_conflict_ways);
        const ImVec4 colour = access_cost_colour(cost).vec4();
        ImGui::TableSetColumnIndex(4);
        if (global) ImGui::TextColored(colour, "%s", figure.c_str());
        else ImGui::TextDisabled("-");
        ImGui::TableSetColumnIndex(5);
        if (!global) ImGui::TextColored(colour, "%s", figure.c_str());
        else ImGui::TextDisabled("-");
        if (visible) state.drawn.access_rows.push_back({l.line, l.op, l.space, figure, access_cost_name(cost)});
    }
    ImGui::EndTable();
    if (std::any_of(lines.begin(), lines.end(), [](const AccessLine& l) { return l.uneven_requests > 0; })) {
        ImGui::PushTextWrapPos(0.0f);
        say(state, render({{"access.uneven", {}}}, lang), true);
        ImGui::PopTextWrapPos();
    }
}

namespace {

// [SECTION] the warp picture ------------------------------------------------------------------

void draw_request(AppState& state, const AccessSummary& a) {
    const std::string& lang = state.lang;
    AccessViewState& view = state.access_view;
    const int row = chosen_row(view, a.lines);
    ImGui::PushTextWrapPos(0.0f);
    if (row < 0 || a.lines[std::size_t(row)].examples.empty()) {
        say(state, tr(UiText::AccessPickRow, lang), true);
        ImGui::PopTextWrapPos();
        return;
    }
    const AccessLine& line = a.lines[std::size_t(row)];
    const int count = static_cast<int>(line.examples.size());
    view.request = std::clamp(view.request, 0, count - 1);
    ImGui::BeginDisabled(view.request == 0);
    if (ImGui::SmallButton(tr(UiText::AccessPrev, lang))) --view.request;
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(view.request + 1 >= count);
    if (ImGui::SmallButton(tr(UiText::AccessNext, lang))) ++view.request;
    ImGui::EndDisabled();
    ImGui::SameLine();
    say(state, format(tr(UiText::AccessRequestOf, lang), view.request + 1, count, line.line, line.requests));
    const AccessRequest& q = line.examples[std::size_t(view.request)];
    const bool shared = line.space == "shared";
    const std::string kernel = q.launch >= 0 && std::size_t(q.launch) < a.launches.size() ? a.launches[std::size_t(q.launch)].kernel : "?";
    const std::string buffer = buffer_label(a, q.buffer, lang);
    say(state, format(tr(UiText::AccessRequestWhere, lang), kernel.c_str(), q.block[0], q.block[1], q.block[2], q.warp,
                      ("'" + buffer + "'").c_str(), int(q.lanes.size()), q.size));
    say(state, shared ? format(tr(UiText::AccessPasses, lang), q.wavefronts) : format(tr(UiText::AccessSectorsTouched, lang), q.sectors),
        true);
    ImGui::PopTextWrapPos();

    std::vector<WarpLane> lanes;
    for (const AccessLane& l : q.lanes) lanes.push_back({l.lane, l.offset, q.size});
    const int element_bytes =
        q.buffer >= 0 && std::size_t(q.buffer) < a.buffers.size() ? a.buffers[std::size_t(q.buffer)].element_bytes : 0;
    WarpRequestText text;
    text.lane = [&](const WarpLane& l) {
        const long long from_start = l.offset - q.origin;
        return format(tr(UiText::AccessLane, lang), l.lane) + ": " +
               element_text(a, q.buffer, element_bytes > 0 ? from_start / element_bytes : from_start, lang);
    };
    text.sector = [&](long long s) {
        return format(tr(UiText::AccessSector, lang), s, s * kSectorBytes, s * kSectorBytes + kSectorBytes - 1);
    };
    text.bank = [&](int bank) { return format(tr(UiText::AccessBank, lang), bank); };
    const WarpRequestLayout drawn = draw_warp_request("##warp_request", lanes, shared, text, ImGui::GetContentRegionAvail().x);
    state.drawn.access_picture = shared ? "ways " + std::to_string(drawn.rows) : "sectors " + std::to_string(drawn.sectors());
    state.drawn.access_request = view.request + 1;
    state.drawn.access_requests = count;
}

// [SECTION] the per-thread view ---------------------------------------------------------------

void swatch(const Colour& colour, const std::string& label) {
    const float s = ImGui::GetTextLineHeight() * 0.8f;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(s, s));
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + 1), ImVec2(p.x + s, p.y + s + 1), colour.u32(), 2.0f);
    ImGui::SameLine();
    ImGui::TextUnformatted(label.c_str());
}

void draw_threads(AppState& state, const AccessSummary& a) {
    const std::string& lang = state.lang;
    AccessViewState& view = state.access_view;
    if (a.launches.empty()) return;
    if (a.launches.size() > 1) {
        const auto name = [&](int i) { return format(tr(UiText::AccessLaunch, lang), i, a.launches[std::size_t(i)].kernel.c_str()); };
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
        if (ImGui::BeginCombo("##access_launch", name(view.launch).c_str())) {
            for (int i = 0; i < int(a.launches.size()); ++i)
                if (ImGui::Selectable(name(i).c_str(), i == view.launch)) view.launch = i, view.block = 0, view.z = 0;
            ImGui::EndCombo();
        }
    }
    const AccessSampledLaunch& launch = a.launches[std::size_t(view.launch)];
    if (launch.sampled.empty()) return;
    if (launch.sampled.size() > 1) {
        ImGui::TextUnformatted(tr(UiText::Block, lang));
        ImGui::SameLine();
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
        if (ImGui::BeginCombo("##access_block", xyz(launch.sampled[std::size_t(view.block)]).c_str())) {
            for (int i = 0; i < int(launch.sampled.size()); ++i)
                if (ImGui::Selectable(xyz(launch.sampled[std::size_t(i)]).c_str(), i == view.block)) view.block = i;
            ImGui::EndCombo();
        }
    }
    const std::array<long long, 3> dim{std::max(1ll, launch.block_dim[0]), std::max(1ll, launch.block_dim[1]),
                                       std::max(1ll, launch.block_dim[2])};
    if (dim[2] > 1) {
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
        ImGui::SliderInt("threadIdx.z", &view.z, 0, int(dim[2] - 1));
    }
    view.z = std::clamp(view.z, 0, int(dim[2] - 1));
    const std::array<long long, 3>& block = launch.sampled[std::size_t(view.block)];
    ImGui::PushTextWrapPos(0.0f);
    say(state, format(tr(UiText::AccessThreadsTitle, lang), launch.kernel.c_str(), block[0], block[1], block[2]));

    // The block's threads by their linear index (threadIdx.x + blockDim.x * (y + blockDim.y * z)).
    std::vector<const AccessThread*> threads(std::size_t(dim[0] * dim[1] * dim[2]), nullptr);
    long long most[4] = {0, 0, 0, 0};
    const auto parts = [](const AccessThread& t) {
        return std::array<long long, 4>{t.global_reads, t.global_writes + t.global_atomics, t.shared_reads,
                                        t.shared_writes + t.shared_atomics};
    };
    for (const AccessThread& t : a.threads) {
        if (t.launch != launch.number || t.block != block) continue;
        const long long linear = t.thread[0] + dim[0] * (t.thread[1] + dim[1] * t.thread[2]);
        if (linear < 0 || std::size_t(linear) >= threads.size()) continue;
        threads[std::size_t(linear)] = &t;
        const auto p = parts(t);
        for (int k = 0; k < 4; ++k) most[k] = std::max(most[k], p[std::size_t(k)]);
    }
    if (std::none_of(threads.begin(), threads.end(), [](const AccessThread* t) { return t != nullptr; })) {
        say(state, tr(UiText::AccessNoThreads, lang), true);
        ImGui::PopTextWrapPos();
        return;
    }
    // blockDim.x across and a row per y; a wide block in rows of 32 consecutive threads, a warp each.
    const bool warp_rows = dim[0] > 64;
    if (warp_rows) say(state, format(tr(UiText::AccessRowsAreWarps, lang), dim[0]), true);
    say(state, tr(UiText::AccessLegendIntro, lang), true);
    ImGui::PopTextWrapPos();
    const Colour colours[4] = {palette::kGlobalReads, palette::kGlobalWrites, palette::kSharedReads, palette::kSharedWrites};
    const UiText legend[4] = {UiText::AccessLegendGlobalReads, UiText::AccessLegendGlobalWrites, UiText::AccessLegendSharedReads,
                              UiText::AccessLegendSharedWrites};
    for (int k = 0; k < 4; ++k) {
        swatch(colours[k], format(tr(legend[k], lang), most[k]));
        if (k % 2 == 0) ImGui::SameLine(ImGui::GetFontSize() * 18);
    }

    // The warp whose request the picture shows, when it is of this block: its threads outlined.
    std::vector<bool> outlined(threads.size(), false);
    if (const int row = chosen_row(view, a.lines); row >= 0 && !a.lines[std::size_t(row)].examples.empty()) {
        const auto& examples = a.lines[std::size_t(row)].examples;
        const AccessRequest& q = examples[std::size_t(std::clamp(view.request, 0, int(examples.size()) - 1))];
        if (q.launch == launch.number && q.block == block)
            for (const AccessLane& l : q.lanes) {
                const long long linear = q.warp * 32ll + l.lane;
                if (linear >= 0 && std::size_t(linear) < outlined.size()) outlined[std::size_t(linear)] = true;
            }
    }
    const std::size_t slice = std::size_t(dim[0] * dim[1]), first = slice * std::size_t(view.z);
    std::vector<ThreadGridCell> cells(slice);
    for (std::size_t i = 0; i < slice; ++i) {
        cells[i].outlined = outlined[first + i];
        if (const AccessThread* t = threads[first + i]) {
            const auto p = parts(*t);
            for (int k = 0; k < 4; ++k) cells[i].parts[std::size_t(k)] = most[k] > 0 ? float(p[std::size_t(k)]) / float(most[k]) : 0.0f;
        }
    }
    ThreadGridStyle style;
    for (int k = 0; k < 4; ++k) style.parts[std::size_t(k)] = colours[k].u32();
    style.outline = palette::kThreadOutline.u32();
    const int columns = warp_rows ? 32 : int(dim[0]);
    const int under = draw_thread_grid("##threads", cells, columns, style, ImGui::GetContentRegionAvail().x);
    state.drawn.access_cells = static_cast<int>(cells.size());
    if (under < 0 || !threads[first + std::size_t(under)]) return;
    const AccessThread& t = *threads[first + std::size_t(under)];
    const long long linear = static_cast<long long>(first) + under;
    ImGui::BeginTooltip();
    ImGui::Text("%s", format(tr(UiText::AccessThread, lang), t.thread[0], t.thread[1], t.thread[2], linear / 32, linear % 32).c_str());
    ImGui::TextUnformatted(format(tr(UiText::AccessThreadGlobal, lang), t.global_reads, t.global_writes, t.global_atomics).c_str());
    ImGui::TextUnformatted(format(tr(UiText::AccessThreadShared, lang), t.shared_reads, t.shared_writes, t.shared_atomics).c_str());
    for (const ThreadAccess& x : t.accesses) {
        if (x.row < 0 || std::size_t(x.row) >= a.lines.size()) continue;
        const AccessLine& l = a.lines[std::size_t(x.row)];
        ImGui::TextColored(colours[(l.space == "shared" ? 2 : 0) + (l.op == "load" ? 0 : 1)].vec4(), "%s",
                           format(tr(UiText::AccessTouch, lang), l.line, access_word(l.op, lang),
                                  element_text(a, x.buffer, x.element, lang).c_str())
                               .c_str());
    }
    if (t.accesses_left_out > 0) ImGui::TextDisabled("%s", format(tr(UiText::AccessMore, lang), t.accesses_left_out).c_str());
    ImGui::EndTooltip();
}

// Choices made for an earlier run, kept in range for this one.
void keep_in_range(AccessViewState& view, const AccessSummary& a, std::uint64_t run_serial) {
    if (view.run_serial != run_serial) {
        view.request = 0;
        view.run_serial = run_serial;
    }
    view.launch = std::clamp(view.launch, 0, std::max(0, int(a.launches.size()) - 1));
    const int blocks = a.launches.empty() ? 0 : int(a.launches[std::size_t(view.launch)].sampled.size());
    view.block = std::clamp(view.block, 0, std::max(0, blocks - 1));
    view.z = std::max(0, view.z);
}

}  // namespace

// [SECTION] the tab ---------------------------------------------------------------------------

// "Profile this run" (Nsight Compute, on the GPU), and the table it brought back.
// Returns whether that table was drawn: the emulator's record then has nothing to add.
bool draw_profile(AppState& state, const RunResult* r) {
    const std::string& lang = state.lang;
    const bool can = state.device.has_value() && !state.use_emulator;
    ImGui::BeginDisabled(!can);
    if (ImGui::Button(tr(UiText::ProfileRun, lang))) state.requests.profile = true;
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", tr(can ? UiText::ProfileRunTip : UiText::ProfileNeedsGpu, lang));
    if (!r || !r->profile) return false;
    const AccessSummary& p = *r->profile;
    ImGui::PushTextWrapPos(0.0f);
    if (!p.not_recorded.empty()) {
        say(state, render(p.not_recorded, lang));
        ImGui::PopTextWrapPos();
        return false;
    }
    say(state, render({{"profile.source", {std::to_string(p.launches.size())}}}, lang), true);
    ImGui::PopTextWrapPos();
    draw_access_table(state, p.lines, tr(UiText::AccessTableNcu, lang));
    return true;
}

void draw_access_tab(AppState& state) {
    const std::string& lang = state.lang;
    if (draw_profile(state, state.last_run ? &*state.last_run : nullptr)) return;
    if (!state.last_run) return;
    const RunResult& r = *state.last_run;
    ImGui::PushTextWrapPos(0.0f);
    const auto done = [] { ImGui::PopTextWrapPos(); };
    if (r.status == RunStatus::CompileOnly) {
        say(state, tr(UiText::AccessCompileOnly, lang));
        return done();
    }
    if (!r.access) {
        say(state, tr(UiText::AccessNoRecord, lang));
        return done();
    }
    const AccessSummary& a = *r.access;
    if (!a.not_recorded.empty()) {
        // A run on the GPU: the table is the emulator's, and the student is told how to get it.
        say(state, render(a.not_recorded, lang));
        if (a.not_recorded.front().key == "access.needs_emulator") say(state, tr(UiText::AccessBackendHint, lang));
        return done();
    }
    for (const AccessSampledLaunch& l : a.launches) {
        std::string blocks;
        for (const auto& b : l.sampled) blocks += (blocks.empty() ? "" : ", ") + xyz(b);
        say(state, render({{"access.sampled", {l.kernel, std::to_string(l.sampled.size()), std::to_string(l.blocks), blocks}}}, lang),
            true);
    }
    if (a.truncated) say(state, render({{"access.truncated", {std::to_string(AccessRecord::kAccesses)}}}, lang));
    if (a.lines.empty()) {
        say(state, render({{"access.none", {}}}, lang));
        return done();
    }
    say(state, tr(UiText::AccessIntro, lang), true);
    done();
    keep_in_range(state.access_view, a, state.run_serial);
    draw_access_table(state, a.lines, tr(UiText::AccessTableEmulator, lang));
    ImGui::Spacing();
    draw_request(state, a);
    ImGui::Spacing();
    ImGui::Separator();
    draw_threads(state, a);
}

}  // namespace wb::app
