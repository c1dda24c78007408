// cli/commands/device.cpp — `cuda-workbook-cli device`: each GPU and its limits,
// or why there is none (exit 4), with the NVRTC version either way.
#include "commands.hpp"

#include "common.hpp"
#include "compile/nvrtc.hpp"
#include "core/error.hpp"
#include "measure/ceilings.hpp"
#include "driver/cuda_driver.hpp"
#include "driver/device.hpp"
#include "driver/gpu.hpp"
#include "driver/monitor.hpp"
#include "pipeline/report.hpp"
#include "pipeline/worker.hpp"

#include <chrono>
#include <iostream>
#include <memory>
#include <thread>

using nlohmann::json;

namespace wb::cli {

namespace {

json sample_json(const GpuSample& g, double t0) {
    return {{"t", g.t - t0},           {"mem_used", g.mem_used}, {"mem_total", g.mem_total},
            {"util_gpu", g.util_gpu},  {"util_mem", g.util_mem}, {"sm_mhz", g.sm_mhz},
            {"max_sm_mhz", g.max_sm_mhz}, {"temp_c", g.temp_c},  {"power_w", g.power_w},
            {"power_limit_w", g.power_limit_w}, {"slowed_by", slowdown_ids_text(g.reasons)}};
}

std::string sample_line(const GpuSample& g, double t0) {
    std::string s = fmt("%6.1f s  ", g.t - t0);
    if (g.mem_total > 0) s += "mem " + fmt("%.2f", g.mem_used / 1e9) + "/" + fmt("%.1f GB  ", g.mem_total / 1e9);
    if (g.util_gpu >= 0) s += "util " + fmt("%3.0f%%", g.util_gpu) + " (mem " + fmt("%.0f%%)  ", g.util_mem);
    if (g.sm_mhz >= 0) s += "SM " + fmt("%.0f", g.sm_mhz) + "/" + fmt("%.0f MHz  ", g.max_sm_mhz);
    if (g.temp_c >= 0) s += fmt("%.0f C  ", g.temp_c);
    if (g.power_w >= 0) s += fmt("%.0f", g.power_w) + "/" + fmt("%.0f W", g.power_limit_w);
    if (const std::string why = slowdown_ids_text(g.reasons); !why.empty()) s += "  slowed: " + why;
    return s;
}

// Reads each GPU through NVML for `seconds`, printing as the readings come.
int monitor(const std::vector<DeviceInfo>& devices, double seconds, bool as_json) {
    std::vector<std::unique_ptr<GpuMonitor>> monitors;
    for (const auto& d : devices) monitors.push_back(std::make_unique<GpuMonitor>(d.pci_bus_id));
    const auto start = std::chrono::steady_clock::now();
    const double t0 = std::chrono::duration<double>(start.time_since_epoch()).count();
    std::vector<std::size_t> printed(devices.size(), 0);
    while (std::chrono::steady_clock::now() - start < std::chrono::duration<double>(seconds)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        if (as_json) continue;
        for (std::size_t i = 0; i < monitors.size(); ++i) {
            const auto samples = monitors[i]->samples();
            for (; printed[i] < samples.size(); ++printed[i])
                std::cout << "GPU " << devices[i].ordinal << "  " << sample_line(samples[printed[i]], t0) << "\n" << std::flush;
        }
    }
    int code = kOk;
    json arr = json::array();
    for (std::size_t i = 0; i < monitors.size(); ++i) {
        const std::string why = monitors[i]->unavailable();
        if (!why.empty()) {
            code = kNoGpu;
            if (!as_json) std::cout << "GPU " << devices[i].ordinal << "  not monitored: " << why << "\n";
        }
        json samples = json::array();
        for (const auto& g : monitors[i]->samples()) samples.push_back(sample_json(g, t0));
        arr.push_back({{"ordinal", devices[i].ordinal}, {"name", devices[i].name}, {"samples", samples},
                       {"unavailable", why}});
    }
    if (as_json) std::cout << json{{"monitor", arr}}.dump(2) << "\n";
    return code;
}

// `device --worker CMD`: the GPU at the far end of a worker command, as its
// worker answers (the first device, its limits), named with the machine.
int remote_device(std::vector<std::string> command, bool as_json) {
    const std::string lang = language_from_environment();
    WorkerOptions options;
    options.command = std::move(command);
    WorkerBackend worker(std::move(options));
    const BackendInfo bi = worker.info();
    const std::string where = worker.where();
    const std::string reason = bi.no_gpu_said.empty() ? bi.no_gpu_reason : render(bi.no_gpu_said, lang);
    if (as_json) {
        json arr = json::array();
        for (const auto& d : bi.devices) arr.push_back(report_json(d));
        json j = {{"devices", arr}, {"where", where}};
        if (!bi.has_gpu) j["reason"] = reason;
        std::cout << j.dump(2) << "\n";
        return bi.has_gpu ? kOk : kNoGpu;
    }
    if (!bi.has_gpu || bi.devices.empty()) {
        std::cout << render({{"cli.no_gpu_on", {where.empty() ? "?" : where, reason}}}, lang) << "\n";
        return kNoGpu;
    }
    for (const auto& d : bi.devices) {
        const auto& l = d.limits;
        std::cout << "GPU " << d.ordinal << ": " << d.name << "  (" << render({{"cli.on_host", {where}}}, lang) << ")\n"
                  << "  compute capability " << d.cc_major << "." << d.cc_minor << " (" << d.arch() << "), " << d.sm_count
                  << " SMs, " << bytes_human(double(d.total_memory)) << " memory, L2 " << bytes_human(d.l2_bytes) << "\n"
                  << "  driver " << d.driver_version / 1000 << "." << (d.driver_version % 1000) / 10 << "\n"
                  << "  threads/block " << l.max_threads_per_block << ", block " << dims_str(l.max_block) << ", grid "
                  << dims_str(l.max_grid) << "\n"
                  << "  shared memory/block " << l.shared_per_block / 1024 << " KiB (opt-in " << l.shared_per_block_optin / 1024
                  << " KiB), registers/block " << l.regs_per_block << ", warp " << l.warp_size << "\n";
    }
    return kOk;
}

int device_main(const Args& a) {
    bool as_json = a.flag("--json");
    const double monitor_s = seconds_option(a, "--monitor");
    if (auto command = worker_command(a); !command.empty()) {
        if (monitor_s > 0 || a.flag("--ceilings"))
            throw UsageError("--monitor and --ceilings read this machine's GPUs: they cannot be used with a worker command");
        return remote_device(std::move(command), as_json);
    }
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
    if (monitor_s > 0) return monitor(devices, monitor_s, as_json);
    if (as_json) {
        json arr = json::array();
        for (std::size_t i = 0; i < devices.size(); ++i) {
            json j = report_json(devices[i]);
            if (i < ceilings.size()) j["ceilings"] = json::parse(ceilings_to_json(ceilings[i]));
            arr.push_back(j);
        }
        std::cout << json{{"devices", arr}, {"nvrtc", nvrtc_version()}, {"driver_library", Driver::get()->library_path()}}.dump(2)
                  << "\n";
        return kOk;
    }
    for (const auto& d : devices) {
        const auto& l = d.limits;
        std::cout << "GPU " << d.ordinal << ": " << d.name << "\n"
                  << "  compute capability " << d.cc_major << "." << d.cc_minor << " (" << d.arch() << "), " << d.sm_count
                  << " SMs, " << bytes_human(double(d.total_memory)) << " memory, L2 " << bytes_human(d.l2_bytes) << "\n"
                  << "  driver " << d.driver_version / 1000 << "." << (d.driver_version % 1000) / 10 << " ("
                  << Driver::get()->library_path() << "), NVRTC "
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

}  // namespace

CommandSpec device_command() {
    CommandSpec c;
    c.name = "device";
    c.summary = "show the GPU, or why there is none";
    c.about = "Shows each GPU and its limits, or why there is none.\n";
    c.options = {
        flag_option("--ceilings", "also this GPU's measured ceilings (device-to-device copy, FP32 and FP16\n"
                                  "FMA peaks, cuBLAS SGEMM), measured once per GPU and driver (about a\n"
                                  "second) and cached"),
        value_option("--monitor", "S", "then read each GPU through NVML twice a second for S seconds, as the\n"
                                       "tutorials' pyNVML notebook does: memory used, utilisation, SM clock,\n"
                                       "temperature, power, and what slows the clock down. One line per\n"
                                       "reading (a JSON array with --json)"),
        flag_option("--json", "print the devices as JSON"),
        worker_option(),
    };
    c.run = device_main;
    return c;
}

}  // namespace wb::cli
