// runtime/driver/nvml.cpp — NVML through dlopen (nvml.hpp).
#include "driver/nvml.hpp"
#include "driver/driver_library.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <mutex>

namespace wb {
namespace {

constexpr int kNvmlSuccess = 0;
constexpr int kNvmlErrorNotFound = 6;  // NVML_ERROR_NOT_FOUND: no sample in the window
constexpr int kNvmlClockSm = 1;  // NVML_CLOCK_SM
constexpr int kNvmlTemperatureGpu = 0;  // NVML_TEMPERATURE_GPU
// nvmlClocksEventReason* (nvml.h): the slowdowns, not idling or an application clock.
constexpr unsigned long long kSwPowerCap = 0x4, kHwSlowdown = 0x8, kSwThermal = 0x20, kHwThermal = 0x40,
                             kHwPowerBrake = 0x80;

std::string g_reason;

}  // namespace

bool GpuClocks::throttled() const {
    return (reasons & (kSwPowerCap | kHwSlowdown | kSwThermal | kHwThermal | kHwPowerBrake)) != 0;
}

std::vector<std::string> slowdown_ids(unsigned long long reasons) {
    std::vector<std::string> ids;
    for (const auto& [bit, id] : {std::pair{kSwPowerCap, "power_cap"}, std::pair{kHwSlowdown, "hw_slowdown"},
                                  std::pair{kSwThermal, "sw_thermal"}, std::pair{kHwThermal, "hw_thermal"},
                                  std::pair{kHwPowerBrake, "power_brake"}})
        if (reasons & bit) ids.push_back(id);
    return ids;
}

std::string slowdown_ids_text(unsigned long long reasons) {
    std::string s;
    for (const std::string& id : slowdown_ids(reasons)) s += (s.empty() ? "" : ",") + id;
    return s;
}

const Nvml* Nvml::get() {
    static std::once_flag once;
    static Nvml* nvml = nullptr;
    std::call_once(once, [] {
        if (const char* off = std::getenv("WB_DISABLE_CUDA_DRIVER"); off && *off && *off != '0') {
            g_reason = "NVML is off with the CUDA driver (WB_DISABLE_CUDA_DRIVER is set)";
            return;
        }
        void* lib = open_driver_library("libnvidia-ml.so.1").handle;
        if (!lib) {
            g_reason = "NVML (libnvidia-ml.so.1) could not be loaded";
            return;
        }
        auto sym = [&](const char* name) { return dlsym(lib, name); };
        auto init = reinterpret_cast<int (*)()>(sym("nvmlInit_v2"));
        auto* n = new Nvml;
        n->lib_ = lib;
        n->device_by_pci_ = reinterpret_cast<int (*)(const char*, void**)>(sym("nvmlDeviceGetHandleByPciBusId_v2"));
        n->clock_info_ = reinterpret_cast<int (*)(void*, int, unsigned*)>(sym("nvmlDeviceGetClockInfo"));
        n->max_clock_info_ = reinterpret_cast<int (*)(void*, int, unsigned*)>(sym("nvmlDeviceGetMaxClockInfo"));
        n->reasons_ = reinterpret_cast<int (*)(void*, unsigned long long*)>(sym("nvmlDeviceGetCurrentClocksEventReasons"));
        if (!n->reasons_)
            n->reasons_ = reinterpret_cast<int (*)(void*, unsigned long long*)>(sym("nvmlDeviceGetCurrentClocksThrottleReasons"));
        n->memory_ = reinterpret_cast<int (*)(void*, unsigned long long*)>(sym("nvmlDeviceGetMemoryInfo"));
        n->utilization_ = reinterpret_cast<int (*)(void*, unsigned*)>(sym("nvmlDeviceGetUtilizationRates"));
        n->temperature_ = reinterpret_cast<int (*)(void*, int, unsigned*)>(sym("nvmlDeviceGetTemperature"));
        n->power_ = reinterpret_cast<int (*)(void*, unsigned*)>(sym("nvmlDeviceGetPowerUsage"));
        n->power_limit_ = reinterpret_cast<int (*)(void*, unsigned*)>(sym("nvmlDeviceGetEnforcedPowerLimit"));
        n->compute_processes_ = reinterpret_cast<int (*)(void*, unsigned*, void*)>(sym("nvmlDeviceGetComputeRunningProcesses_v3"));
        n->process_utilization_ =
            reinterpret_cast<int (*)(void*, void*, unsigned*, unsigned long long)>(sym("nvmlDeviceGetProcessUtilization"));
        if (!init || !n->device_by_pci_ || !n->clock_info_ || !n->max_clock_info_ || init() != kNvmlSuccess) {
            g_reason = "NVML was loaded but did not start";
            delete n;
            return;
        }
        nvml = n;  // lives as long as the process, like the driver
    });
    return nvml;
}

std::string Nvml::unavailable_reason() {
    get();
    return g_reason;
}

std::optional<GpuClocks> Nvml::clocks(const std::string& pci_bus_id) const {
    void* device = nullptr;
    if (device_by_pci_(pci_bus_id.c_str(), &device) != kNvmlSuccess) return std::nullopt;
    GpuClocks c;
    if (clock_info_(device, kNvmlClockSm, &c.sm_mhz) != kNvmlSuccess) return std::nullopt;
    if (max_clock_info_(device, kNvmlClockSm, &c.max_sm_mhz) != kNvmlSuccess) return std::nullopt;
    if (reasons_) reasons_(device, &c.reasons);
    return c;
}

std::optional<GpuSample> Nvml::sample(const std::string& pci_bus_id) const {
    void* device = nullptr;
    if (device_by_pci_(pci_bus_id.c_str(), &device) != kNvmlSuccess) return std::nullopt;
    GpuSample g;
    g.t = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    unsigned long long mem[3] = {};
    if (memory_ && memory_(device, mem) == kNvmlSuccess) {
        g.mem_total = double(mem[0]);
        g.mem_used = double(mem[2]);
    }
    unsigned util[2] = {};
    if (utilization_ && utilization_(device, util) == kNvmlSuccess) {
        g.util_gpu = int(util[0]);
        g.util_mem = int(util[1]);
    }
    unsigned v = 0;
    if (clock_info_(device, kNvmlClockSm, &v) == kNvmlSuccess) g.sm_mhz = int(v);
    if (max_clock_info_(device, kNvmlClockSm, &v) == kNvmlSuccess) g.max_sm_mhz = int(v);
    if (temperature_ && temperature_(device, kNvmlTemperatureGpu, &v) == kNvmlSuccess) g.temp_c = int(v);
    if (power_ && power_(device, &v) == kNvmlSuccess) g.power_w = v / 1000.0;
    if (power_limit_ && power_limit_(device, &v) == kNvmlSuccess) g.power_limit_w = v / 1000.0;
    if (reasons_) reasons_(device, &g.reasons);
    return g;
}

std::optional<int> Nvml::other_busy_processes(const std::string& pci_bus_id, double window_s) const {
    // nvml.h's nvmlProcessInfo_t (v2/v3) and nvmlProcessUtilizationSample_t.
    struct ProcessInfo {
        unsigned pid;
        unsigned long long used_gpu_memory;
        unsigned gpu_instance_id, compute_instance_id;
    };
    struct UtilSample {
        unsigned pid;
        unsigned long long time_stamp;
        unsigned sm_util, mem_util, enc_util, dec_util;
    };
    if (!compute_processes_ || !process_utilization_) return std::nullopt;
    void* device = nullptr;
    if (device_by_pci_(pci_bus_id.c_str(), &device) != kNvmlSuccess) return std::nullopt;
    std::vector<ProcessInfo> procs(64);
    unsigned count = unsigned(procs.size());
    if (compute_processes_(device, &count, procs.data()) != kNvmlSuccess) return std::nullopt;
    const unsigned self = unsigned(getpid());
    bool found_self = false;
    for (unsigned i = 0; i < count && i < procs.size(); ++i) found_self = found_self || procs[i].pid == self;
    if (!found_self) return std::nullopt;
    const auto now_us = std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::system_clock::now().time_since_epoch()).count();
    const unsigned long long since = static_cast<unsigned long long>(now_us - static_cast<long long>(window_s * 1e6));
    std::vector<UtilSample> samples(256);
    unsigned n = unsigned(samples.size());
    const int rc = process_utilization_(device, samples.data(), &n, since);
    if (rc == kNvmlErrorNotFound) return 0;  // no process ran anything in the window
    if (rc != kNvmlSuccess) return std::nullopt;
    std::vector<unsigned> busy;
    for (unsigned i = 0; i < n && i < samples.size(); ++i)
        if (samples[i].pid != self && samples[i].sm_util > 0 &&
            std::find(busy.begin(), busy.end(), samples[i].pid) == busy.end())
            busy.push_back(samples[i].pid);
    return int(busy.size());
}

}  // namespace wb
