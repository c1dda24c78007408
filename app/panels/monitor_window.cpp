// app/panels/monitor_window.cpp — the GPU monitor: the tutorials' pyNVML
// notebook as a window. Memory used, utilisation, SM clock, temperature and
// power of the GPU the worker runs on, read twice a second through NVML by
// wb::GpuMonitor (runtime/driver/monitor.hpp) and plotted over the last two
// minutes, with what slows the clock when something does.
#include "panels/panels.hpp"

#include "app_state.hpp"
#include "palette.hpp"
#include "panels/panel.hpp"
#include "ui_text.hpp"
#include "widgets/plot.hpp"

#include <imgui.h>

#include <cstdio>
#include <string>
#include <vector>

namespace wb::app {
namespace {

// One reading's field over time, with its latest value as the caption.
void plot_field(const char* id, const std::string& caption, const char* series, const std::vector<float>& ys, float lo,
                float hi, ImU32 colour, const char* unit, std::vector<std::string>& drawn) {
    ImGui::TextUnformatted(caption.c_str());
    record_drawn_text(drawn, caption);
    PlotOptions o;
    o.label = series;
    o.colour = colour;
    o.x_label = "s";
    o.x_scale = 0.5;
    o.unit = unit;
    o.fixed_range = hi > lo;
    o.y_min = lo;
    o.y_max = hi;
    draw_line_plot(id, ys.data(), int(ys.size()), ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 4), o);
}

void draw_readings(AppState& state) {
    const std::string& lang = state.lang;
    const std::string why = state.monitor->unavailable();
    if (!why.empty()) {
        char line[512];
        std::snprintf(line, sizeof line, tr(UiText::MonitorUnavailable, lang), why.c_str());
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(line);
        ImGui::PopTextWrapPos();
        record_drawn_text(state.drawn.texts, line);
        return;
    }
    const std::vector<GpuSample> samples = state.monitor->samples();
    if (samples.empty()) {
        ImGui::TextDisabled("%s", tr(UiText::MonitorWaiting, lang));
        return;
    }
    const GpuSample& last = samples.back();
    std::vector<float> mem, util, clock, temp, power;
    for (const GpuSample& g : samples) {
        mem.push_back(float(g.mem_used / 1e9));
        util.push_back(float(g.util_gpu));
        clock.push_back(float(g.sm_mhz));
        temp.push_back(float(g.temp_c));
        power.push_back(float(g.power_w));
    }
    char line[256];
    std::snprintf(line, sizeof line, tr(UiText::MonitorMemory, lang), last.mem_used / 1e9, last.mem_total / 1e9);
    plot_field("##mon_mem", line, "GB", mem, 0, float(last.mem_total / 1e9), palette::kMemory.u32(), "GB", state.drawn.texts);
    std::snprintf(line, sizeof line, tr(UiText::MonitorUtil, lang), last.util_gpu, last.util_mem);
    plot_field("##mon_util", line, "%", util, 0, 100, palette::kUtilisation.u32(), "%", state.drawn.texts);
    std::snprintf(line, sizeof line, tr(UiText::MonitorClock, lang), last.sm_mhz, last.max_sm_mhz);
    plot_field("##mon_clock", line, "MHz", clock, 0, float(last.max_sm_mhz), palette::kClock.u32(), "MHz", state.drawn.texts);
    std::snprintf(line, sizeof line, tr(UiText::MonitorTemp, lang), last.temp_c);
    plot_field("##mon_temp", line, "C", temp, 0, 100, palette::kTemperature.u32(), "C", state.drawn.texts);
    std::snprintf(line, sizeof line, tr(UiText::MonitorPower, lang), last.power_w, last.power_limit_w);
    plot_field("##mon_power", line, "W", power, 0, float(last.power_limit_w), palette::kPower.u32(), "W", state.drawn.texts);
    if (const std::vector<std::string> slowed = slowdown_ids(last.reasons); !slowed.empty()) {
        std::string words;
        for (const std::string& id : slowed) words += (words.empty() ? "" : ", ") + render({{"timing.slow." + id, {}}}, lang);
        std::snprintf(line, sizeof line, tr(UiText::MonitorSlowed, lang), words.c_str());
        ImGui::TextColored(palette::kFail.vec4(), "%s", line);
        record_drawn_text(state.drawn.texts, line);
    }
}

}  // namespace

void draw_monitor_window(AppState& state) {
    if (!state.show_monitor) {
        state.monitor.reset();  // the sampling thread stops with the window
        return;
    }
    // Made for the GPU the worker reported; made again if that changes.
    const std::string pci = state.device ? state.device->pci_bus_id : std::string();
    if (state.device && !pci.empty() && (!state.monitor || state.monitor_pci != pci)) {
        state.monitor = std::make_shared<GpuMonitor>(pci);
        state.monitor_pci = pci;
    }
    const float font = ImGui::GetFontSize();
    ImGui::SetNextWindowSize(ImVec2(font * 26, font * 34), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowBgAlpha(1.0f);  // the themes' slight transparency would show the editor through the plots
    const std::string title = std::string(tr(UiText::MonitorTitle, state.lang)) + "###gpu_monitor";
    if (ImGui::Begin(title.c_str(), &state.show_monitor)) {
        text_record_resume();
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("%s", tr(UiText::MonitorAbout, state.lang));
        ImGui::PopTextWrapPos();
        record_drawn_text(state.drawn.texts, "gpu monitor");
        if (state.device) ImGui::TextUnformatted(state.device->name.c_str());
        if (!state.device) {
            char line[512];
            std::snprintf(line, sizeof line, tr(UiText::MonitorNoGpu, state.lang), no_gpu_text(state).c_str());
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextUnformatted(line);
            ImGui::PopTextWrapPos();
            record_drawn_text(state.drawn.texts, line);
        } else if (state.monitor) {
            draw_readings(state);
        }
    }
    ImGui::End();
}

}  // namespace wb::app
