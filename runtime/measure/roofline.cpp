// runtime/measure/roofline.cpp — a run's roofline point (roofline.hpp).
#include "measure/roofline.hpp"

#include "measure/ceilings.hpp"
#include "pipeline/run.hpp"

namespace wb {

RooflinePoint roofline_point(double bytes, double flops, double median_ms, const Ceilings* ceilings) {
    RooflinePoint p;
    if (bytes > 0 && flops > 0) p.intensity = flops / bytes;
    if (flops > 0 && median_ms > 0) p.gflops = flops / median_ms / 1e6;  // FLOP/ms -> GFLOP/s
    if (!ceilings) return p;
    const Roofline roof = Roofline::of(*ceilings);
    if (!roof.valid()) return p;
    p.has_roof = true;
    p.ridge = roof.ridge();
    if (p.intensity <= 0) return p;
    p.memory_bound = roof.memory_bound(p.intensity);
    p.attainable = roof.attainable(p.intensity);
    p.roof_fraction = roof.fraction(p.intensity, p.gflops);
    return p;
}

RooflinePoint roofline_point(const RunResult& r) {
    return roofline_point(r.bytes, r.flops, r.gpu_time ? r.gpu_time->median_ms : 0, r.ceilings ? &*r.ceilings : nullptr);
}

}  // namespace wb
