// runtime/measure/roofline.hpp — where one run sits on the roofline.
//
// The one definition of a run's roofline point: its arithmetic intensity
// (the lesson's FLOPs over its bytes), the GFLOP/s it reached (FLOPs over the
// median GPU time), and, with the GPU's measured ceilings, which roof bounds
// it and how close it came. The GUI's Roofline tab, the CLI's "roofline" line
// and the JSON report all read it from here and only draw or print it; the
// roofs themselves are wb::Roofline over the Ceilings (measure/ceilings.hpp).
#pragma once

namespace wb {

struct Ceilings;
struct RunResult;

struct RooflinePoint {
    double intensity = 0;       // FLOP per byte moved; 0 unless bytes and FLOPs are both given
    double gflops = 0;          // reached; 0 without FLOPs or a median GPU time
    bool has_roof = false;      // ceilings were measured (copy bandwidth and FP32 peak both known)
    double ridge = 0;           // the intensity where the bandwidth roof meets the compute roof
    bool memory_bound = false;  // left of the ridge: bound by memory, else by arithmetic
    double attainable = 0;      // GFLOP/s the roof allows at `intensity`
    double roof_fraction = 0;   // gflops / attainable; 0 when either is unknown

    // Something to place on the chart: both coordinates known.
    bool placed() const { return intensity > 0 && gflops > 0; }
};

// From the result's fields: the lesson's bytes and FLOPs for the run's params,
// the median GPU time in ms (<= 0: not timed), and the ceilings (null: none).
RooflinePoint roofline_point(double bytes, double flops, double median_ms, const Ceilings* ceilings);
// The same from a RunResult (bytes, flops, gpu_time's median, ceilings).
RooflinePoint roofline_point(const RunResult& result);

}  // namespace wb
