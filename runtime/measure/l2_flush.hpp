// runtime/measure/l2_flush.hpp — a cold L2 before a sample, as nvbench's
// cold measurement has it: a memset of an L2-sized scratch buffer evicts
// whatever the kernel's buffers left there.
#pragma once

#include "driver/gpu.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace wb {

class L2Flush {
public:
    // Flushes only when asked (not `warm`) and the buffers (`working_set`
    // bytes) fit in this L2 of `l2_bytes`: a working set that overflows it
    // leaves nothing of the last sample there to evict.
    L2Flush(const Driver& d, std::size_t l2_bytes, std::uint64_t working_set, bool warm);

    bool enabled() const { return scratch_.has_value(); }
    void flush() const;                  // on the default stream, synchronously ordered with the next launch
    void flush_on(CUstream stream) const;  // on `stream`, so a graph can capture it

private:
    const Driver* d_;
    std::size_t bytes_ = 0;
    std::optional<DeviceBuffer> scratch_;
};

}  // namespace wb
