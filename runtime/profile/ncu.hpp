// runtime/profile/ncu.hpp — Nsight Compute: the command that wraps a run, and
// its per-line memory table.
//
// "Profile this run" (RunRequest::profile) runs the step once more in a
// one-shot worker under `ncu` from the CUDA Toolkit, found the way nvdisasm
// and compute-sanitizer are. ncu collects its SourceCounters section for the
// step's kernels and, when the worker exits, prints its source page as CSV:
// per SASS instruction, with the CUDA source line it came from (kernels are
// compiled with -lineinfo), the executions, the memory space and operation,
// the L2 theoretical sectors (global) and the L1 shared-memory wavefronts.
// parse_ncu_source_page() folds that into the rows the emulator's access
// record gives (emulate/access_summary.hpp), so the front ends draw both with
// one table. This file does no I/O beyond looking the program up, so the
// parser is tested on captured output in CI; docs/memory-access.md says which
// counter is which figure.
#pragma once

#include "emulate/access_summary.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace wb {

// <cuda_home>/bin/ncu, then PATH; empty when there is none.
std::filesystem::path find_ncu(const std::filesystem::path& cuda_home);

// The command to put before the worker: {".../ncu", "--section", "SourceCounters",
// "--page", "source", "--csv", "--print-source", "cuda,sass", ...}, limited to
// `kernels` when it names any. Throws wb::Error (NoDevice) when ncu is absent.
std::vector<std::string> ncu_wrapper(const std::filesystem::path& cuda_home, const std::vector<std::string>& kernels);

// The source pages in ncu's output (other lines, the kernel's printf and the
// worker's own, are skipped wherever they fall) as the access table: per
// source line, memory space (global, shared) and operation (load, store,
// atomic), the warp-level instructions executed ("requests"), the L2
// theoretical sectors (global) and the L1 wavefronts and ideal wavefronts
// (shared). The pipeline validates a case twice, so when the profiled
// launches are the same kernels twice over, only the first half (the first
// validation run) is counted. `not_recorded` says why the table is empty:
// ncu profiled nothing, could not read the GPU's counters, or printed more
// than the worker keeps (the output ends "[output truncated at N KiB]").
AccessSummary parse_ncu_source_page(const std::string& output);

}  // namespace wb
