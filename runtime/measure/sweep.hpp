// runtime/measure/sweep.hpp — one step run across block sizes, or across a
// param's values, every point checked and timed like any run.
//
// The plan (which points, which are left out and why) and the summary (which
// point is fastest among those that passed) are decided here; the CLI's
// `sweep` command and the GUI's Sweep tab only run the points through their
// backend, one RunRequest each, and draw or print what comes back.
#pragma once

#include "pipeline/run.hpp"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wb {

struct SweepAxis {
    enum class Kind { Block, Param };
    Kind kind = Kind::Block;
    std::string param;           // Kind::Param: its name
    std::vector<double> values;  // Kind::Param: the values, in the order they run
};

// A param sweep as the CLI and the GUI take it:
//   "N=1024:1048576:x2"   from 1024 to 1048576, times 2 each step
//   "N=256:4096:+256"     from 256 to 4096, plus 256 each step
//   "N=1000,5000,20000"   these values
// Throws wb::Error (Usage) that says what is wrong with the text.
SweepAxis parse_param_sweep(const std::string& text);

// A sweep has at most this many points: each one is a full checked, timed run.
constexpr int kMaxSweepPoints = 64;

struct SweepPoint {
    std::string label;                                // "256", "32x8", "N=4096"
    double x = 0;                                     // threads per block, or the param's value
    std::optional<std::array<long long, 3>> block;    // Kind::Block
    std::map<std::string, double> params;             // Kind::Param: {name, value}
};

struct SweepPlan {
    SweepAxis axis;
    std::string x_label;                  // "threads per block", or the param's name
    std::vector<SweepPoint> points;
    std::vector<std::string> left_out;    // "2048: over the 1024 threads a block may have"
};

// The points for `step`'s tuned launch. A block sweep keeps the shape of the
// lesson's block: a 1-D block (y and z are 1) tries 32 to `max_threads` in
// warp multiples (32, 64, 96, 128, 192, 256, 384, 512, 768, 1024); a 2-D one
// tries x in {8, 16, 32, 64} by y in {2, ..., 32}, 64 to `max_threads` threads.
// A param sweep leaves out values outside the param's bounds, and rounds an
// integer param's values (dropping repeats). Throws wb::Error (Usage) for a
// param the step does not have, or for more than kMaxSweepPoints points.
SweepPlan plan_sweep(const Step& step, const SweepAxis& axis, int max_threads = 1024);

// `base` with the point applied: its block on the tuned launch (the grid
// follows from the lesson's expression), or its param values.
RunRequest sweep_request(const RunRequest& base, const Step& step, const SweepPoint& point);

struct SweepSummary {
    int passed = 0, failed = 0;
    int compile_only = 0;    // compiled and checked, but no GPU ran them
    int fastest = -1;        // index of the fastest point that passed and was timed; -1 when none
    // One line: "10 points, 9 passed, 1 failed; fastest 256 at 0.0712 ms (2350.1 GB/s)".
    std::string text;
};
// `results[i]` is point i's run; null for a point not run (yet).
SweepSummary summarize_sweep(const SweepPlan& plan, const std::vector<const RunResult*>& results);
SweepSummary summarize_sweep(const SweepPlan& plan, const std::vector<RunResult>& results);

}  // namespace wb
