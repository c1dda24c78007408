// runtime/measure/graph_replay.hpp — samples of one CUDA Graph replay of many
// launches: for a kernel so short that an event pair's microseconds would
// swamp it, or one whose launch latency would add a few percent.
#pragma once

#include "driver/gpu.hpp"
#include "measure/timing.hpp"

#include <functional>

namespace wb {

// Samples into `into` (the stopping rule, at least `repeat`) of one replay of a
// graph holding `batch` copies of `launch`, each divided by `batch`. With
// `alone`, a graph of `batch` copies of it is replayed after each sample and
// its time is taken off (the L2 flushes before cold launches, timed apart
// from them). The stream and graphs are owned here and freed on any error.
void take_graph_samples(const Driver& d, const GpuEvent& start, const GpuEvent& stop, Timing& into, int repeat, int batch,
                        const std::function<void(CUstream)>& launch, const std::function<void(CUstream)>& alone = {});

}  // namespace wb
