// runtime/pipeline/reference_run.hpp — a step's inputs, and the CPU
// reference's outputs on them, kept for the next runs.
//
// Inputs follow from the lesson's text, the files it was made from (images),
// the step, the case and the params; the reference's outputs from its
// library and those inputs. A re-run, or an edit of the kernel alone, takes
// both from the last runs instead of drawing 10^8 random floats or forking
// the reference again. None kept holds over kKeptBuffersBytes of its own.
#pragma once

#include "pipeline/run.hpp"
#include "core/recent_cache.hpp"
#include "reference/isolated.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wb {

class ReferenceRunner {
public:
    // The step's host buffers for this case and r.params (make_step_buffers),
    // made or taken from a recent run; `key` names them for outputs().
    std::vector<HostBuffer> inputs(const RunRequest& req, const Step& step, const TestCase* tc, const RunResult& r,
                                   std::string& key);

    // The built reference (r.reference) run on `host` in a child process
    // under memory and CPU limits (reference/isolated.hpp): a crashing or
    // runaway reference is reported, and the caller's CUDA context is
    // untouched. Its compared outputs start poisoned, as a kernel's do, so an
    // element it leaves unwritten is the lesson's error (r says so; nullopt)
    // rather than compared as whatever was there. Fills r's CPU time fields.
    std::optional<std::vector<HostBuffer>> outputs(const RunRequest& req, const Step& step,
                                                   const std::vector<CompareSpec>& compare,
                                                   const std::vector<HostBuffer>& host, const std::string& key, RunResult& r);

private:
    struct Kept {
        std::vector<HostBuffer> outputs;
        ReferenceTiming timing;
    };
    static constexpr std::uint64_t kKeptBuffersBytes = 1ull << 30;
    RecentCache<std::vector<HostBuffer>> inputs_{2};
    RecentCache<Kept> references_{2};
};

}  // namespace wb
