// runtime/driver/device.hpp — what a GPU allows, and checking a launch against it.
//
// check_launch() is a pure function of the launch sizes, the device limits and
// the compiled kernel's resources, so it runs (and is tested) without a GPU:
// in compile-only mode it checks against the limits of the target
// architecture (limits_for_arch). A refusal is a sentence a student
// understands, naming the limit and the value that broke it.
#pragma once

#include "core/phrase.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wb {

struct DeviceLimits {
    int max_threads_per_block = 1024;
    std::array<long long, 3> max_block{1024, 1024, 64};
    std::array<long long, 3> max_grid{2147483647, 65535, 65535};
    long long shared_per_block = 48 * 1024;        // without opting in
    long long shared_per_block_optin = 48 * 1024;  // the most a kernel may opt in to
    long long shared_per_sm = 64 * 1024;
    int regs_per_block = 65536;
    int regs_per_sm = 65536;
    int max_threads_per_sm = 2048;
    int warp_size = 32;
    // Whose limits these are, for refusals: this GPU's, or the target
    // architecture's when there is no GPU (limits_for_arch). A catalogue
    // argument (core/phrase.hpp).
    std::string where = "@limits.this_gpu";
};

struct DeviceInfo {
    int ordinal = 0;
    std::string name;
    int cc_major = 0, cc_minor = 0;
    int sm_count = 0;
    std::size_t total_memory = 0;
    std::size_t free_memory = 0;
    int clock_khz = 0, memory_clock_khz = 0, memory_bus_bits = 0;
    int l2_bytes = 0;
    int driver_version = 0;  // e.g. 13000
    std::string pci_bus_id;  // "0000:19:00.0", how NVML finds the same GPU
    DeviceLimits limits;

    std::string arch() const { return "sm_" + std::to_string(cc_major * 10 + cc_minor); }
    // Peak DRAM bandwidth from the memory clock and bus width, in GB/s (0 if unknown).
    double peak_bandwidth_gbs() const;
};

// Limits of a compute capability (e.g. 90), for compile-only checks.
DeviceLimits limits_for_arch(int cc);

// "sm_90" / "compute_90" -> 90; 0 when it does not parse.
int arch_number(const std::string& arch);

// All GPUs the driver sees. Throws wb::Error (NoDevice) with the driver's
// unavailable_reason() when there is none.
std::vector<DeviceInfo> query_devices();

struct LaunchDims {
    std::array<long long, 3> grid{1, 1, 1};
    std::array<long long, 3> block{1, 1, 1};
    long long shared_bytes = 0;  // dynamic

    long long threads_per_block() const { return block[0] * block[1] * block[2]; }
    long long blocks() const { return grid[0] * grid[1] * grid[2]; }
};

// What the compiled kernel needs, from cuFuncGetAttribute (or unknown: -1).
struct KernelResources {
    int registers = -1;               // per thread
    long long static_shared = 0;      // bytes
    long long local_bytes = 0;        // per thread (spills, local arrays)
    int max_threads_per_block = -1;   // what this kernel can launch with, given its registers
};

struct LaunchRefusal {
    std::string limit;    // short id: "threads_per_block", "block.z", "grid.x", "shared_memory", "registers"
    std::string message;  // the sentence for the student, in English: render(said, "en")
    Sentence said;        // the same, as catalogue phrases
    LaunchRefusal() = default;
    LaunchRefusal(std::string limit, Sentence said)
        : limit(std::move(limit)), message(render(said, "en")), said(std::move(said)) {}
    std::string message_in(std::string_view lang) const { return render_checked(message, said, lang); }
    // Adds to the sentence (" (pass 2)").
    void add(Phrase p) {
        said.push_back(std::move(p));
        message = render(said, "en");
    }
};

// The kernel's real parameter sizes against what the lesson passes (one
// byte size and name per argument): nullopt when they agree; otherwise a
// refusal (limit "arguments") naming the first argument that does not match.
std::optional<LaunchRefusal> check_kernel_args(const std::string& entry, const std::vector<std::size_t>& param_sizes,
                                               const std::vector<std::pair<std::string, std::size_t>>& args);

// nullopt when the launch fits. `needs_optin` is set when the dynamic shared
// memory is over the default but within what the kernel may opt in to.
std::optional<LaunchRefusal> check_launch(const LaunchDims& dims, const DeviceLimits& limits,
                                          const KernelResources& resources = {}, bool* needs_optin = nullptr);

}  // namespace wb
