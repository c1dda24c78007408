// runtime/host/host_executor.hpp — a host step's run() on the GPU: one of the
// run's three executors (pipeline/executor.hpp).
//
// run() is called from a loaded library over copies of the step's host
// buffers (page-locked when the step asks), twice over poisoned outputs and
// judged as a kernel's outputs are; a call that returns an error, leaves
// memory allocated, or returns while the GPU still works fails the run. It
// is timed by measure/host_timing.hpp, and set against its target step.
#pragma once

#include "driver/gpu.hpp"
#include "host/host_build.hpp"
#include "pipeline/executor.hpp"

#include <memory>

namespace wb {

std::unique_ptr<StepExecutor> make_host_executor(const StepInputs& in, const GpuContext& ctx, const HostStepBuild& build,
                                                 int ordinal);

}  // namespace wb
