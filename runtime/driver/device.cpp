// runtime/driver/device.cpp — device queries and the launch-limit check.
#include "driver/device.hpp"

#include "core/error.hpp"
#include "driver/cuda_driver.hpp"

#include <cstdlib>

namespace wb {

double DeviceInfo::peak_bandwidth_gbs() const {
    if (memory_clock_khz <= 0 || memory_bus_bits <= 0) return 0;
    return 2.0 * memory_clock_khz * 1e3 * (memory_bus_bits / 8.0) / 1e9;  // double data rate
}

DeviceLimits limits_for_arch(int cc) {
    DeviceLimits l;
    // Per-block opt-in shared memory and per-SM limits from the CUDA C++
    // Programming Guide's table of compute capabilities.
    if (cc >= 120) { l.shared_per_block_optin = 99 * 1024; l.shared_per_sm = 100 * 1024; l.max_threads_per_sm = 1536; }
    else if (cc >= 100) { l.shared_per_block_optin = 227 * 1024; l.shared_per_sm = 228 * 1024; }
    else if (cc >= 90) { l.shared_per_block_optin = 227 * 1024; l.shared_per_sm = 228 * 1024; }
    else if (cc == 89 || cc == 86 || cc == 87) { l.shared_per_block_optin = 99 * 1024; l.shared_per_sm = 100 * 1024; l.max_threads_per_sm = 1536; }
    else if (cc >= 80) { l.shared_per_block_optin = 163 * 1024; l.shared_per_sm = 164 * 1024; }
    else if (cc >= 75) { l.shared_per_block_optin = 64 * 1024; l.shared_per_sm = 64 * 1024; l.max_threads_per_sm = 1024; }
    else if (cc >= 70) { l.shared_per_block_optin = 96 * 1024; l.shared_per_sm = 96 * 1024; }
    l.where = "@limits.target_arch|" + std::to_string(cc);
    return l;
}

int arch_number(const std::string& arch) {
    auto pos = arch.find('_');
    if (pos == std::string::npos) return 0;
    std::string digits;
    for (char c : arch.substr(pos + 1)) {
        if (c < '0' || c > '9') break;
        digits += c;
    }
    return digits.empty() ? 0 : std::atoi(digits.c_str());
}

std::vector<DeviceInfo> query_devices() {
    const Driver* d = Driver::get();
    if (!d) throw Error(ErrorKind::NoDevice, Driver::unavailable_reason()).with_said(Driver::unavailable_said());
    const auto& cu = d->api();
    int count = 0;
    d->check(cu.cuDeviceGetCount(&count), "cuDeviceGetCount");
    if (count == 0) throw Error::said(ErrorKind::NoDevice, {{"device.none", {}}});
    std::vector<DeviceInfo> out;
    for (int i = 0; i < count; ++i) {
        CUdevice dev;
        d->check(cu.cuDeviceGet(&dev, i), "cuDeviceGet");
        DeviceInfo info;
        info.ordinal = i;
        info.driver_version = d->version();
        char name[256] = {};
        d->check(cu.cuDeviceGetName(name, sizeof name, dev), "cuDeviceGetName");
        info.name = name;
        auto attr = [&](CUdevice_attribute a) {
            int v = 0;
            d->check(cu.cuDeviceGetAttribute(&v, a, dev), "cuDeviceGetAttribute");
            return v;
        };
        info.cc_major = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
        info.cc_minor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
        info.sm_count = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
        info.clock_khz = attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
        info.memory_clock_khz = attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
        info.memory_bus_bits = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
        info.l2_bytes = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
        char bus[64] = {};
        if (cu.cuDeviceGetPCIBusId(bus, sizeof bus, dev) == CUDA_SUCCESS) info.pci_bus_id = bus;
        std::size_t total = 0;
        d->check(cu.cuDeviceTotalMem(&total, dev), "cuDeviceTotalMem");
        info.total_memory = total;
        DeviceLimits& l = info.limits;
        l.max_threads_per_block = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
        l.max_block = {attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X), attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y),
                       attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)};
        l.max_grid = {attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X), attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y),
                      attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)};
        l.shared_per_block = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
        l.shared_per_block_optin = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
        l.shared_per_sm = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
        l.regs_per_block = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
        l.regs_per_sm = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
        l.max_threads_per_sm = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
        l.warp_size = attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
        out.push_back(std::move(info));
    }
    return out;
}

