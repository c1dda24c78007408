// runtime/measure/timing.cpp — how a timing was measured, in words (timing.hpp).
#include "measure/timing.hpp"

#include <cstdio>
#include <string_view>

namespace wb {

Sentence timing_method(const Timing& t) {
    char noise[32];
    std::snprintf(noise, sizeof noise, "%.2f", 100.0 * t.noise);
    const std::string stop = t.stopped_by == "noise"    ? "@timing.stop.noise"
                             : t.stopped_by == "budget" ? "@timing.stop.budget"
                                                        : "@timing.stop.samples";
    Sentence s{{"timing.samples", {std::to_string(t.samples_ms.size()), noise, stop}}};
    if (t.traced) s.push_back({"timing.traced", {}});
    else if (t.batch > 1 && t.flush_subtracted) s.push_back({"timing.flushed_batch", {std::to_string(t.batch)}});
    else if (t.batch > 1) s.push_back({"timing.batched", {std::to_string(t.batch)}});
    else s.push_back({t.l2_flushed ? "timing.cold_l2" : "timing.warm_l2", {}});
    if (!t.not_batched.empty()) s.push_back({"timing.not_batched", {}});
    if (t.waited_ms > 0) {
        char ms[32];
        std::snprintf(ms, sizeof ms, "%.0f", t.waited_ms);
        s.push_back({"timing.waited", {ms}});
    }
    if (t.busy_processes > 0) s.push_back({"timing.busy", {std::to_string(t.busy_processes)}});
    if (!t.throttled_before.empty()) s.push_back({"timing.throttled_before", {}});
    if (t.sm_clock_mhz > 0) s.push_back({"timing.clock", {std::to_string(t.sm_clock_mhz), std::to_string(t.max_sm_clock_mhz)}});
    if (!t.throttled.empty()) {
        // One phrase per cause: "; the GPU was slowed (power cap, thermal (hardware)): ...".
        std::string_view ids = t.throttled;
        for (bool first = true; !ids.empty(); first = false) {
            const size_t comma = ids.find(',');
            const std::string id(ids.substr(0, comma));
            s.push_back({first ? "timing.throttled" : "timing.throttled.more", {"@timing.slow." + id}});
            ids = comma == std::string_view::npos ? std::string_view{} : ids.substr(comma + 1);
        }
        s.push_back({"timing.throttled.end", {}});
    }
    return s;
}

}  // namespace wb
