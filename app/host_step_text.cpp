// app/host_step_text.cpp — a host step's results in words (host_step_text.hpp).
#include "host_step_text.hpp"

#include "ui_text.hpp"
#include "widgets/timeline_view.hpp"

#include <cstdio>

namespace wb::app {
namespace {

// One of the table's printf formats, filled in.
template <class... Args>
std::string fill(UiText format, const std::string& lang, Args... args) {
    char buf[512];
    std::snprintf(buf, sizeof buf, tr(format, lang), args...);
    return buf;
}

// A short figure ("kernels 4.631 ms") wraps as one word: its blanks become
// no-break spaces, so a narrow panel breaks the line between figures only.
std::string together(std::string s) {
    std::string out;
    for (const char c : s) out += c == ' ' ? std::string("\u00a0") : std::string(1, c);
    return out;
}

std::string ms(double milliseconds) { return format_duration_us(milliseconds * 1e3); }

UiText measure_words(TargetMeasure m) {
    switch (m) {
    case TargetMeasure::Wall: return UiText::TargetWall;
    case TargetMeasure::Copies: return UiText::TargetCopies;
    case TargetMeasure::Kernels: return UiText::TargetKernels;
    }
    return UiText::TargetWall;
}

}  // namespace

std::string wall_time_text(const RunResult& r, const std::string& lang) {
    if (r.wall_time && !r.wall_time->samples_ms.empty()) {
        const Timing& t = *r.wall_time;
        return fill(UiText::TimelineWallTimed, lang, ms(t.median_ms).c_str(), t.samples_ms.size(), ms(t.min_ms).c_str(),
                    ms(t.max_ms).c_str(), 100 * t.noise);
    }
    if (r.timeline && r.timeline->wall_us > 0)
        return fill(UiText::TimelineWallOnce, lang, format_duration_us(r.timeline->wall_us).c_str());
    return {};
}

std::string timeline_summary_text(const RunResult& r, const std::string& lang) {
    std::string s = wall_time_text(r, lang);
    if (!r.timeline || !r.timeline->unavailable.empty() || r.timeline->activities.empty()) return s;
    const Timeline& t = *r.timeline;
    auto add = [&](const std::string& part) { s += (s.empty() ? "" : "  |  ") + together(part); };
    const double kernels = t.kernel_us(), copies = t.copy_us();
    if (kernels > 0) add(fill(UiText::TimelineKernels, lang, format_duration_us(kernels).c_str()));
    if (copies > 0)
        add(fill(UiText::TimelineCopies, lang, format_duration_us(copies).c_str(), format_bytes(t.copy_bytes()).c_str()));
    if (kernels > 0 && copies > 0)
        add(fill(UiText::TimelineOverlap, lang, format_duration_us(t.copy_kernel_overlap_us()).c_str()));
    add(fill(UiText::TimelineDevices, lang, t.devices()));
    return s;
}

std::string target_text(const TargetResult& t, const std::string& other, const std::string& lang) {
    const char* measure = tr(measure_words(t.measure), lang);
    if (!t.applies()) {
        const std::string why = t.not_applicable.empty() ? std::string("\u2014") : render(t.not_applicable, lang);
        return fill(UiText::TargetNotApplicable, lang, t.at_most, other.c_str(), measure, why.c_str());
    }
    return fill(UiText::TargetLine, lang, t.at_most, other.c_str(), measure, ms(t.this_ms).c_str(), ms(t.that_ms).c_str(),
                t.ratio()) +
           tr(t.met() ? UiText::TargetMet : UiText::TargetNotMet, lang);
}

}  // namespace wb::app
