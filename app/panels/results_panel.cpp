// app/panels/results_panel.cpp — the last run: a pass/fail badge and a line
// with the figures a student looks for first, then tabs: the step's views
// (images, heat maps, plots; see results_views.hpp), the check (worst errors
// and first mismatches per compared buffer), timings and throughput with
// this step's run history, the buffers, and what the threads read and wrote
// (the Memory access tab, access_tab.hpp). A host step's run (its own
// run() makes the launches) is timed as a whole: its wall time stands where a
// kernel's time would, and its Timeline tab shows what ran on the GPUs.
//
// The badge and the summary stay above the tabs, so the verdict is visible
// whichever tab is open and however far it has scrolled.
#include "palette.hpp"
#include "panels/access_tab.hpp"
#include "panels/inside_views.hpp"
#include "panels/panels.hpp"
#include "panels/results_views.hpp"
#include "widgets/draw_text.hpp"

#include "app_state.hpp"
#include "host_step_text.hpp"
#include "ui_text.hpp"
#include "widgets/plot.hpp"

#include <algorithm>
#include <iterator>
#include <cmath>
#include <limits>
#include <string>

namespace wb::app {
namespace {

const ImVec4 kGood = palette::kPass.vec4();
const ImVec4 kBad = palette::kFail.vec4();
const ImVec4 kNeutral = palette::kCaution.vec4();

// The whole buffer's shape, also for one drawn from a sample.
std::string shape_text(const HostBuffer& b) {
    const std::vector<std::size_t>& shape = b.full_shape();
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "] " + std::string(dtype_name(b.type));
}

std::string index_text(const std::vector<std::size_t>& index) {
    std::string s = "[";
    for (std::size_t i = 0; i < index.size(); ++i) s += (i ? ", " : "") + std::to_string(index[i]);
    return s + "]";
}

void badge(const char* text, const ImVec4& colour) {
    ImGui::PushStyleColor(ImGuiCol_Button, colour);
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, colour);
    ImGui::PushStyleColor(ImGuiCol_ButtonActive, colour);
    ImGui::PushStyleColor(ImGuiCol_Text, palette::kOnBadge.vec4());
    ImGui::SmallButton(text);
    ImGui::PopStyleColor(4);
}

void draw_comparisons(const RunResult& r, const std::string& lang) {
    for (const CompareResult& c : r.comparisons) {
        ImGui::TextColored(c.passed ? kGood : kBad, "%s: %s", c.buffer.c_str(),
                           tr(c.passed ? UiText::ResOk : UiText::ResWrong, lang));
        ImGui::Text(tr(UiText::ResErrors, lang), c.max_abs_error, c.max_rel_error, c.atol, c.rtol);
        if (c.mismatches > 0) {
            ImGui::Text(tr(UiText::ResMismatched, lang), c.mismatches, c.count, c.unwritten, c.nondeterministic);
            for (const Mismatch& m : c.first)
                ImGui::BulletText(tr(UiText::ResGot, lang), index_text(m.index).c_str(), m.got, m.want,
                                  render({{mismatch_reason_key(m.reason), {}}}, lang).c_str());
        }
        if (!c.note.empty()) ImGui::TextColored(kBad, "%s", c.note_in(lang).c_str());
    }
    // The step's access limits (lesson checks.access), each with its verdict and what was found.
    ImGui::PushTextWrapPos(0.0f);
    for (const AccessLimitResult& l : r.access_limits) {
        const bool passed = l.verdict == LimitVerdict::Passed;
        const ImVec4& colour = passed ? kGood : l.verdict == LimitVerdict::Failed ? kBad : kNeutral;
        ImGui::TextColored(colour, "%s: %s", l.limit_in(lang).c_str(), tr(passed ? UiText::ResOk : UiText::ResWrong, lang));
        ImGui::TextUnformatted(l.said_in(lang).c_str());
        if (l.verdict == LimitVerdict::Failed && !l.why.empty())
            ImGui::TextUnformatted(render({{"access.limit.why_line", {}}, lesson_text(l.why)}, lang).c_str());
    }
    ImGui::PopTextWrapPos();
}

// The lesson's baseline: its time, that its output checked out, and how close the kernel came.
void draw_baseline(const RunResult& r, const std::string& lang) {
    const BaselineResult& b = *r.baseline;
    char line[512];
    ImGui::PushTextWrapPos(0.0f);
    if (!b.ran) {
        std::snprintf(line, sizeof line, tr(UiText::BaselineNotRun, lang), b.label.c_str(), b.note_in(lang).c_str());
        ImGui::TextColored(kNeutral, "%s", line);
    } else if (b.checked && !b.passed) {
        std::snprintf(line, sizeof line, tr(UiText::BaselineCheckFailed, lang), b.label.c_str(),
                      b.note.empty() && b.check ? b.check->note_in(lang).c_str() : b.note_in(lang).c_str());
        ImGui::TextColored(kBad, "%s", line);
    } else {
        if (b.kind == "memcpy")
            std::snprintf(line, sizeof line, tr(UiText::BaselineLineCopy, lang), b.label.c_str(), b.median_ms, b.samples,
                          b.gbs(), 100 * r.baseline_fraction());
        else
            std::snprintf(line, sizeof line, tr(UiText::BaselineLine, lang), b.label.c_str(), b.median_ms, b.samples,
                          b.gbs(), b.gflops(), 100 * r.baseline_fraction());
        ImGui::TextUnformatted(line);
        // Timed, but its output compared with nothing: the note says why ("the step compares no buffer 'C32'").
        if (!b.checked) ImGui::TextColored(kNeutral, "%s", b.note_in(lang).c_str());
    }
    ImGui::PopTextWrapPos();
}

// A host step: run()'s wall time where a kernel's time would be, and no
// GB/s against the GPU's ceilings (run() moves more than the lesson's bytes).
void draw_host_timings(AppState& state, const RunResult& r) {
    const std::string& lang = state.lang;
    char line[256];
    if (r.wall_time && !r.wall_time->samples_ms.empty()) {
        const Timing& t = *r.wall_time;
        std::snprintf(line, sizeof line, tr(UiText::ResWallMedian, lang), t.median_ms, t.min_ms, t.max_ms, t.samples_ms.size());
        ImGui::TextUnformatted(line);
        record_drawn_text(state.drawn.texts, line);
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("%s", render(timing_method(t), lang).c_str());
        ImGui::PopTextWrapPos();
    } else if (r.timeline && r.timeline->wall_us > 0) {
        std::snprintf(line, sizeof line, tr(UiText::ResWallOnce, lang), r.timeline->wall_us / 1e3);
        ImGui::TextUnformatted(line);
        record_drawn_text(state.drawn.texts, line);
    }
    if (r.cpu_ms >= 0) {
        ImGui::Text(tr(UiText::ResCpuReference, lang), r.cpu_ms);
        ImGui::SameLine();
        ImGui::TextDisabled("(%s)", render(r.cpu_method(), lang).c_str());
    }
    if (r.wall_time && r.wall_time->median_ms > 0 && r.cpu_ms > 0)
        ImGui::Text(tr(UiText::ResSpeedUp, lang), r.cpu_ms / r.wall_time->median_ms);
    draw_target_line(state, r);
}

void draw_timings(const RunResult& r, const std::string& lang) {
    if (r.gpu_time) {
        const Timing& t = *r.gpu_time;
        ImGui::Text(tr(UiText::ResGpuMedian, lang), t.median_ms, t.min_ms, t.max_ms, t.samples_ms.size(),
                    t.near_resolution ? tr(UiText::ResNearResolution, lang) : "");
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("%s", render(timing_method(t), lang).c_str());
        ImGui::PopTextWrapPos();
    } else if (r.emulated && r.emulated_ms >= 0) {
        ImGui::TextColored(kNeutral, tr(UiText::ResEmulated, lang), r.emulated_ms);
    } else if (r.status == RunStatus::CompileOnly) {
        ImGui::TextColored(kNeutral, "%s", tr(UiText::ResGpuNotRunCompileOnly, lang));
    }
    if (r.cpu_ms >= 0) {
        ImGui::Text(tr(UiText::ResCpuReference, lang), r.cpu_ms);
        ImGui::SameLine();
        ImGui::TextDisabled("(%s)", render(r.cpu_method(), lang).c_str());
    }
    if (r.gpu_time && r.gpu_time->median_ms > 0 && r.cpu_ms > 0)
        ImGui::Text(tr(UiText::ResSpeedUp, lang), r.cpu_ms / r.gpu_time->median_ms);
    if (r.gbs() > 0) ImGui::Text("%.1f GB/s", r.gbs());
    if (r.bandwidth_fraction() > 0)
        ImGui::TextDisabled(tr(UiText::CeilingCopy, lang), 100 * r.bandwidth_fraction(), r.ceilings->copy_gbs);
    if (r.gflops() > 0) ImGui::Text("%.1f GFLOP/s", r.gflops());
    if (r.compute_fraction() > 0)
        ImGui::TextDisabled(tr(UiText::CeilingFp32, lang), 100 * r.compute_fraction(), r.ceilings->fp32_gflops);
    if (r.baseline) draw_baseline(r, lang);
    if (r.ceilings) {
        ImGui::TextDisabled(tr(UiText::CeilingsMeasured, lang), r.ceilings->device.c_str(), r.ceilings->copy_gbs,
                            r.ceilings->fp32_gflops, r.ceilings->fp16_gflops, r.ceilings->measured_at.c_str());
        if (r.ceilings->sgemm_gflops > 0) ImGui::TextDisabled(tr(UiText::CeilingSgemm, lang), r.ceilings->sgemm_gflops);
        else ImGui::TextDisabled("%s", r.ceilings->sgemm_note.c_str());
    }
}

// The figures a student looks for first, in one line under the verdict and
// outside the scrolling area: the GPU time and its throughput, or why there
// is none, and the CPU reference's time.
std::string summary_line(const RunResult& r, const std::string& lang) {
    char buf[256];
    std::string s;
    if (r.host_step) {
        s = wall_time_text(r, lang);
    } else if (r.gpu_time) {
        std::snprintf(buf, sizeof buf, "GPU %.4f ms", r.gpu_time->median_ms);
        s = buf;
        if (r.gbs() > 0) s += (std::snprintf(buf, sizeof buf, "  %.1f GB/s", r.gbs()), buf);
        if (r.bandwidth_fraction() > 0)
            s += (std::snprintf(buf, sizeof buf, tr(UiText::CeilingShort, lang), 100 * r.bandwidth_fraction()), buf);
        if (r.gflops() > 0) s += (std::snprintf(buf, sizeof buf, "  %.1f GFLOP/s", r.gflops()), buf);
        if (r.compute_fraction() > 0)
            s += (std::snprintf(buf, sizeof buf, tr(UiText::CeilingShortFp32, lang), 100 * r.compute_fraction()), buf);
        if (r.baseline_fraction() > 0) {
            const BaselineResult& b = *r.baseline;
            if (b.kind == "memcpy")
                std::snprintf(buf, sizeof buf, tr(UiText::BaselineShortCopy, lang), b.label.c_str(), b.gbs(),
                              100 * r.baseline_fraction());
            else
                std::snprintf(buf, sizeof buf, tr(UiText::BaselineShort, lang), b.label.c_str(), b.median_ms,
                              100 * r.baseline_fraction());
            s += buf;
        }
    } else if (r.emulated && r.emulated_ms >= 0) {
        s = (std::snprintf(buf, sizeof buf, tr(UiText::ResEmulated, lang), r.emulated_ms), buf);
    } else if (r.status == RunStatus::CompileOnly) {
        s = tr(UiText::ResGpuNotRun, lang);
    }
    if (r.cpu_ms >= 0) {
        if (!s.empty()) s += "  |  ";
        s += (std::snprintf(buf, sizeof buf, tr(UiText::ResCpuReference, lang), r.cpu_ms), buf);
        if (r.gpu_time && r.gpu_time->median_ms > 0)
            s += (std::snprintf(buf, sizeof buf, tr(UiText::ResGpuFaster, lang), r.cpu_ms / r.gpu_time->median_ms), buf);
    }
    return s;
}

// This step's runs of the latest run's case (times of different cases do not
// compare): GPU median per run, or the CPU reference's time when no run of
// that case reached a GPU. Failed runs are ringed in red.
void draw_history(const AppState& state, const RunResult& latest) {
    const std::vector<RunRecord>& runs = step_history(state);
    // A host step's runs are timed by run()'s wall time, a kernel step's by the kernel's.
    const auto timed_ms = [&](const RunRecord& run) { return latest.host_step ? run.wall_ms : run.gpu_ms; };
    bool any_gpu = false;
    for (const RunRecord& run : runs)
        if (run.case_name == latest.case_name && timed_ms(run) >= 0) any_gpu = true;
    std::vector<float> ms;
    std::vector<bool> passed;
    for (const RunRecord& run : runs) {
        if (run.case_name != latest.case_name) continue;
        const double t = any_gpu ? timed_ms(run) : run.cpu_ms;
        ms.push_back(t >= 0 ? static_cast<float>(t) : std::numeric_limits<float>::quiet_NaN());
        passed.push_back(run.passed());
    }
    const std::string& lang = state.lang;
    ImGui::TextDisabled(tr(UiText::HistoryCaption, lang), ms.size(), latest.case_name.c_str(), runs.size(),
                        any_gpu         ? ""
                        : latest.device ? tr(UiText::HistoryNoneTimed, lang)
                                        : tr(UiText::HistoryNoGpu, lang));
    const UiText label = !any_gpu            ? UiText::ResCpuReferenceLabel
                         : latest.host_step ? UiText::HistoryWallTime
                                            : UiText::HistoryGpuTime;
    draw_history_plot("history", ms, {0.0f, 110.0f}, &passed, tr(label, lang));
}

// Expanded, the panel grows up over the instructions and launch settings and
// left over half the editor: room for pictures side by side.
PanelRect expanded_rect(const PanelRect& rect) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const float left = std::max(viewport->WorkPos.x, rect.pos.x - rect.size.x);
    const float top = viewport->WorkPos.y;
    return {ImVec2(left, top), ImVec2(rect.pos.x + rect.size.x - left, rect.pos.y + rect.size.y - top)};
}

