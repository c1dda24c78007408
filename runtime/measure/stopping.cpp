// runtime/measure/stopping.cpp — the stopping rule (stopping.hpp).
#include "measure/stopping.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace wb {

double timing_noise(std::vector<double> v) {
    if (v.size() < 4) return 1.0;
    std::sort(v.begin(), v.end());
    const double q1 = v[v.size() / 4], q3 = v[(3 * v.size()) / 4], mid = v[v.size() / 2];
    return mid > 0 ? (q3 - q1) / 1.349 / mid : 1.0;
}

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Samples into `t` until the noise target, the budget or the cap, at least
// `repeat`, then their median, min and max. `one` takes a sample, or gives
// none when the run failed: then sampling stops and this returns false.
bool take_samples(Timing& t, int repeat, const std::function<std::optional<double>()>& one) {
    const auto began = std::chrono::steady_clock::now();
    t.samples_ms.clear();
    for (;;) {
        const std::optional<double> sample = one();
        if (!sample) return false;
        t.samples_ms.push_back(*sample);
        const int n = static_cast<int>(t.samples_ms.size());
        if (n < repeat) continue;
        t.noise = timing_noise(t.samples_ms);
        const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        // The median is known to within the target when spread / sqrt(n) is.
        if (t.noise / std::sqrt(double(n)) <= kTimingNoiseTarget) { t.stopped_by = "noise"; break; }
        if (spent >= kTimingBudgetS) { t.stopped_by = "budget"; break; }
        if (n >= kTimingMaxSamples) { t.stopped_by = "samples"; break; }
    }
    t.median_ms = median_of(t.samples_ms);
    t.min_ms = *std::min_element(t.samples_ms.begin(), t.samples_ms.end());
    t.max_ms = *std::max_element(t.samples_ms.begin(), t.samples_ms.end());
    return true;
}

}  // namespace wb
