// app/widgets/plot.hpp — small line plots for vectors (GPU vs CPU) and run-time history.
//
// ImPlot is not packaged in Debian, and the results panel needs little: one
// or a few series over their index, axes with min/max labels, and a hover
// crosshair reading index and value. Long series are drawn one pixel column
// at a time (min-max per column), so a million points cost what the box's
// width costs. The range and hit-test helpers are pure and tested headless.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace wb::app {

struct PlotSeries {
    const float* ys = nullptr;
    int n = 0;
    ImU32 colour = 0;             // 0: a default per series position
    const char* label = nullptr;  // shown in the legend and the hover text
};

struct PlotOptions {
    const char* label = nullptr;    // name of the main series ("GPU")
    ImU32 colour = 0;               // 0: blue (overlays default to orange, green, ...)
    std::vector<PlotSeries> extra;  // drawn over the main series, e.g. {cpu, n, 0, "CPU"}
    double x_scale = 1.0;           // hover shows index * x_scale (a sampled series passes its stride)
    const char* x_label = nullptr;  // nullptr: the widgets' word for "index" (widget_text.hpp)
    const char* value_format = "%.4g";
    const char* unit = nullptr;     // appended to values ("ms")
    bool markers = false;           // a dot per point (when points are sparse enough)
    bool fixed_range = false;       // use y_min/y_max instead of the data's range
    float y_min = 0, y_max = 1;
    bool include_zero = false;      // stretch the range to contain 0 (bar-like reading of times)
};

struct PlotRange {
    float lo = 0, hi = 1;
};

// Range of all finite values of the series, padded 5% (and made non-empty).
PlotRange plot_range(const std::vector<PlotSeries>& series, bool include_zero = false);
// The point index under screen x in a plot area [x0, x0 + width) of n points; -1 outside.
int plot_index_at(float mouse_x, float x0, float width, int n);

void draw_line_plot(const char* id, const float* ys, int n, ImVec2 size, const PlotOptions& options);

// Run history of one step: milliseconds per run, oldest first, with a marker
// per run (red where `passed` says the run failed) and the latest value labelled.
// `label` names the series ("GPU time"; "CPU reference" when no GPU ran).
void draw_history_plot(const char* id, const std::vector<float>& ms_per_run, ImVec2 size,
                       const std::vector<bool>* passed = nullptr, const char* label = "GPU time");

}  // namespace wb::app