void expand_button(AppState& state) {
    const std::string label =
        std::string(tr(state.results_expanded ? UiText::Shrink : UiText::Enlarge, state.lang)) + "###expand";
    ImGui::SameLine(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x -
                                                         ImGui::CalcTextSize(label.c_str(), nullptr, true).x -
                                                         2 * ImGui::GetStyle().FramePadding.x));
    if (ImGui::SmallButton(label.c_str())) set_results_expanded(state, !state.results_expanded);
}

// While a run works: a spinner, its phase, the seconds so far, and Stop,
// where the student is looking for the result. Returns true when drawn.
bool draw_progress(AppState& state) {
    // A compile that builds the step's CPU reference ahead of the first Run
    // takes as long as g++ does: the Run pressed meanwhile waits for it, so it shows.
    const bool building_reference = state.job_text == "compiling" && state.job_phase == "reference";
    if (state.job_text != "running" && !building_reference) return false;
    const std::string& p = state.job_phase;
    // Under compute-sanitizer the kernel's part is the memory or race check.
    const UiText on_gpu = state.job_sanitizer == SanitizerTool::Memcheck    ? UiText::PhaseMemcheck
                          : state.job_sanitizer == SanitizerTool::Racecheck ? UiText::PhaseRacecheck
                                                                            : UiText::PhaseGpu;
    const UiText phase = p == "compile"     ? UiText::PhaseCompile
                         : p == "reference" ? UiText::PhaseReference
                         : p == "gpu"       ? on_gpu
                         : p == "timing" || p == "baseline" ? UiText::PhaseTiming
                         : p == "ceilings"  ? UiText::PhaseCeilings
                         : p == "emulate"   ? UiText::PhaseEmulate
                                            : UiText::PhaseStarting;
    char line[256];
    std::snprintf(line, sizeof line, "%c %s  %.1f s", spinner_char(state.now), tr(phase, state.lang), state.job_seconds);
    ImGui::TextColored(kNeutral, "%s", line);
    record_drawn_text(state.drawn.texts, line);
    ImGui::SameLine();
    if (ImGui::SmallButton(tr(UiText::Stop, state.lang))) state.requests.stop = true;
    return true;
}

