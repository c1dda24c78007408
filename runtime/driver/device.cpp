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
    l.where = "for sm_" + std::to_string(cc) + ", the target architecture (no GPU here)";
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
                                 std::string("block.") + kAxis[i] + " is " + std::to_string(dims.block[i]) +
                                     "; every block dimension must be at least 1"};
        if (dims.grid[i] < 1)
            return LaunchRefusal{std::string("grid.") + kAxis[i],
                                 std::string("grid.") + kAxis[i] + " is " + std::to_string(dims.grid[i]) +
                                     "; every grid dimension must be at least 1"};
    }
    for (int i = 0; i < 3; ++i)
        if (dims.block[i] > limits.max_block[i])
            return LaunchRefusal{std::string("block.") + kAxis[i],
                                 std::string("block.") + kAxis[i] + " is " + std::to_string(dims.block[i]) +
                                     ", over the limit of " + std::to_string(limits.max_block[i]) +
                                     " threads in that dimension " + limits.where};
    long long threads = dims.threads_per_block();
    if (threads > limits.max_threads_per_block)
        return LaunchRefusal{"threads_per_block",
                             "a block of " + std::to_string(dims.block[0]) + " x " + std::to_string(dims.block[1]) +
                                 " x " + std::to_string(dims.block[2]) + " has " + std::to_string(threads) +
                                 " threads; a block may have at most " + std::to_string(limits.max_threads_per_block) +
                                 " threads " + limits.where};
    for (int i = 0; i < 3; ++i)
        if (dims.grid[i] > limits.max_grid[i])
            return LaunchRefusal{std::string("grid.") + kAxis[i],
                                 std::string("grid.") + kAxis[i] + " is " + std::to_string(dims.grid[i]) +
                                     ", over the limit of " + std::to_string(limits.max_grid[i]) +
                                     " blocks in that dimension " + limits.where};
    if (dims.shared_bytes < 0)
        return LaunchRefusal{"shared_memory", "dynamic shared memory cannot be negative"};
    long long shared = dims.shared_bytes + res.static_shared;
    if (shared > limits.shared_per_block_optin)
        return LaunchRefusal{"shared_memory",
                             "the block asks for " + kib(shared) + " of shared memory (" + kib(res.static_shared) +
                                 " static + " + kib(dims.shared_bytes) + " dynamic); a block may have at most " +
                                 kib(limits.shared_per_block_optin) + " " + limits.where};
    if (shared > limits.shared_per_block && needs_optin) *needs_optin = true;
    if (res.registers > 0) {
        long long regs = (long long)res.registers * threads;
        if (regs > limits.regs_per_block)
            return LaunchRefusal{"registers",
                                 "each thread uses " + std::to_string(res.registers) + " registers, so a block of " +
                                     std::to_string(threads) + " threads needs " + std::to_string(regs) +
                                     ", over the " + std::to_string(limits.regs_per_block) +
                                     " registers a block may use " + limits.where};
    }
    if (res.max_threads_per_block > 0 && threads > res.max_threads_per_block)
        return LaunchRefusal{"threads_per_block",
                             "this kernel can run at most " + std::to_string(res.max_threads_per_block) +
                                 " threads per block (its register use limits it), and the block has " +
                                 std::to_string(threads)};
    return std::nullopt;
}

std::optional<LaunchRefusal> check_kernel_args(const std::string& entry, const std::vector<std::size_t>& params,
                                               const std::vector<std::pair<std::string, std::size_t>>& args) {
    auto list = [&] {
        std::string s;
        for (const auto& [name, size] : args) s += (s.empty() ? "" : ", ") + name;
        return s;
    };
    const std::string kernel = "kernel '" + entry + "' ";
    if (params.size() != args.size())
        return LaunchRefusal{"arguments", kernel + "takes " + std::to_string(params.size()) + " parameter" +
                                              (params.size() == 1 ? "" : "s") + ", but the lesson passes " +
                                              std::to_string(args.size()) + " (" + list() + ")"};
    for (std::size_t i = 0; i < params.size(); ++i)
        if (params[i] != args[i].second)
            return LaunchRefusal{"arguments", kernel + "parameter " + std::to_string(i + 1) + " is " +
                                                  std::to_string(params[i]) + " bytes, but the lesson passes '" +
                                                  args[i].first + "' there, which is " +
                                                  std::to_string(args[i].second) + " bytes"};
    return std::nullopt;
}

}  // namespace wb
