// runtime/reference/isolated.hpp — runs a loaded CPU reference in a child process under limits.
//
// The reference is the instructor's C++ (or, for a lesson from elsewhere,
// anyone's), run natively inside the worker beside its CUDA context. A
// reference that crashes, allocates without end or loops must not take that
// context with it, and must not eat the machine. So each call forks: the child
// lowers RLIMIT_AS (address space: what it has now plus a budget) and
// RLIMIT_CPU, calls the reference, and exits. Nothing is copied for it: the
// child reads the inputs where the fork left them, and writes its outputs
// into blocks shared with the worker (data/bytes.hpp, SharedWithChildren). A crash, a blown memory budget or the
// CPU limit becomes a wb::Error (Reference) that says which, and the worker
// and its CUDA context carry on. The child makes no CUDA call.
#pragma once

#include "data/buffers.hpp"
#include "reference/reference.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace wb {

struct ReferenceLimits {
    // Address space the reference may add to what the worker already maps
    // (the CUDA driver alone reserves tens of GiB of it).
    std::uint64_t extra_address_space = 4ull << 30;
    double cpu_seconds = 30;  // CPU time; the run's own deadline still applies
};

// The limits for a run whose deadline is `timeout_s` and whose buffers hold
// `buffer_bytes`: CPU time up to the deadline on each core this process may
// run on (an OpenMP reference's threads all count), memory of 4 GiB plus
// twice the buffers. WB_REFERENCE_MEMORY_MB, when set, replaces the memory budget.
ReferenceLimits reference_limits(double timeout_s, std::uint64_t buffer_bytes);

// Builds the reference's argument array, given where each named buffer lives.
using ReferenceArgs = std::function<void**(const std::function<void*(const std::string& name)>& address_of)>;

// How long the reference took. The first call is cold (caches, OpenMP's
// threads starting; the buffers' pages are mapped before it). When it took
// under kWarmRunsUnder and writes at most kWarmRestoreBytes, it runs again on
// the same inputs (what it writes restored each time) up to kWarmRuns times
// within kWarmBudget, and `seconds` is the median of those warm calls.
struct ReferenceTiming {
    double seconds = 0;        // the warm median, or the one cold call
    double cold_seconds = 0;
    int warm_runs = 0;         // 0: `seconds` is the cold call
    int threads = 1;           // the threads the reference's process had after its call (OpenMP's pool)
};
constexpr double kWarmRunsUnder = 0.25;  // seconds
constexpr int kWarmRuns = 5;
constexpr double kWarmBudget = 1.0;      // seconds for all the warm calls
constexpr std::size_t kWarmRestoreBytes = std::size_t(64) << 20;

// Runs `reference` in a child process under `limits` on `buffers` (inputs as
// given; outputs and inouts get blocks of their own, holding what the
// reference wrote).
// Throws wb::Error (Reference) when the reference crashed, went over a limit,
// or the child could not be made.
ReferenceTiming run_reference_isolated(const LoadedReference& reference, std::vector<HostBuffer>& buffers,
                                       const ReferenceArgs& args, const ReferenceLimits& limits);

}  // namespace wb