void draw_buffers(const RunResult& r, const std::string& lang) {
    const char* input = tr(UiText::BufInput, lang);
    for (const HostBuffer& b : r.inputs) ImGui::BulletText("%s (%s) %s", b.name.c_str(), input, shape_text(b).c_str());
    for (const HostBuffer& b : r.gpu_outputs) ImGui::BulletText("%s (GPU) %s", b.name.c_str(), shape_text(b).c_str());
    for (const HostBuffer& b : r.cpu_outputs) ImGui::BulletText("%s (CPU) %s", b.name.c_str(), shape_text(b).c_str());
}

// One tab per view of the run; each scrolls on its own, under the verdict
// and the summary line, which never scroll away. A tab the code or a script
// asked for (show_results_tab) is selected once; after that the student's
// clicks decide, and state.results_tab follows them.
void draw_tabs(AppState& state, const RunResult* run) {
    if (!ImGui::BeginTabBar("##results_tabs")) return;
    const std::string& lang = state.lang;
    const std::pair<ResultsTab, UiText> tabs[] = {{ResultsTab::Views, UiText::ResViews},
                                                  {ResultsTab::Timeline, UiText::ResTimeline},
                                                  {ResultsTab::Check, UiText::ResCheck},
                                                  {ResultsTab::Timings, UiText::ResTimings},
                                                  {ResultsTab::Roofline, UiText::ResRoofline},
                                                  {ResultsTab::Buffers, UiText::Buffers},
                                                  {ResultsTab::Access, UiText::ResAccess},
                                                  {ResultsTab::Sweep, UiText::ResSweep},
                                                  {ResultsTab::Resources, UiText::ResResources},
                                                  {ResultsTab::Ptx, UiText::Count_},
                                                  {ResultsTab::Sass, UiText::Count_}};
    static_assert(std::size(tabs) == static_cast<std::size_t>(ResultsTab::Count_), "a tab for each ResultsTab");
    for (const auto& [tab, label_id] : tabs) {
        // What ran on the GPUs is known only for a host step's run().
        if (tab == ResultsTab::Timeline && !(run && run->host_step)) continue;
        // PTX and SASS are names, the same in every language.
        const std::string shown = label_id != UiText::Count_ ? tr(label_id, lang) : tab == ResultsTab::Ptx ? "PTX" : "SASS";
        const std::string label = shown + "###" + results_tab_name(tab);
        const ImGuiTabItemFlags flags =
            state.results_tab_requested && state.results_tab == tab ? ImGuiTabItemFlags_SetSelected : 0;
        if (!ImGui::BeginTabItem(label.c_str(), nullptr, flags)) continue;
        if (!state.results_tab_requested) state.results_tab = tab;
        record_drawn_text(state.drawn.texts, std::string("results tab ") + results_tab_name(tab));
        const bool of_run = tab == ResultsTab::Views || tab == ResultsTab::Timeline || tab == ResultsTab::Check ||
                            tab == ResultsTab::Timings || tab == ResultsTab::Roofline || tab == ResultsTab::Buffers ||
                            tab == ResultsTab::Access;
        if (ImGui::BeginChild("##tab_scroll", ImVec2(0, 0), false)) {
            if (of_run && !run) ImGui::TextDisabled("%s", tr(UiText::NoRunYet, lang));
            else switch (tab) {
            case ResultsTab::Views: draw_results_views(state); break;
            case ResultsTab::Timeline: draw_timeline_tab(state); break;
            case ResultsTab::Check:
                if (run->comparisons.empty()) ImGui::TextDisabled("%s", tr(UiText::NothingCompared, lang));
                draw_comparisons(*run, lang);
                break;
            case ResultsTab::Timings:
                if (run->host_step) draw_host_timings(state, *run);
                else draw_timings(*run, lang);
                draw_history(state, *run);
                break;
            case ResultsTab::Roofline: draw_roofline_tab(state); break;
            case ResultsTab::Buffers: draw_buffers(*run, lang); break;
            case ResultsTab::Access: draw_access_tab(state); break;
            case ResultsTab::Sweep: draw_sweep_tab(state); break;
            case ResultsTab::Resources: draw_resources_tab(state); break;
            case ResultsTab::Ptx: draw_ptx_tab(state); break;
            case ResultsTab::Sass: draw_sass_tab(state); break;
            case ResultsTab::Count_: break;
            }
        }
        ImGui::EndChild();
        ImGui::EndTabItem();
    }
    state.results_tab_requested = false;
    ImGui::EndTabBar();
}

