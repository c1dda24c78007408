// runtime/pipeline/executor.hpp — where a step's code runs, behind one small interface.
//
// The run's order (run.cpp) is the same wherever the code runs: prepare,
// validate twice with different poison, judge, measure, check the timed
// outputs again, then what is timed beside the step. Three executors fill
// it in:
//   driver/gpu_executor      a kernel step's kernels on the GPU, through the driver API
//   host/host_executor       a host step's run() on the GPU, as a loaded library
//   emulate/emulate_executor a kernel step's kernels on the CPU emulator
// Validation, keeping the reference's outputs and the verdict live above
// them (run.cpp, verdict.hpp): an executor only runs code and reports
// what it left.
#pragma once

#include "pipeline/run.hpp"

#include <optional>
#include <vector>

namespace wb {

// What a run counted for the step's access limits (lesson checks.access):
// the CPU emulator's first, checked validation run, over every thread of
// every launch. Per limit, in the lesson's order; a figure's count is empty,
// and `figures` holds the record its figures come from.
struct AccessCounts {
    // Whom a count names, as the student's code sees it.
    struct Who {
        std::string kernel;
        long long pass = -1;  // of a launch with passes; -1 when it makes one
        std::array<long long, 3> block{}, thread{};
        long long element = 0;  // a count per element's
    };
    struct Count {
        long long counted = 0;  // threads, or elements
        long long outside = 0;  // of them, how many broke a bound
        long long max = 0, min = 0;
        Who max_at, min_at;     // the first with each
    };
    std::vector<Count> counts;
    std::optional<AccessSummary> figures;  // with a figure limit: the sampled blocks' record
    bool several_launches = false;         // more than one launch (or pass) ran: a thread is named with its kernel
};

// What every executor is given for one run. `host` holds the step's buffers
// as made (inputs, and outputs' fill values), in the step's order; it is
// never written.
struct StepInputs {
    const RunRequest& req;
    const Step& step;
    const SourceText& source;
    const std::vector<CompareSpec>& compare;
    const std::vector<AccessLimitBounds>& access_limits;  // the step's checks.access, for this case
    const std::vector<std::vector<unsigned char>>& constants;  // the bytes of step.constants[i]
    const std::vector<HostBuffer>& host;
    const std::vector<HostBuffer>& reference_out;
    // The device heap's size for this run's launches (resolve_malloc_heap):
    // the emulator's heap has it; on a GPU the run has set the context's
    // limit to it before the executor loads anything.
    long long malloc_heap_bytes = kDefaultMallocHeapBytes;
};

class StepExecutor {
public:
    virtual ~StepExecutor() = default;

    // Loads the compiled code and checks what only it can tell (the kernel's
    // parameter list, registers and shared memory, its __constant__
    // variables). False when the run stops here; r's status and message say why.
    virtual bool prepare(RunResult& r) = 0;

    // One validation run from the inputs as made, with outputs poisoned with
    // `poison` and guard zones holding `guard`: the outputs and in-outs as
    // it left them, in the step's order. `first` is the first run's, which a
    // second run that left the same bytes may share. nullopt when the run
    // failed (a fault, an error of run()); r says how.
    virtual std::optional<std::vector<HostBuffer>> validate(RunResult& r, unsigned char poison, unsigned char guard,
                                                            const std::vector<HostBuffer>* first) = 0;

    // The first guard zone either validation run wrote; empty when none.
    virtual Sentence out_of_bounds() const { return {}; }

    // What the validation runs counted for the step's access limits; nullopt
    // where nothing was (a GPU, a host step, a step without limits).
    virtual std::optional<AccessCounts> access_counts() const { return std::nullopt; }

    // What the runs did that CUDA leaves undefined (the emulator's warp
    // operation whose mask leaves out its own lane), said after the verdict
    // whatever it is; empty when nothing.
    virtual Sentence warnings() const { return {}; }

    // After both runs passed: times the step, where this executor can and
    // the request asks, into r. Gives the outputs as the last timed run
    // left them, for the check after timing; nullopt when nothing was timed,
    // or r already says the timing failed.
    virtual std::optional<std::vector<HostBuffer>> measure(RunResult& r) = 0;

    // After the check after timing: what is measured beside the step (a
    // kernel step's baseline, a host step's target).
    virtual void beside(RunResult&) {}
};

}  // namespace wb
