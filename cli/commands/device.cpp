// cli/commands/device.cpp — `cuda-workbook-cli device`: each GPU and its limits,
// or why there is none (exit 4), with the NVRTC version either way.
#include "commands.hpp"

#include "common.hpp"
#include "compile/nvrtc.hpp"
#include "core/error.hpp"
#include "driver/device.hpp"
#include "pipeline/report.hpp"

#include <iostream>

using nlohmann::json;

namespace wb::cli {

int cmd_device(int argc, char** argv) {
    Args a = parse_args(argc, argv, 2, {}, {"--json", "--help"}, "device");
    if (a.flag("--help")) {
        std::cout << "Usage: cuda-workbook-cli device [--json]\n\nShows each GPU and its limits, or why there is none.\n\n"
                  << kExitCodes;
        return kOk;
    }
    bool as_json = a.flag("--json");
    std::vector<DeviceInfo> devices;
    try {
        devices = query_devices();
    } catch (const Error& e) {
        if (as_json) std::cout << json{{"devices", json::array()}, {"reason", e.message()}, {"nvrtc", nvrtc_version()}}.dump(2) << "\n";
        else std::cout << e.message() << "\nNVRTC " << nvrtc_version() << " is available; default target " << default_arch() << ".\n";
        return kNoGpu;
    }
    if (as_json) {
        json arr = json::array();
        for (const auto& d : devices) arr.push_back(to_json(d));
        std::cout << json{{"devices", arr}, {"nvrtc", nvrtc_version()}}.dump(2) << "\n";
        return kOk;
    }
    for (const auto& d : devices) {
        const auto& l = d.limits;
        std::cout << "GPU " << d.ordinal << ": " << d.name << "\n"
                  << "  compute capability " << d.cc_major << "." << d.cc_minor << " (" << d.arch() << "), " << d.sm_count
                  << " SMs, " << bytes_human(double(d.total_memory)) << " memory, L2 " << bytes_human(d.l2_bytes) << "\n"
                  << "  driver " << d.driver_version / 1000 << "." << (d.driver_version % 1000) / 10 << ", NVRTC "
                  << nvrtc_version() << "\n"
                  << "  threads/block " << l.max_threads_per_block << ", block " << dims_str(l.max_block) << ", grid "
                  << dims_str(l.max_grid) << "\n"
                  << "  shared memory/block " << l.shared_per_block / 1024 << " KiB (opt-in " << l.shared_per_block_optin / 1024
                  << " KiB), registers/block " << l.regs_per_block << ", warp " << l.warp_size << "\n";
    }
    return kOk;
}

}  // namespace wb::cli
