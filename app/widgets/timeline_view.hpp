// app/widgets/timeline_view.hpp — what ran on the GPUs during a host step's
// run(), drawn as Nsight Systems draws it: one lane per (device, stream), a
// time axis, a bar per kernel, copy and memset, and a line where run() returned.
//
// The view draws a wb::Timeline (runtime/host/timeline.hpp) straight into the
// window's draw list (ImPlot is not packaged in Debian). The wheel zooms around
// the pointer, a drag pans, a double-click fits the whole run; the visible
// range lives in TimelineViewState, which the caller keeps between frames.
// Geometry (lanes, time <-> x), ticks, zoom, pan and hit-testing are pure
// functions below, so they are tested without a window.
#pragma once

#include "host/timeline.hpp"

#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

namespace wb::app {

// The caller's state for one view: the visible range, in microseconds from
// run()'s start. An empty range (t1 <= t0) fits the whole run at the next draw.
struct TimeRange {
    double t0 = 0, t1 = 1;
    double span() const { return t1 - t0; }
};

struct TimelineViewState {
    double t0 = 0, t1 = 0;
    std::uint64_t shown = 0;  // the caller's key for what is shown (a run serial): reset the state when it changes
    bool fitted() const { return t1 > t0; }
    void show(const TimeRange& r) {
        t0 = r.t0;
        t1 = r.t1;
    }
};

// The whole run: from run()'s start (or the first activity, if earlier) to
// its return or the last activity's end, whichever is later, with a margin.
TimeRange timeline_fit(const Timeline& t);
// Zooms by `factor` (< 1: in) keeping `anchor_us` where it is on screen. The
// span stays between kTimelineMinSpanUs and the whole run's (`fit`).
void timeline_zoom(TimelineViewState& v, double anchor_us, double factor, const TimeRange& fit);
// Moves the range by `dt_us` (> 0: later), keeping its centre inside `fit`.
void timeline_pan(TimelineViewState& v, double dt_us, const TimeRange& fit);
constexpr double kTimelineMinSpanUs = 0.1;

// Where everything is, for one frame. Lanes are Timeline::lanes(): by device,
// then streams in the order they first did something.
struct TimelineGeometry {
    ImVec2 pos{0, 0};       // top-left of the widget
    float width = 0;        // of the widget, label column included
    float label_w = 0;      // the lane labels' column on the left
    float axis_h = 0;       // the time axis above the lanes
    float lane_h = 0;
    double t0 = 0, t1 = 1;  // the visible range
    std::vector<TimelineLane> lanes;

    float plot_x0() const { return pos.x + label_w; }
    float plot_x1() const { return pos.x + width; }
    float lanes_y0() const { return pos.y + axis_h; }
    float height() const { return axis_h + lane_h * static_cast<float>(lanes.size()); }
    float x_of(double t_us) const;
    double t_of(float x) const;
    float lane_top(int lane) const { return lanes_y0() + lane_h * static_cast<float>(lane); }
    int lane_at(float y) const;                         // -1 above or below the lanes
    int lane_of(int device, std::uint32_t stream) const;  // -1 when no lane has it
};

TimelineGeometry timeline_geometry(const Timeline& t, const TimelineViewState& v, ImVec2 pos, float width,
                                   float label_w, float axis_h, float lane_h);

// The activity under point `p` (an index into t.activities), or -1. A bar
// narrower than a few pixels is hit within `slop` pixels of it; where bars
// overlap on one lane, the one drawn last (the latest to start) wins.
int timeline_hit(const Timeline& t, const TimelineGeometry& g, ImVec2 p, float slop = 2.0f);

// Ticks at 1, 2 or 5 times a power of ten, at most `max_ticks` of them, each
// labelled in the unit that suits the step: "0", "500 µs", "1.5 ms", "2 s".
struct TimelineTick {
    double t_us = 0;
    std::string label;
};
std::vector<TimelineTick> timeline_ticks(double t0_us, double t1_us, int max_ticks);

// "850 ns" is never said: "0.85 µs", "456.7 µs", "3.104 ms", "12.50 s".
std::string format_duration_us(double us);
// "512 B", "4 KiB", "64 MiB", "1.5 GiB".
std::string format_bytes(std::uint64_t bytes);

// "GPU 0 · stream 13", in the window's language.
std::string timeline_lane_label(const TimelineLane& lane);
// What a bar says when it fits: the kernel's name, "HtoD 64 MiB", "memset 4 MiB".
std::string timeline_bar_label(const Activity& a);
// Instead of lanes: why there is no timeline (Timeline::unavailable), or that
// run() caused no GPU work; "" when there are lanes to draw.
std::string timeline_message(const Timeline& t);

// Fill colour of an activity's bar: kernels in blues (a shade per name), HtoD
// green, DtoH red, DtoD and PtoP amber, HtoH grey, memsets violet.
ImU32 timeline_colour(const Activity& a);

// What one draw_timeline call drew, for the caller's record of the frame.
struct TimelineDrawn {
    int lanes = 0;         // lanes on screen
    int bars = 0;          // bars drawn (inside the visible range)
    int labelled = 0;      // bars with their label inside
    int hovered = -1;      // the activity under the pointer, -1 when none
    bool message = false;  // timeline_message() was drawn instead of lanes
    TimelineGeometry geometry;  // where it drew, with the range after this frame's zoom or pan
};

// Draws the lanes, the axis and the bars at the cursor, `width` wide (<= 0:
// the available width), as tall as its lanes need, then a legend line.
TimelineDrawn draw_timeline(const char* id, const Timeline& t, TimelineViewState& v, float width = 0);

}  // namespace wb::app
