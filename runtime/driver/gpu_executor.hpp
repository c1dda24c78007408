// runtime/driver/gpu_executor.hpp — a kernel step's kernels on the GPU, through
// the driver API: one of the run's three executors (pipeline/executor.hpp).
//
// It loads the compiled module, checks each launch against the compiled
// kernel (parameters, registers, static shared memory), fills __constant__
// variables, and keeps the step's buffers on the GPU with guard zones around
// them. Validation runs start from the inputs as first uploaded; timing is
// measure/'s (KernelTimer), and so is the baseline beside it.
#pragma once

#include "driver/gpu.hpp"
#include "pipeline/executor.hpp"

#include <memory>

namespace wb {

std::unique_ptr<StepExecutor> make_gpu_executor(const StepInputs& in, const GpuContext& ctx,
                                                std::shared_ptr<GpuModule> module);

}  // namespace wb
