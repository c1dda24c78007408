// cli/commands/inspect.cpp — `cuda-workbook-cli inspect`: a step's kernels
// from the inside: PTX, SASS, resources and occupancy (runtime/inspect/).
//
// Needs no GPU: ptxas's report and NVIDIA's occupancy calculator work from
// the target architecture's limits. With a GPU of the same architecture its
// own limits are used. SASS needs the toolkit's nvdisasm.
#include "commands.hpp"

#include "common.hpp"
#include "core/error.hpp"
#include "driver/device.hpp"
#include "inspect/inspect.hpp"
#include "pipeline/report.hpp"
#include "pipeline/run.hpp"

#include <cstdio>
#include <iostream>

using nlohmann::json;

namespace wb::cli {
namespace {

json to_json(const KernelUsage& k) {
    return {{"entry", k.entry},
            {"registers", k.registers},
            {"barriers", k.barriers},
            {"shared_static", k.shared_static},
            {"constant", k.constant},
            {"stack_frame", k.stack_frame},
            {"spill_stores", k.spill_stores},
            {"spill_loads", k.spill_loads}};
}

json to_json(const Occupancy& o) {
    json j = {{"block_threads", o.block_threads}, {"dynamic_shared", o.dynamic_shared},
              {"active_blocks", o.active_blocks}, {"active_warps", o.active_warps},
              {"max_warps", o.max_warps},         {"occupancy", o.fraction()},
              {"limited_by", o.limited_by},       {"blocks_by_warps", o.blocks_by_warps},
              {"blocks_by_registers", o.blocks_by_registers}, {"blocks_by_shared", o.blocks_by_shared},
              {"blocks_by_blocks", o.blocks_by_blocks},       {"shared_allocated", o.shared_allocated}};
    if (!o.error.empty()) j["error"] = o.error;
    return j;
}

json to_json(const Listing& listing) {
    json lines = json::array();
    for (const ListingLine& l : listing)
        lines.push_back({{"text", l.text}, {"source_line", l.source_line}, {"is_source", l.is_source}});
    return lines;
}

void print_listing(const Listing& listing) {
    for (const ListingLine& l : listing) std::cout << (l.is_source ? "// " : "") << l.text << "\n";
}

template <typename... T>
std::string format(const char* f, T... values) {
    char buf[256];
    std::snprintf(buf, sizeof buf, f, values...);
    return buf;
}

std::string limiters(const Occupancy& o) {
    std::string s;
    for (const std::string& l : o.limited_by) s += (s.empty() ? "" : ", ") + l;
    return s.empty() ? "nothing" : s;
}

int inspect_main(const Args& a) {
    const int wanted = a.flag("--ptx") + a.flag("--sass") + a.flag("--resources") + a.flag("--occupancy");
    if (wanted != 1) throw UsageError("inspect: give one of --ptx, --sass, --resources, --occupancy");
    int refused = kOk;
    auto lesson = open_one_lesson(a, "inspect", refused);
    if (!lesson) return refused;
    const Step& step = a.value("--step") ? step_or_usage_error(*lesson, *a.value("--step")) : lesson->steps.front();
    const SourceText& source = a.flag("--solution") ? step.solution : step.starter;
    const bool as_json = a.flag("--json");

    // The GPU's architecture and limits when there is one of that architecture.
    std::optional<DeviceInfo> gpu;
    try {
        if (auto devices = query_devices(); !devices.empty()) gpu = devices.front();
    } catch (const Error&) {
    }
    std::string arch = a.value("--arch").value_or(gpu ? gpu->arch() : default_arch());
    const Inspection in = inspect_source(source, step, arch, a.flag("--ptx"));
    if (!in.cubin.ok) {
        std::cout << source.origin << " does not compile for " << in.arch << ":\n";
        print_diagnostics(in.cubin.diagnostics, in.cubin.diagnostics_omitted);
        return kFailed;
    }
    const bool own_gpu = gpu && gpu->arch() == in.arch;
    const DeviceLimits limits = own_gpu ? gpu->limits : limits_for_arch(in.cc);
    const std::string whose = own_gpu ? gpu->name : in.arch + "'s published limits (no GPU of it here)";

    if (a.flag("--ptx")) {
        const Listing listing = ptx_listing(in.ptx.image, source);
        if (as_json) std::cout << json{{"arch", in.ptx.arch}, {"source", source.origin}, {"lines", to_json(listing)}}.dump(2) << "\n";
        else print_listing(listing);
        return kOk;
    }
    if (a.flag("--sass")) {
        const Listing listing = sass_listing(disassemble_cubin(in.cubin.image), source);
        if (as_json) std::cout << json{{"arch", in.arch}, {"source", source.origin}, {"lines", to_json(listing)}}.dump(2) << "\n";
        else print_listing(listing);
        return kOk;
    }
    if (a.flag("--resources")) {
        if (as_json) {
            json kernels = json::array();
            for (const KernelUsage& k : in.kernels) kernels.push_back(to_json(k));
            std::cout << json{{"arch", in.arch}, {"kernels", kernels}}.dump(2) << "\n";
            return kOk;
        }
        std::cout << step.id << " (" << source.origin << ") for " << in.arch << ":\n";
        for (const KernelUsage& k : in.kernels) {
            const int max_block = largest_block_for_registers(limits, k.registers);
            std::cout << "  " << k.entry << ": " << k.registers << " registers/thread, " << k.shared_static
                      << " bytes static shared, " << k.constant << " bytes constant, " << k.stack_frame
                      << " bytes stack/thread, spills " << k.spill_stores << " B stored / " << k.spill_loads
                      << " B loaded, " << k.barriers << " barriers; its registers allow blocks of up to " << max_block
                      << " threads\n";
        }
        return kOk;
    }
    // --occupancy
    std::map<std::string, double> params = resolve_params(step, nullptr, {});
    json out = json::array();
    for (const KernelUsage& k : in.kernels) {
        long long block = 0, shared = 0;
        for (const LaunchSpec& l : step.launches)
            if (k.entry == l.entry || k.entry.find(l.entry) != std::string::npos) {
                const LaunchDims d = resolve_launch(l, params);
                block = d.threads_per_block();
                shared = d.shared_bytes;
                break;
            }
        if (auto b = whole_number_option(a, "--block", 1)) block = *b;
        if (auto s = whole_number_option(a, "--shared", 0)) shared = *s;
        if (block <= 0) block = 256;
        const Occupancy now = occupancy(in.cc, limits, k, static_cast<int>(block), shared);
        const std::vector<Occupancy> chart = occupancy_by_block_size(in.cc, limits, k, shared);
        if (as_json) {
            json c = json::array();
            for (const Occupancy& o : chart) c.push_back({{"block_threads", o.block_threads}, {"occupancy", o.fraction()},
                                                          {"active_blocks", o.active_blocks}});
            out.push_back({{"entry", k.entry}, {"registers", k.registers}, {"shared_static", k.shared_static},
                           {"at", to_json(now)}, {"by_block_size", c}});
            continue;
        }
        std::cout << k.entry << " on " << whose << ", " << block << " threads/block, " << shared
                  << " bytes dynamic shared:\n";
        if (!now.error.empty()) {
            std::cout << "  " << now.error << "\n";
            continue;
        }
        std::cout << format("  %d blocks/SM, %d of %d warps: %.0f%% occupancy, limited by %s\n", now.active_blocks,
                         now.active_warps, now.max_warps, 100.0 * now.fraction(), limiters(now).c_str())
                  << format("  blocks/SM allowed by warps %d, registers %d, shared memory %d, the block limit %d\n",
                         now.blocks_by_warps, now.blocks_by_registers, now.blocks_by_shared, now.blocks_by_blocks)
                  << "  by block size:";
        for (const Occupancy& o : chart)
            if (o.block_threads % 128 == 0 || o.block_threads == block)
                std::cout << format(" %d:%.0f%%%s", o.block_threads, 100.0 * o.fraction(), o.block_threads == block ? "*" : "");
        std::cout << "\n";
    }
    if (as_json) std::cout << json{{"arch", in.arch}, {"limits_of", whose}, {"kernels", out}}.dump(2) << "\n";
    return kOk;
}

}  // namespace

CommandSpec inspect_command() {
    CommandSpec c;
    c.name = "inspect";
    c.operands = "<lesson.json>";
    c.summary = "a step's PTX, SASS, resources or occupancy";
    c.about =
        "Looks inside step S's kernels (default: the first step; the starter, or --solution),\n"
        "with one of --ptx, --sass, --resources, --occupancy.\n"
        "Needs no GPU: without one the target architecture's published limits are used.\n";
    c.options = {
        flag_option("--ptx", "NVRTC's PTX with the source lines woven in"),
        flag_option("--sass", "the machine code (the toolkit's nvdisasm) with the source lines"),
        flag_option("--resources", "registers, shared, constant and local memory, spills (ptxas)"),
        flag_option("--occupancy", "blocks and warps per SM at --block threads (default: the lesson's\n"
                                   "block) and --shared dynamic bytes, what limits them, and the\n"
                                   "occupancy at every block size (NVIDIA's occupancy calculator)"),
        value_option("--step", "S", "step id, or number from 1 as in the app (default: the first)"),
        flag_option("--solution", "the lesson's solution (default: the starter)"),
        value_option("--arch", "A", "sm_XX (default: the GPU's own, or " + default_arch() + " without one)"),
        value_option("--block", "N", "threads per block for --occupancy"),
        value_option("--shared", "BYTES", "dynamic shared memory per block for --occupancy"),
        flag_option("--trust", "the lesson is outside the shipped lessons folder and you trust its author"),
        flag_option("--json", "print the result as JSON"),
    };
    c.run = inspect_main;
    return c;
}

}  // namespace wb::cli
