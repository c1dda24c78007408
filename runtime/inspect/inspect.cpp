// runtime/inspect/inspect.cpp — resources, occupancy, PTX and SASS (inspect.hpp).
#include "inspect/inspect.hpp"

#include "core/error.hpp"
#include "core/fs.hpp"

#include <cuda_occupancy.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>

namespace wb {
namespace {

std::vector<std::string_view> lines_of(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = text.find('\n', start);
        std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        out.push_back(line);
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    return out;
}

long long number_before(const std::string& line, const char* word) {
    const std::regex re(std::string("(\\d+) (bytes )?") + word);
    std::smatch m;
    return std::regex_search(line, m, re) ? std::stoll(m[1]) : 0;
}

// Weaves the source's lines into `code`: `line_of(i)` gives the source line
// code line i came from (0: none, -1: a marker line to drop).
Listing weave(const std::vector<std::string_view>& code, const std::vector<int>& from, const SourceText& source) {
    const std::vector<std::string_view> src = lines_of(source.text);
    Listing out;
    int last_shown = 0;
    for (std::size_t i = 0; i < code.size(); ++i) {
        if (from[i] < 0) continue;
        const int line = from[i];
        if (line > 0 && line != last_shown && line <= static_cast<int>(src.size())) {
            out.push_back({std::to_string(line) + ": " + std::string(src[static_cast<std::size_t>(line - 1)]), line, true});
            last_shown = line;
        }
        out.push_back({std::string(code[i]), line, false});
    }
    return out;
}

bool same_file(std::string_view named, const std::string& origin) {
    if (named == origin) return true;
    // nvdisasm and PTX may give a path; the origin may be a bare name.
    const std::string_view base = named.substr(named.find_last_of('/') == std::string_view::npos ? 0 : named.find_last_of('/') + 1);
    const std::string origin_base = std::filesystem::path(origin).filename().string();
    return base == origin_base;
}

}  // namespace

std::vector<KernelUsage> parse_ptxas_usage(std::string_view log) {
    std::vector<KernelUsage> out;
    static const std::regex entry_re(R"(Compiling entry function '([^']+)')");
    static const std::regex props_re(R"(Function properties for (\S+))");
    static const std::regex regs_re(R"(Used (\d+) registers)");
    static const std::regex cmem_re(R"((\d+) bytes cmem\[0\])");
    KernelUsage* current = nullptr;
    for (std::string_view view : lines_of(log)) {
        const std::string line(view);
        if (line.rfind("ptxas", 0) != 0) continue;
        std::smatch m;
        if (std::regex_search(line, m, entry_re)) {
            out.push_back(KernelUsage{m[1]});
            current = &out.back();
        } else if (std::regex_search(line, m, props_re)) {
            // Device functions have properties too; only entries are kernels.
            current = nullptr;
            for (KernelUsage& k : out)
                if (k.entry == m[1].str()) current = &k;
        } else if (current && line.find("stack frame") != std::string::npos) {
            current->stack_frame = number_before(line, "stack frame");
            current->spill_stores = number_before(line, "spill stores");
            current->spill_loads = number_before(line, "spill loads");
        } else if (current && std::regex_search(line, m, regs_re)) {
            current->registers = std::stoi(m[1]);
            current->barriers = static_cast<int>(number_before(line, "barrier"));
            current->shared_static = number_before(line, "smem");
            if (std::regex_search(line, m, cmem_re)) current->constant = std::stoll(m[1]);
        }
    }
    return out;
}

int largest_block_for_registers(const DeviceLimits& limits, int registers_per_thread) {
    if (registers_per_thread <= 0) return limits.max_threads_per_block;
    constexpr int kRegisterUnit = 256;
    const int per_warp = (registers_per_thread * limits.warp_size + kRegisterUnit - 1) / kRegisterUnit * kRegisterUnit;
    return std::min(limits.max_threads_per_block, limits.regs_per_block / per_warp * limits.warp_size);
}

Occupancy occupancy(int cc, const DeviceLimits& limits, const KernelUsage& kernel, int block_threads,
                    long long dynamic_shared) {
    Occupancy o;
    o.block_threads = block_threads;
    o.dynamic_shared = dynamic_shared;
    o.max_warps = limits.max_threads_per_sm / limits.warp_size;

    cudaOccDeviceProp prop;
    prop.computeMajor = cc / 10;
    prop.computeMinor = cc % 10;
    prop.maxThreadsPerBlock = limits.max_threads_per_block;
    prop.maxThreadsPerMultiprocessor = limits.max_threads_per_sm;
    prop.regsPerBlock = limits.regs_per_block;
    prop.regsPerMultiprocessor = limits.regs_per_sm;
    prop.warpSize = limits.warp_size;
    prop.sharedMemPerBlock = static_cast<std::size_t>(limits.shared_per_block);
    prop.sharedMemPerMultiprocessor = static_cast<std::size_t>(limits.shared_per_sm);
    prop.numSms = 1;
    prop.sharedMemPerBlockOptin = static_cast<std::size_t>(limits.shared_per_block_optin);
    // The driver keeps 1 KiB of each block's shared memory from Ampere on.
    prop.reservedSharedMemPerBlock = cc >= 80 ? 1024 : 0;

    cudaOccFuncAttributes attr;
    attr.maxThreadsPerBlock = limits.max_threads_per_block;
    attr.numRegs = kernel.registers;
    attr.sharedSizeBytes = static_cast<std::size_t>(kernel.shared_static);
    attr.partitionedGCConfig = PARTITIONED_GC_OFF;
    attr.shmemLimitConfig = dynamic_shared + kernel.shared_static > limits.shared_per_block ? FUNC_SHMEM_LIMIT_OPTIN
                                                                                              : FUNC_SHMEM_LIMIT_DEFAULT;
    attr.maxDynamicSharedSizeBytes = static_cast<std::size_t>(std::max<long long>(0, limits.shared_per_block_optin - kernel.shared_static));
    attr.numBlockBarriers = std::max(kernel.barriers, 1);

    cudaOccDeviceState state;
    cudaOccResult result;
    const cudaOccError err = cudaOccMaxActiveBlocksPerMultiprocessor(&result, &prop, &attr, &state, block_threads,
                                                                     static_cast<std::size_t>(dynamic_shared));
    if (err != CUDA_OCC_SUCCESS) {
        o.error = err == CUDA_OCC_ERROR_UNKNOWN_DEVICE
                      ? "the occupancy calculator does not know sm_" + std::to_string(cc)
                      : "the occupancy calculator rejected " + std::to_string(block_threads) + " threads with " +
                            std::to_string(dynamic_shared) + " bytes of dynamic shared memory";
        return o;
    }
    o.active_blocks = result.activeBlocksPerMultiprocessor;
    const int warps_per_block = (block_threads + limits.warp_size - 1) / limits.warp_size;
    o.active_warps = o.active_blocks * warps_per_block;
    o.blocks_by_warps = result.blockLimitWarps;
    o.blocks_by_registers = result.blockLimitRegs;
    o.blocks_by_shared = result.blockLimitSharedMem;
    o.blocks_by_blocks = result.blockLimitBlocks;
    o.shared_allocated = static_cast<long long>(result.allocatedSharedMemPerBlock);
    o.registers_allocated = result.allocatedRegistersPerBlock;
    if (result.limitingFactors & OCC_LIMIT_WARPS) o.limited_by.push_back("warps");
    if (result.limitingFactors & OCC_LIMIT_REGISTERS) o.limited_by.push_back("registers");
    if (result.limitingFactors & OCC_LIMIT_SHARED_MEMORY) o.limited_by.push_back("shared memory");
    if (result.limitingFactors & OCC_LIMIT_BLOCKS) o.limited_by.push_back("blocks");
    if (result.limitingFactors & OCC_LIMIT_BARRIERS) o.limited_by.push_back("barriers");
    return o;
}

std::vector<Occupancy> occupancy_by_block_size(int cc, const DeviceLimits& limits, const KernelUsage& kernel,
                                               long long dynamic_shared) {
    std::vector<Occupancy> out;
    for (int threads = limits.warp_size; threads <= limits.max_threads_per_block; threads += limits.warp_size)
        out.push_back(occupancy(cc, limits, kernel, threads, dynamic_shared));
    return out;
}

Listing ptx_listing(std::string_view ptx, const SourceText& source) {
    static const std::regex file_re(R"(^\s*\.file\s+(\d+)\s+\"([^\"]*)\")");
    static const std::regex loc_re(R"(^\s*\.loc\s+(\d+)\s+(\d+)\s+\d+)");
    const std::vector<std::string_view> code = lines_of(ptx);
    // The .file table comes at the end of NVVM's PTX: read it first.
    std::vector<int> ours;  // .file numbers that name the student's source
    std::vector<int> from(code.size(), 0);
    for (std::size_t i = 0; i < code.size(); ++i) {
        const std::string text(code[i]);
        std::smatch m;
        if (std::regex_search(text, m, file_re)) {
            if (same_file(m[2].str(), source.origin)) ours.push_back(std::stoi(m[1]));
            from[i] = -1;
        }
    }
    int line = 0;
    for (std::size_t i = 0; i < code.size(); ++i) {
        if (from[i] < 0) continue;
        const std::string text(code[i]);
        std::smatch m;
        if (std::regex_search(text, m, loc_re)) {
            const int file = std::stoi(m[1]);
            line = std::find(ours.begin(), ours.end(), file) != ours.end() ? std::stoi(m[2]) : 0;
            from[i] = -1;
        } else {
            // Declarations and braces carry the line in force; a new function resets it.
            if (text.find(".entry") != std::string::npos || text.find(".func") != std::string::npos) line = 0;
            from[i] = line;
        }
    }
    return weave(code, from, source);
}

Listing sass_listing(std::string_view sass, const SourceText& source) {
    static const std::regex line_re(R"(//## File \"([^\"]*)\", line (\d+))");
    const std::vector<std::string_view> code = lines_of(sass);
    std::vector<int> from(code.size(), 0);
    int line = 0;
    for (std::size_t i = 0; i < code.size(); ++i) {
        const std::string text(code[i]);
        std::smatch m;
        if (std::regex_search(text, m, line_re)) {
            line = same_file(m[1].str(), source.origin) ? std::stoi(m[2]) : 0;
            from[i] = -1;
        } else {
            if (text.find(".text.") != std::string::npos) line = 0;
            from[i] = line;
        }
    }
    return weave(code, from, source);
}

std::string find_nvdisasm() { return find_toolkit_program("nvdisasm").string(); }

std::string disassemble_cubin(const std::string& cubin) {
    const std::string tool = find_nvdisasm();
    if (tool.empty())
        throw Error(ErrorKind::Io, "SASS needs the CUDA Toolkit's nvdisasm, which is not installed here",
                    {}, "install the toolkit's cuda-nvdisasm package (nvdisasm in <cuda>/bin); PTX and resources work without it");
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("cuda-workbook-sass-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand()));
    std::filesystem::create_directories(dir);
    const std::filesystem::path in = dir / "kernel.cubin", out = dir / "kernel.sass";
    write_file_atomic(in, cubin);
    std::string text;
    const pid_t pid = ::fork();
    if (pid == 0) {
        std::FILE* f = std::freopen(out.c_str(), "w", stdout);
        if (!f) ::_exit(127);
        ::dup2(::fileno(stdout), 2);
        ::execl(tool.c_str(), tool.c_str(), "--print-line-info", "--print-code", in.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    int status = 0;
    if (pid > 0) ::waitpid(pid, &status, 0);
    std::error_code ec;
    if (std::filesystem::exists(out, ec)) text = read_file(out, 64u << 20);
    std::filesystem::remove_all(dir, ec);
    if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw Error(ErrorKind::Io, "nvdisasm failed on the compiled kernel: " + text.substr(0, 2000));
    return text;
}

Inspection inspect_source(const SourceText& source, const Step& step, const std::string& arch, bool want_ptx) {
    Inspection in;
    std::string real = arch.empty() ? default_arch() : arch;
    if (real.rfind("compute_", 0) == 0) real = "sm_" + real.substr(8);
    in.arch = real;
    in.cc = real.rfind("sm_", 0) == 0 ? std::atoi(real.c_str() + 3) : 0;
    CompileOptions copts = step_compile_options(step, real);
    copts.extra.push_back("--ptxas-options=-v");
    in.cubin = compile_cuda(source, copts);
    in.kernels = parse_ptxas_usage(in.cubin.log);
    if (want_ptx && in.cubin.ok) {
        copts.arch = "compute_" + std::to_string(in.cc);
        copts.extra.pop_back();
        in.ptx = compile_cuda(source, copts);
    }
    return in;
}

InspectionReport inspect_report(const SourceText& source, const Step& step, const std::string& arch) {
    const Inspection in = inspect_source(source, step, arch, true);
    InspectionReport r;
    r.arch = in.arch;
    r.cc = in.cc;
    if (!in.cubin.ok) return r;
    r.kernels = in.kernels;
    if (in.ptx.ok) r.ptx = ptx_listing(in.ptx.image, source);
    try {
        r.sass = sass_listing(disassemble_cubin(in.cubin.image), source);
    } catch (const Error& e) {
        r.sass_unavailable = e.describe();
    }
    return r;
}

}  // namespace wb
