// runtime/emulate/access_summary.hpp — RunResult::access: per source line,
// the warp-level requests, 32-byte sectors and shared-memory bank conflicts
// of the sampled blocks' accesses, a few of each line's requests lane by lane,
// and each sampled thread's reads and writes, with its first accesses.
// Plain data; made by AccessRecord::summarise (access_record.hpp) on the
// CPU emulator, carried by the result's JSON form (pipeline/result_json.hpp).
// docs/memory-access.md defines each figure and the Nsight Compute counter it matches.
#pragma once

#include "core/phrase.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace wb {

// The memory the figures are counted in: global memory moves 32-byte sectors,
// shared memory has 32 banks of 4-byte words (word w is in bank w mod 32).
inline constexpr long long kSectorBytes = 32;
inline constexpr int kSharedBanks = 32;
inline constexpr long long kBankWordBytes = 4;
inline constexpr int kWarpLanes = 32;
inline long long sector_of(long long offset) { return offset / kSectorBytes; }
inline long long bank_word_of(long long offset) { return offset / kBankWordBytes; }
inline int bank_of(long long offset) { return static_cast<int>(bank_word_of(offset) % kSharedBanks); }

// A global buffer of the run, or a static __shared__ array, or the rest of
// the block's shared memory: what an access's `buffer` index names (AccessSummary::buffers).
struct AccessBuffer {
    std::string name;       // global: the lesson's buffer, as the launch's args name it; shared: the array's
                            // name ("tile"), or "shared" (extern __shared__, or not known)
    std::string space;      // "global" or "shared"
    int element_bytes = 0;  // its element's size; 0: not known (elements are counted in bytes)
};

// One active lane of a recorded request: where its bytes start, from the
// buffer's start (global) or the shared-memory region's (shared: the banks
// are counted from there).
struct AccessLane {
    int lane = 0;  // 0..31 in its warp
    long long offset = 0;
};

// One warp-level request as recorded: the picture of a line's accesses that
// a student steps through.
struct AccessRequest {
    int launch = 0;                    // AccessSampledLaunch::number
    std::array<long long, 3> block{};  // blockIdx
    int warp = 0;                      // in its block: linear thread index / 32
    int buffer = 0;                    // AccessSummary::buffers index
    long long origin = 0;              // where that buffer starts, in the lanes' offsets (a shared array's place in its region)
    int size = 0;                      // bytes each lane moves (one instruction: one size)
    long long sectors = 0;             // global: distinct 32-byte sectors
    long long wavefronts = 0;          // shared: passes the banks needed
    std::vector<AccessLane> lanes;     // the active ones, by lane
};

// One source line's accesses of one kind to one memory space, in the sampled blocks.
struct AccessLine {
    std::string file;   // as the kernel was compiled ("kernel.cu"); "" when the line table does not say
    int line = 0;
    std::string op;     // "load", "store" or "atomic"
    std::string space;  // "global" or "shared"
    long long requests = 0;       // warp-level requests (an instruction executed by the lanes of a warp)
    long long sectors = 0;        // global: 32-byte sectors, summed over the requests
    long long wavefronts = 0;     // shared: passes the banks needed, summed over the requests
    double sectors_per_request = 0;  // global: sectors / requests (4 for a warp of consecutive floats)
    double bank_conflict_ways = 0;   // shared: wavefronts / least_wavefronts (1: no conflict; 32: 32-way)
    // The fewest the requests' bytes could take, summed: global, each request's
    // distinct bytes in whole sectors; shared, its distinct words in passes of 32.
    long long least_sectors = 0;
    long long least_wavefronts = 0;
    // Requests of a warp whose lanes ran that instruction different numbers of
    // times (the emulator only): lane by lane, the k-th runs make one request,
    // as a loop's k-th iterations do. A GPU pairs them so too where its loop is
    // a loop, but where nvcc unrolled it each iteration is an instruction of
    // its own, and the lanes of one request can differ: the GPU's sectors and
    // ways for such a line can differ a little (docs/memory-access.md).
    long long uneven_requests = 0;
    // Its first requests, in the order the warps met them (at most
    // AccessRecord::kRequestsPerLine, fewer when the kernel has many lines).
    std::vector<AccessRequest> examples;
};

// How a line's figures compare with the fewest its bytes could take: Fits
// (no more), Extra (up to twice: a misaligned start, a 2-way conflict), Heavy
// (more: a strided read, a column of an unpadded tile). The front ends colour
// rows and gutter marks by it.
enum class AccessCost { Fits, Extra, Heavy };
AccessCost access_cost(const AccessLine& line);
const char* access_cost_name(AccessCost cost);  // "fits", "extra", "heavy"

// One of a sampled thread's first accesses.
struct ThreadAccess {
    int row = 0;           // AccessSummary::lines index: its file, line, op and space
    int buffer = 0;        // AccessSummary::buffers index
    long long element = 0; // in the buffer's elements; in bytes when its element_bytes is 0
};

// One sampled thread's accesses (an atomic is counted as an atomic, not as a read or a write).
struct AccessThread {
    int launch = 0;                    // AccessSampledLaunch::number
    std::array<long long, 3> block{};  // blockIdx
    std::array<long long, 3> thread{}; // threadIdx
    long long global_reads = 0, global_writes = 0, global_atomics = 0;
    long long shared_reads = 0, shared_writes = 0, shared_atomics = 0;
    // Its first accesses, in its order (AccessRecord::kThreadAccesses in all,
    // shared out among the threads), and how many more it made.
    std::vector<ThreadAccess> accesses;
    long long accesses_left_out = 0;
};

// A launch whose blocks were sampled: the run's launches and passes in order, from 0.
struct AccessSampledLaunch {
    int number = 0;
    std::string kernel;
    long long blocks = 0;                           // in its grid
    std::vector<std::array<long long, 3>> sampled;  // blockIdx of the recorded ones
    std::array<long long, 3> block_dim{};           // blockDim
};

// RunResult::access (the CPU emulator's record), or RunResult::profile
// (Nsight Compute's source counters, profile/ncu.hpp). `not_recorded` says why
// there is nothing, when there is nothing.
struct AccessSummary {
    std::string source;  // "" the emulator's sampled blocks; "ncu" every block, from Nsight Compute
    std::vector<AccessLine> lines;      // in file and line order, then op and space
    std::vector<AccessThread> threads;  // by launch, block, then thread
    std::vector<AccessSampledLaunch> launches;
    std::vector<AccessBuffer> buffers;  // what the requests' and threads' `buffer` name
    bool truncated = false;  // the record reached its cap: later accesses are not in it
    Sentence not_recorded;
};

}  // namespace wb
