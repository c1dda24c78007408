// runtime/measure/graph_replay.cpp — samples of CUDA Graph replays (graph_replay.hpp).
#include "measure/graph_replay.hpp"

#include "measure/stopping.hpp"

#include <optional>

namespace wb {

void take_graph_samples(const Driver& d, const GpuEvent& start, const GpuEvent& stop, Timing& into, int repeat, int batch,
                        const std::function<void(CUstream)>& launch, const std::function<void(CUstream)>& alone) {
    const auto& cu = d.api();
    GpuStream stream(d);
    auto capture = [&](const std::function<void(CUstream)>& what) {
        return [&] {
            for (int k = 0; k < batch; ++k) what(stream.get());
        };
    };
    GpuGraph with(d, stream.get(), capture(launch));
    with.launch(stream.get());  // warm-up replay
    std::optional<GpuGraph> apart;
    if (alone) {
        apart.emplace(d, stream.get(), capture(alone));
        apart->launch(stream.get());
    }
    d.check(cu.cuStreamSynchronize(stream.get()), "cuStreamSynchronize");
    auto replay_ms = [&](const GpuGraph& g) -> double {
        d.check(cu.cuEventRecord(start.get(), stream.get()), "cuEventRecord");
        g.launch(stream.get());
        d.check(cu.cuEventRecord(stop.get(), stream.get()), "cuEventRecord");
        d.check(cu.cuEventSynchronize(stop.get()), "cuEventSynchronize");
        float ms = 0;
        d.check(cu.cuEventElapsedTime(&ms, start.get(), stop.get()), "cuEventElapsedTime");
        return ms;
    };
    take_samples(into, repeat, [&]() -> std::optional<double> {
        const double both = replay_ms(with);
        return (apart ? both - replay_ms(*apart) : both) / batch;
    });
}

}  // namespace wb
