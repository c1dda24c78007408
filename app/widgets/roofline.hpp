// app/widgets/roofline.hpp — a roofline chart: log-log, arithmetic intensity
// (FLOP/byte) across, GFLOP/s up; a bandwidth roof rising to a compute roof,
// an optional reference line (cuBLAS SGEMM), and points for runs, the latest
// filled. Hovering a point says its run, intensity and GFLOP/s.
//
// The widget knows no runs or ceilings: the caller gives roofs and points in
// plain numbers. roofline_axes, the range shown, is pure and tested headless.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace wb::app {

struct RooflineRoofs {
    double bandwidth_gbs = 0;   // the slope: GFLOP/s = GB/s x FLOP/byte
    double peak_gflops = 0;     // the flat roof
    std::string bandwidth_label, peak_label;
    double reference_gflops = 0;  // 0: none; a dashed line (cuBLAS SGEMM)
    std::string reference_label;
};

// One run drawn on the chart; the caller takes its place from wb::roofline_point.
struct RooflineMark {
    double intensity = 0;   // FLOP/byte
    double gflops = 0;
    bool latest = false;    // filled and larger
    bool passed = true;     // ringed in red when false
    std::string label;      // the hover text
};

// log10 bounds of the chart: every point and the ridge inside, with a decade
// or so of margin, and whole decades at the ends.
struct LogAxes {
    double x0 = -2, x1 = 3, y0 = 0, y1 = 5;
};
LogAxes roofline_axes(const RooflineRoofs& roofs, const std::vector<RooflineMark>& points);

void draw_roofline(const char* id, const RooflineRoofs& roofs, const std::vector<RooflineMark>& points, ImVec2 size);

}  // namespace wb::app
