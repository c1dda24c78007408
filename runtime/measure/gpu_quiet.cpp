// runtime/measure/gpu_quiet.cpp — waiting for an idle, unthrottled GPU (gpu_quiet.hpp).
#include "measure/gpu_quiet.hpp"

#include "driver/nvml.hpp"

#include <chrono>
#include <thread>

namespace wb {

GpuProbe nvml_probe(const std::string& pci_bus_id) {
    return [pci_bus_id]() -> std::optional<GpuState> {
        const Nvml* nvml = Nvml::get();
        if (!nvml || pci_bus_id.empty()) return std::nullopt;
        const auto clocks = nvml->clocks(pci_bus_id);
        if (!clocks) return std::nullopt;
        GpuState s;
        s.throttled = clocks->throttled() ? clocks->throttle_ids() : "";
        // Half a second: NVML samples each process's SM use a few times a second.
        s.busy_processes = nvml->other_busy_processes(pci_bus_id, 0.5).value_or(0);
        return s;
    };
}

void wait_for_quiet_gpu(Timing& t, const GpuProbe& probe, double max_wait_s, const std::function<void(double)>& sleep) {
    constexpr double kStepS = 0.05;
    double waited = 0;
    std::optional<GpuState> state = probe();
    while (state && !state->quiet() && waited < max_wait_s) {
        if (sleep) sleep(kStepS);
        else std::this_thread::sleep_for(std::chrono::duration<double>(kStepS));
        waited += kStepS;
        state = probe();
    }
    t.waited_ms = waited * 1e3;
    t.busy_processes = state ? state->busy_processes : 0;
    t.throttled_before = state ? state->throttled : "";
}

}  // namespace wb
