// runtime/driver/monitor.hpp — the tutorials' pyNVML notebook as a class: a
// thread that reads one GPU through NVML every `period` seconds and keeps the
// latest readings, for the GUI's GPU monitor and `cuda-workbook-cli device --monitor`.
//
// NVML is read from this process, not the worker's: it only observes the GPU
// (it takes no CUDA context), so a faulting kernel in the worker cannot stop
// the monitor, and the monitor shows the worker's kernels as they run.
#pragma once

#include "driver/nvml.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace wb {

class GpuMonitor {
public:
    // Starts sampling the GPU with this PCI bus id (DeviceInfo::pci_bus_id).
    explicit GpuMonitor(std::string pci_bus_id, double period_s = 0.5, std::size_t keep = 240);
    ~GpuMonitor();
    GpuMonitor(const GpuMonitor&) = delete;
    GpuMonitor& operator=(const GpuMonitor&) = delete;

    // The readings so far, oldest first, at most `keep`.
    std::vector<GpuSample> samples() const;
    // Why there are none: NVML is missing, or does not know this GPU; empty while it samples.
    std::string unavailable() const;
    double period() const { return period_; }

private:
    void loop();

    const std::string pci_;
    const double period_;
    const std::size_t keep_;
    mutable std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<GpuSample> samples_;
    std::string unavailable_;
    bool quit_ = false;
    std::thread thread_;  // last: started after every member it uses exists
};

}  // namespace wb
