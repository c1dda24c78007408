// cli/commands/device.cpp — `cuda-workbook-cli device`: each GPU and its limits,
// or why there is none (exit 4), with the NVRTC version either way.
#include "commands.hpp"

#include "common.hpp"
#include "compile/nvrtc.hpp"
#include "core/error.hpp"
#include "ceilings/ceilings.hpp"
#include "driver/device.hpp"
#include "driver/gpu.hpp"
#include "pipeline/report.hpp"

#include <iostream>

using nlohmann::json;

namespace wb::cli {

int cmd_device(int argc, char** argv) {
    Args a = parse_args(argc, argv, 2, {}, {"--json", "--help", "--ceilings"}, "device");
    if (a.flag("--help")) {
        std::cout << "Usage: cuda-workbook-cli device [--ceilings] [--json]\n\nShows each GPU and its limits, or why there is none.\n"
                     "--ceilings: also this GPU's measured ceilings (device-to-device copy, FP32 and FP16\n"
                     "FMA peaks, cuBLAS SGEMM), measured once per GPU and driver (about a second) and cached.\n\n"
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
    std::vector<Ceilings> ceilings;
    if (a.flag("--ceilings"))
        for (const auto& d : devices) {
            GpuContext ctx(d.ordinal);
            ceilings.push_back(ceilings_for(ctx));
        }
    if (as_json) {
        json arr = json::array();
        for (std::size_t i = 0; i < devices.size(); ++i) {
            json j = to_json(devices[i]);
            if (i < ceilings.size()) j["ceilings"] = json::parse(ceilings_to_json(ceilings[i]));
            arr.push_back(j);
        }
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
        if (static_cast<std::size_t>(d.ordinal) < ceilings.size()) {
            const Ceilings& c = ceilings[static_cast<std::size_t>(d.ordinal)];
            std::cout << "  measured " << c.measured_at << ": copy " << fmt("%.0f", c.copy_gbs) << " GB/s (data sheet "
                      << fmt("%.0f", d.peak_bandwidth_gbs()) << "), FP32 FMA " << fmt("%.0f", c.fp32_gflops)
                      << " GFLOP/s, FP16 FMA " << fmt("%.0f", c.fp16_gflops) << " GFLOP/s, cuBLAS SGEMM "
                      << (c.sgemm_gflops > 0 ? fmt("%.0f GFLOP/s", c.sgemm_gflops) : c.sgemm_note) << "\n";
        }
    }
    return kOk;
}

}  // namespace wb::cli
