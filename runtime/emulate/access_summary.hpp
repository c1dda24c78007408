// runtime/emulate/access_summary.hpp — RunResult::access: per source line,
// the warp-level requests, 32-byte sectors and shared-memory bank conflicts
// of the sampled blocks' accesses, and each sampled thread's reads and writes.
// Plain data; made by AccessRecord::summarise (access_record.hpp) on the
// CPU emulator, carried by the result's JSON form (pipeline/result_json.hpp).
// docs/memory-access.md defines each figure and the Nsight Compute counter it matches.
#pragma once

#include "core/phrase.hpp"

#include <array>
#include <string>
#include <vector>

namespace wb {

// One source line's accesses of one kind to one memory space, in the sampled blocks.
struct AccessLine {
    std::string file;   // as the kernel was compiled ("kernel.cu"); "" when the line table does not say
    int line = 0;
    std::string op;     // "load", "store" or "atomic"
    std::string space;  // "global" or "shared"
    long long requests = 0;       // warp-level requests (an instruction executed by the lanes of a warp)
    long long sectors = 0;        // global: 32-byte sectors, summed over the requests
    long long wavefronts = 0;     // shared: passes the banks needed, summed over the requests
    long long ideal_wavefronts = 0;  // shared: the passes the same bytes need without a conflict (one per 128 bytes)
    double sectors_per_request = 0;  // global: sectors / requests (4 for a warp of consecutive floats)
    double bank_conflict_ways = 0;   // shared: wavefronts / ideal_wavefronts (1: no conflict; 32: 32-way)
};

// One sampled thread's accesses (an atomic is counted as an atomic, not as a read or a write).
struct AccessThread {
    int launch = 0;                    // AccessSampledLaunch::number
    std::array<long long, 3> block{};  // blockIdx
    std::array<long long, 3> thread{}; // threadIdx
    long long global_reads = 0, global_writes = 0, global_atomics = 0;
    long long shared_reads = 0, shared_writes = 0, shared_atomics = 0;
};

// A launch whose blocks were sampled: the run's launches and passes in order, from 0.
struct AccessSampledLaunch {
    int number = 0;
    std::string kernel;
    long long blocks = 0;                           // in its grid
    std::vector<std::array<long long, 3>> sampled;  // blockIdx of the recorded ones
};

// RunResult::access (the CPU emulator's record), or RunResult::profile
// (Nsight Compute's source counters, profile/ncu.hpp). `not_recorded` says why
// there is nothing, when there is nothing.
struct AccessSummary {
    std::string source;  // "" the emulator's sampled blocks; "ncu" every block, from Nsight Compute
    std::vector<AccessLine> lines;      // in file and line order, then op and space
    std::vector<AccessThread> threads;  // by launch, block, then thread
    std::vector<AccessSampledLaunch> launches;
    bool truncated = false;  // the record reached its cap: later accesses are not in it
    Sentence not_recorded;
};

}  // namespace wb
