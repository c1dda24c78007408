// runtime/inspect/inspect.hpp — looking inside a compiled step: what each
// kernel uses (registers, shared and local memory, spills), how many of its
// blocks fit on an SM, and its PTX and SASS next to the student's lines.
//
// Everything here works without a GPU: ptxas reports a kernel's resources
// through NVRTC (-Xptxas -v), the occupancy is NVIDIA's own calculator
// (cuda_occupancy.h) over the target architecture's limits, PTX comes from
// NVRTC and SASS from the toolkit's nvdisasm over the cubin. With a GPU the
// occupancy takes that GPU's limits instead.
#pragma once

#include "compile/nvrtc.hpp"
#include "driver/device.hpp"
#include "lesson/lesson.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace wb {

// One kernel as ptxas reports it ("ptxas info : Used 23 registers, ...").
struct KernelUsage {
    std::string entry;             // the name ptxas gives it (extern "C" names are plain)
    int registers = 0;             // per thread
    int barriers = 0;
    long long shared_static = 0;   // bytes per block
    long long constant = 0;        // cmem[0] bytes (parameters and __constant__)
    long long stack_frame = 0;     // bytes per thread
    long long spill_stores = 0;    // bytes
    long long spill_loads = 0;     // bytes
};

// The kernels in an NVRTC log compiled with --ptxas-options=-v, in order.
std::vector<KernelUsage> parse_ptxas_usage(std::string_view log);

// How many blocks of a kernel an SM holds at once, and what stops more.
struct Occupancy {
    int block_threads = 0;
    long long dynamic_shared = 0;
    int active_blocks = 0;         // per SM; 0: this launch cannot run at all
    int active_warps = 0;          // per SM
    int max_warps = 0;             // per SM
    double fraction() const { return max_warps > 0 ? double(active_warps) / max_warps : 0.0; }
    // What limits the blocks per SM: "warps", "registers", "shared memory",
    // "blocks", "barriers" (every one at the minimum).
    std::vector<std::string> limited_by;
    int blocks_by_warps = 0, blocks_by_registers = 0, blocks_by_shared = 0, blocks_by_blocks = 0;
    long long shared_allocated = 0;   // per block, with the driver's reserve and granularity
    int registers_allocated = 0;      // per block, in allocation units
    std::string error;                // the calculator refused the input
};

// The largest block (a whole number of warps) whose registers fit in a
// block's register file: registers are given to each warp in units of 256.
int largest_block_for_registers(const DeviceLimits& limits, int registers_per_thread);

// `cc` is the compute capability (90 for sm_90); `limits` the GPU's, or
// limits_for_arch(cc) without one.
Occupancy occupancy(int cc, const DeviceLimits& limits, const KernelUsage& kernel, int block_threads,
                    long long dynamic_shared);

// The same for every block size from one warp to the kernel's limit, in
// steps of a warp: the chart against block size.
std::vector<Occupancy> occupancy_by_block_size(int cc, const DeviceLimits& limits, const KernelUsage& kernel,
                                               long long dynamic_shared);

// A listing of PTX or SASS with the student's source lines woven in: a
// source line is shown before the instructions that came from it, again
// each time the compiler's order returns to it.
struct ListingLine {
    std::string text;
    int source_line = 0;   // the student's line this instruction came from; 0: none
    bool is_source = false;  // the source line itself (its text), not an instruction
};
using Listing = std::vector<ListingLine>;

// PTX compiled with -lineinfo: ".loc FILE LINE COL" names the lines of the
// file whose ".file" name is `origin`.
Listing ptx_listing(std::string_view ptx, const SourceText& source);
// nvdisasm's output with --print-line-info: "//## File "NAME", line N" comments.
Listing sass_listing(std::string_view sass, const SourceText& source);

// The toolkit's nvdisasm (cuda_home()/bin, then PATH); empty when missing.
std::string find_nvdisasm();
// Disassembles a cubin with line info. Throws wb::Error (Io) when nvdisasm
// is not installed, saying which package has it, or when it fails.
std::string disassemble_cubin(const std::string& cubin);

// A step's source compiled for looking inside: the cubin with ptxas's report,
// and (when `want_ptx`) the PTX of the same source.
struct Inspection {
    std::string arch;        // "sm_90"
    int cc = 0;              // 90
    CompileResult cubin;     // ok=false: the source does not compile (its diagnostics say why)
    CompileResult ptx;
    std::vector<KernelUsage> kernels;
};
Inspection inspect_source(const SourceText& source, const Step& step, const std::string& arch, bool want_ptx);

// What a front end shows of a step's compiled kernels: the resources, and the
// PTX and SASS listings. It travels from the worker to the GUI; occupancy is
// computed where it is drawn, from `kernels` and the limits there.
struct InspectionReport {
    std::string arch;
    int cc = 0;
    std::vector<KernelUsage> kernels;
    Listing ptx;
    Listing sass;
    std::string sass_unavailable;   // why `sass` is empty (no nvdisasm, or it failed)
};

// inspect_source with PTX, plus SASS when nvdisasm is there. A source that
// does not compile gives an empty report (the compile's diagnostics say why).
InspectionReport inspect_report(const SourceText& source, const Step& step, const std::string& arch);

}  // namespace wb
