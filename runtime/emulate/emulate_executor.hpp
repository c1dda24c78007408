// runtime/emulate/emulate_executor.hpp — a kernel step's kernels on the CPU
// emulator (emulator.hpp): one of the run's three executors
// (pipeline/executor.hpp), for a machine without a GPU or a student who asks.
//
// The same poison, guard zones, two validation runs and verdict as on the
// GPU; a fault (a bad access, a trap, a deadlock) stops the run at the
// student's line. Nothing is timed: the launches' wall time on the CPU is
// said, and what the emulator cannot judge (a required race check, a speed
// target) is said, never passed over.
#pragma once

#include "pipeline/executor.hpp"

#include <memory>

namespace wb {

std::unique_ptr<StepExecutor> make_emulate_executor(const StepInputs& in);

}  // namespace wb
