// runtime/measure/host_timing.cpp — how a host step's run() is timed (host_timing.hpp).
#include "measure/host_timing.hpp"

#include "measure/stopping.hpp"

namespace wb {

HostMeasured measure_host_step(const std::function<HostCall(ActivityTracer*)>& call, ActivityTracer* tracer, int warmup,
                               int repeat) {
    HostMeasured m;
    auto one = [&](ActivityTracer* t) -> std::optional<HostCall> {
        HostCall c = call(t);
        if (c.code != 0 || !c.error.empty() || !c.cuda_error.empty()) {
            m.failed = std::move(c);
            return std::nullopt;
        }
        return c;
    };
    m.wall.warmup = warmup;
    for (int i = 0; i < warmup; ++i)
        if (!one(nullptr)) return m;
    const bool sampled = take_samples(m.wall, repeat, [&]() -> std::optional<double> {
        const auto c = one(nullptr);
        return c ? std::optional<double>(c->wall_ms) : std::nullopt;
    });
    if (!sampled || !tracer) return m;
    std::vector<double> copies, kernels;
    for (int k = 0; k < 3; ++k) {
        auto c = one(tracer);
        if (!c) return m;
        if (!c->trace) break;
        copies.push_back(c->trace->timeline.copy_us() / 1e3);
        kernels.push_back(c->trace->timeline.kernel_us() / 1e3);
        m.timeline = c->trace->timeline;
    }
    if (!copies.empty()) {
        m.copies_ms = median_of(copies);
        m.kernels_ms = median_of(kernels);
    }
    return m;
}

}  // namespace wb
