// runtime/compile/remote_build.cpp — the process-wide builder (remote_build.hpp).
#include "compile/remote_build.hpp"

#include <atomic>

namespace wb {

namespace {
std::atomic<RemoteBuilder*> g_builder{nullptr};
}  // namespace

void set_remote_builder(std::unique_ptr<RemoteBuilder> builder) {
    // Kept for the process's life: callers hold the pointer without a lock.
    g_builder.store(builder.release());
}

RemoteBuilder* remote_builder() { return g_builder.load(); }

}  // namespace wb
