// runtime/driver/nvml.hpp — NVML, loaded at run time (libnvidia-ml.so.1), for
// what the CUDA driver does not say: the SM clock now and why it is lower
// than its maximum (power, thermal or hardware slowdown).
//
// Like the driver, NVML is dlopen'ed: a machine without it (this one, CI)
// gets nullptr from get() and a reason, never a link error. Only the few
// entry points used are declared here, with NVML's stable C types.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace wb {

// The slowdowns among nvmlClocksEventReason* bits, as ids ("power_cap",
// "hw_slowdown", "sw_thermal", "hw_thermal", "power_brake"); each id is also
// a phrase, "timing.slow.<id>". Idling or an application clock is no slowdown.
std::vector<std::string> slowdown_ids(unsigned long long reasons);
// The same, comma-separated ("power_cap,hw_thermal"); empty when none.
std::string slowdown_ids_text(unsigned long long reasons);

struct GpuClocks {
    unsigned sm_mhz = 0;
    unsigned max_sm_mhz = 0;
    unsigned long long reasons = 0;   // nvmlClocksEventReason* bits
    // Power, thermal or hardware slowdown: times taken now are slower than the GPU's best.
    bool throttled() const;
    // The slowdown's causes: slowdown_ids_text(reasons).
    std::string throttle_ids() const { return slowdown_ids_text(reasons); }
};

// One reading of a GPU, as pyNVML's notebook takes it. A field NVML would not
// give is left at -1.
struct GpuSample {
    double t = 0;                  // seconds, steady clock
    double mem_used = -1, mem_total = -1;   // bytes
    int util_gpu = -1, util_mem = -1;       // percent of the last sample period
    int sm_mhz = -1, max_sm_mhz = -1;
    int temp_c = -1;
    double power_w = -1, power_limit_w = -1;
    unsigned long long reasons = 0;          // as GpuClocks::reasons
};

class Nvml {
public:
    // The process-wide NVML, initialised on first call; nullptr when it cannot be loaded.
    static const Nvml* get();
    static std::string unavailable_reason();

    // The GPU with this PCI bus id (cuDeviceGetPCIBusId's form); nullopt when NVML does not know it.
    std::optional<GpuClocks> clocks(const std::string& pci_bus_id) const;
    // Memory, utilisation, clock, temperature and power now; nullopt when NVML does not know the GPU.
    std::optional<GpuSample> sample(const std::string& pci_bus_id) const;
    // How many processes other than this one ran kernels on the GPU in the last
    // `window_s` seconds (NVML's per-process SM samples). nullopt when NVML
    // cannot tell: no such call, or this process is not among the GPU's
    // compute processes (NVML sees another PID namespace than ours).
    std::optional<int> other_busy_processes(const std::string& pci_bus_id, double window_s) const;

private:
    Nvml() = default;
    void* lib_ = nullptr;
    int (*device_by_pci_)(const char*, void**) = nullptr;
    int (*clock_info_)(void*, int, unsigned*) = nullptr;
    int (*max_clock_info_)(void*, int, unsigned*) = nullptr;
    int (*reasons_)(void*, unsigned long long*) = nullptr;
    int (*memory_)(void*, unsigned long long*) = nullptr;     // nvmlMemory_t: total, free, used
    int (*utilization_)(void*, unsigned*) = nullptr;          // nvmlUtilization_t: gpu, memory
    int (*temperature_)(void*, int, unsigned*) = nullptr;
    int (*power_)(void*, unsigned*) = nullptr;                // milliwatts
    int (*power_limit_)(void*, unsigned*) = nullptr;          // milliwatts
    int (*compute_processes_)(void*, unsigned*, void*) = nullptr;  // nvmlProcessInfo_t[]
    int (*process_utilization_)(void*, void*, unsigned*, unsigned long long) = nullptr;  // nvmlProcessUtilizationSample_t[]
};

}  // namespace wb