void draw_contents(AppState& state) {
    ImGui::TextDisabled("%s", tr(UiText::Results, state.lang));
    if (draw_progress(state)) {
        ImGui::SameLine();
        ImGui::TextDisabled("|");
        ImGui::SameLine();
    }
    if (!state.last_run) {
        const char* none = tr(state.run_stopped ? UiText::StoppedNoResult : UiText::NoRunYet, state.lang);
        ImGui::TextUnformatted(none);
        record_drawn_text(state.drawn.texts, none);
        draw_tabs(state, nullptr);  // Sweep, Resources, PTX and SASS need no run
        return;
    }
    // The last "Check all cases" of this step: how many passed, and which failed.
    const CheckAllState& ca = state.check_all;
    if (!ca.running() && !ca.results.empty() && ca.key == step_key(state)) {
        int passed = 0;
        std::string failed;
        for (std::size_t i = 0; i < ca.results.size(); ++i) {
            const bool ok = ca.results[i] && ca.results[i]->status == RunStatus::Passed;
            passed += ok;
            if (!ok)
                failed += (failed.empty() ? "  " : ", ") + ca.cases[i] + ": " +
                          (ca.results[i] ? run_status_label(ca.results[i]->status, state.lang) : std::string("-"));
        }
        char line[256];
        std::snprintf(line, sizeof line, tr(UiText::AllCasesSummary, state.lang), passed,
                      static_cast<int>(ca.results.size()));
        const std::string text = line + failed;
        ImGui::TextColored(passed == static_cast<int>(ca.results.size()) ? kGood : kBad, "%s", text.c_str());
        record_drawn_text(state.drawn.texts, text);
    }
    if (state.run_stopped) {
        ImGui::TextDisabled("%s", tr(UiText::StoppedShowingLast, state.lang));
        record_drawn_text(state.drawn.texts, tr(UiText::StoppedShowingLast, state.lang));
    }
    const RunResult& r = *state.last_run;
    // While a new run works, the verdict beside its progress is the last run's: greyed, and said.
    const bool stale = state.job_text == "running";
    const ImVec4 colour = stale                                ? kNeutral
                          : r.status == RunStatus::Passed        ? kGood
                          : r.status == RunStatus::CompileOnly ? kNeutral
                                                               : kBad;
    ImGui::SameLine();
    badge(run_status_label(r.status, state.lang).c_str(), colour);
    record_drawn_text(state.drawn.texts, std::string("verdict ") + run_status_name(r.status));
    if (stale) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", tr(UiText::LastRunLabel, state.lang));
        record_drawn_text(state.drawn.texts, tr(UiText::LastRunLabel, state.lang));
    }
    ImGui::SameLine();
    ImGui::Text(tr(UiText::ResCase, state.lang), r.case_name.c_str());
    expand_button(state);
    if (const std::string summary = summary_line(r, state.lang); !summary.empty()) {
        ImGui::PushTextWrapPos(0.0f);  // on a narrow panel the figures wrap rather than run off
        ImGui::TextUnformatted(summary.c_str());
        ImGui::PopTextWrapPos();
        record_drawn_text(state.drawn.texts, summary);
    }
    ImGui::PushTextWrapPos(0.0f);
    const std::string message = r.message_in(state.lang);
    ImGui::TextUnformatted(message.c_str());
    record_drawn_text(state.drawn.texts, message);
    if (!r.hint.empty()) ImGui::TextDisabled("%s", r.hint_in(state.lang).c_str());
    ImGui::PopTextWrapPos();
    // What a popped-out window must not cover (instructions.cpp).
    const ImVec2 top = ImGui::GetWindowPos();
    state.verdict_band = {top, ImVec2(ImGui::GetWindowWidth(), ImGui::GetCursorScreenPos().y - top.y)};
    state.drawn.verdict = state.verdict_band;

    draw_tabs(state, &r);
}

}  // namespace

void draw_results_panel(AppState& state, const PanelRect& rect) {
    // Nothing to enlarge before a run: the other panels keep their room.
    if (state.results_expanded && state.last_run) {
        // A window of its own rather than the fixed panel: fixed panels never
        // come to the front, and this one must lie over its neighbours.
        const PanelRect big = expanded_rect(rect);
        ImGui::SetNextWindowPos(big.pos);
        ImGui::SetNextWindowSize(big.size);
        constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize |
                                            ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                                            ImGuiWindowFlags_NoSavedSettings;
        ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 1.0f);
        ImVec4 background = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
        background.w = 1.0f;  // the themes' slight transparency would show the text underneath
        ImGui::PushStyleColor(ImGuiCol_WindowBg, background);
        if (ImGui::Begin("###results_expanded", nullptr, kFlags)) {
            text_record_resume();
            if (ImGui::IsWindowAppearing()) ImGui::SetWindowFocus();
            draw_contents(state);
        }
        ImGui::End();
        ImGui::PopStyleColor();
        ImGui::PopStyleVar();
        return;
    }
    PanelWindow window("###results", rect);
    if (window.visible()) draw_contents(state);
}

}  // namespace wb::app