static std::string kib(long long bytes) {
    if (bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
    return std::to_string(bytes) + " bytes";
}

std::optional<LaunchRefusal> check_launch(const LaunchDims& dims, const DeviceLimits& limits,
                                          const KernelResources& res, bool* needs_optin) {
    static const char* kAxis[3] = {"x", "y", "z"};
    if (needs_optin) *needs_optin = false;
    for (int i = 0; i < 3; ++i) {
        if (dims.block[i] < 1)
            return LaunchRefusal{std::string("block.") + kAxis[i],
                                 {{"refuse.block_min", {std::string("block.") + kAxis[i], std::to_string(dims.block[i])}}}};
        if (dims.grid[i] < 1)
            return LaunchRefusal{std::string("grid.") + kAxis[i],
                                 {{"refuse.grid_min", {std::string("grid.") + kAxis[i], std::to_string(dims.grid[i])}}}};
    }
    for (int i = 0; i < 3; ++i)
        if (dims.block[i] > limits.max_block[i])
            return LaunchRefusal{std::string("block.") + kAxis[i],
                                 {{"refuse.block_axis", {std::string("block.") + kAxis[i], std::to_string(dims.block[i]),
                                                         std::to_string(limits.max_block[i]), limits.where}}}};
    long long threads = dims.threads_per_block();
    if (threads > limits.max_threads_per_block)
        return LaunchRefusal{"threads_per_block",
                             {{"refuse.threads", {std::to_string(dims.block[0]), std::to_string(dims.block[1]),
                                                  std::to_string(dims.block[2]), std::to_string(threads),
                                                  std::to_string(limits.max_threads_per_block), limits.where}}}};
    for (int i = 0; i < 3; ++i)
        if (dims.grid[i] > limits.max_grid[i])
            return LaunchRefusal{std::string("grid.") + kAxis[i],
                                 {{"refuse.grid_axis", {std::string("grid.") + kAxis[i], std::to_string(dims.grid[i]),
                                                        std::to_string(limits.max_grid[i]), limits.where}}}};
    if (dims.shared_bytes < 0)
        return LaunchRefusal{"shared_memory", {{"refuse.shared_negative", {}}}};
    long long shared = dims.shared_bytes + res.static_shared;
    if (shared > limits.shared_per_block_optin)
        return LaunchRefusal{"shared_memory", {{"refuse.shared", {kib(shared), kib(res.static_shared), kib(dims.shared_bytes),
                                                                 kib(limits.shared_per_block_optin), limits.where}}}};
    if (shared > limits.shared_per_block && needs_optin) *needs_optin = true;
    if (res.registers > 0) {
        long long regs = (long long)res.registers * threads;
        if (regs > limits.regs_per_block)
            return LaunchRefusal{"registers", {{"refuse.registers", {std::to_string(res.registers), std::to_string(threads),
                                                                     std::to_string(regs), std::to_string(limits.regs_per_block),
                                                                     limits.where}}}};
    }
    if (res.max_threads_per_block > 0 && threads > res.max_threads_per_block)
        return LaunchRefusal{"threads_per_block", {{"refuse.kernel_threads", {std::to_string(res.max_threads_per_block),
                                                                             std::to_string(threads)}}}};
    return std::nullopt;
}

std::optional<LaunchRefusal> check_kernel_args(const std::string& entry, const std::vector<std::size_t>& params,
                                               const std::vector<std::pair<std::string, std::size_t>>& args) {
    auto list = [&] {
        std::string s;
        for (const auto& [name, size] : args) s += (s.empty() ? "" : ", ") + name;
        return s;
    };
    if (params.size() != args.size())
        return LaunchRefusal{"arguments", {{params.size() == 1 ? "refuse.arg_count_one" : "refuse.arg_count",
                                            {entry, std::to_string(params.size()), std::to_string(args.size()), list()}}}};
    for (std::size_t i = 0; i < params.size(); ++i)
        if (params[i] != args[i].second)
            return LaunchRefusal{"arguments", {{"refuse.arg_size", {entry, std::to_string(i + 1), std::to_string(params[i]),
                                                                    args[i].first, std::to_string(args[i].second)}}}};
    return std::nullopt;
}

}  // namespace wb
