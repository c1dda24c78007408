// runtime/measure/stopping.hpp — when to stop taking samples, and what they say.
//
// Samples are taken until the median is known to kTimingNoiseTarget (the
// samples' robust spread over the square root of their number), or
// kTimingBudgetS is spent, or kTimingMaxSamples are taken; never fewer than
// the lesson's `repeat`. nvbench's stopping criterion has the same shape.
#pragma once

#include "measure/timing.hpp"

#include <functional>
#include <optional>
#include <vector>

namespace wb {

// The samples' spread, robust to the odd slow one (a context switch, a
// clock change): the interquartile range as a standard deviation
// (IQR / 1.349), over the median. 1 for fewer than 4 samples.
double timing_noise(std::vector<double> samples);

double median_of(std::vector<double> samples);

// Samples into `t` until the noise target, the budget or the cap, at least
// `repeat`, then their median, min and max. `one` takes a sample, or gives
// none when the run failed: then sampling stops and this returns false.
bool take_samples(Timing& t, int repeat, const std::function<std::optional<double>()>& one);

}  // namespace wb
