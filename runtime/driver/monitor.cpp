// runtime/driver/monitor.cpp — GpuMonitor (monitor.hpp).
#include "driver/monitor.hpp"

#include <chrono>

namespace wb {

GpuMonitor::GpuMonitor(std::string pci_bus_id, double period_s, std::size_t keep)
    : pci_(std::move(pci_bus_id)), period_(period_s), keep_(keep), thread_([this] { loop(); }) {}

GpuMonitor::~GpuMonitor() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        quit_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

std::vector<GpuSample> GpuMonitor::samples() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return {samples_.begin(), samples_.end()};
}

std::string GpuMonitor::unavailable() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return unavailable_;
}

void GpuMonitor::loop() {
    const Nvml* nvml = Nvml::get();
    std::unique_lock<std::mutex> lock(mutex_);
    if (!nvml) {
        unavailable_ = Nvml::unavailable_reason();
        return;
    }
    if (pci_.empty()) {
        unavailable_ = "there is no GPU to watch";
        return;
    }
    while (!quit_) {
        lock.unlock();
        const auto s = nvml->sample(pci_);
        lock.lock();
        if (s) {
            unavailable_.clear();
            samples_.push_back(*s);
            if (samples_.size() > keep_) samples_.pop_front();
        } else {
            unavailable_ = "NVML does not know the GPU at PCI " + pci_;
        }
        cv_.wait_for(lock, std::chrono::duration<double>(period_), [this] { return quit_; });
    }
}

}  // namespace wb
