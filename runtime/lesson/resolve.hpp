// runtime/lesson/resolve.hpp — a lesson step's rules evaluated for one run:
// its params for a case, each launch's sizes and passes, its tolerances and
// access limits, its buffers and its __constant__ bytes.
//
// These are the lesson's own rules, the same wherever the step runs (the GPU,
// host steps, the CPU emulator) and wherever it is shown (the GUI's launch
// panel, the CLI): a bad value fails here with the lesson's JSON path.
#pragma once

#include "compare/compare.hpp"
#include "data/buffers.hpp"
#include "driver/device.hpp"
#include "lesson/expr.hpp"
#include "lesson/lesson.hpp"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wb {

// Changes to one launch's configuration. Unset fields come from the lesson.
// When only the block is set, the lesson's grid expression is evaluated with
// the new block, so the grid still covers the problem.
struct LaunchOverride {
    std::optional<std::array<long long, 3>> block;
    std::optional<std::array<long long, 3>> grid;
    std::optional<long long> shared_bytes;
};

// Param values for a case: defaults, then the case, then `overrides`. Throws
// wb::Error (Usage) for an unknown name or a value outside the param's bounds.
std::map<std::string, double> resolve_params(const Step& step, const TestCase* test_case,
                                             const std::map<std::string, double>& overrides);

// Evaluates a launch's block, grid and shared memory with `params` and the
// override. Throws wb::Error (Expression) with the JSON path of the bad expression.
// In a multi-pass launch, `pass` is the pass number its expressions see.
LaunchDims resolve_launch(const LaunchSpec& spec, const std::map<std::string, double>& params,
                          const LaunchOverride* override_ = nullptr, long long pass = 0);

// How many passes a launch makes with `params`: 1 without "passes", else its
// expression, which must give a whole number from 0 to kMaxPasses.
long long resolve_passes(const LaunchSpec& spec, const std::map<std::string, double>& params);

// The device heap's size in bytes for these params: the step's
// limits.malloc_heap_bytes, else CUDA's default. Throws wb::Error
// (Expression) with the JSON path when it is not a whole number from
// kMinMallocHeapBytes to kMaxMallocHeapBytes.
long long resolve_malloc_heap(const Step& step, const std::map<std::string, double>& params);

// The compare list with each tolerance expression evaluated for these params.
// Throws wb::Error (Expression) for one that does not give a finite number >= 0.
std::vector<CompareSpec> resolve_compare(const Step& step, const std::map<std::string, double>& params);

// A step's access limit (checks.access) with its bounds for these params.
struct AccessLimitBounds {
    const AccessLimitSpec* spec = nullptr;  // in the step, which outlives the run
    std::optional<long long> at_most, at_least;  // a count's; `exactly` sets both
    double figure_at_most = 0;                   // a figure's
};

// The step's access limits with each bound evaluated for these params.
// Throws wb::Error (Expression) with the bound's JSON path for one that does
// not give a whole number >= 0.
std::vector<AccessLimitBounds> resolve_access_limits(const Step& step, const std::map<std::string, double>& params);

// A step's host buffers for a case: each made as its spec says, unless the
// case gives an input other contents; an output with "fill" holds that value.
std::vector<HostBuffer> make_step_buffers(const Step& step, const TestCase* tc, const ExprVars& vars);

// Whether the lesson fills this output ("fill": kernels accumulate into it):
// it starts from its host copy in every run, and is never poisoned.
bool filled_by_lesson(const Step& step, const HostBuffer& h);

// The bytes a __constant__ variable is filled with: an input buffer's, or
// the lesson's values evaluated for these params and converted to its type.
std::vector<unsigned char> constant_bytes(const ConstantSpec& c, const std::vector<HostBuffer>& host,
                                          const std::map<std::string, double>& params);

// A number as a lesson writes it: "1024", "0.5".
std::string format_number(double v);

}  // namespace wb
