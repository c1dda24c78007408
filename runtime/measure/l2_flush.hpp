// runtime/measure/l2_flush.hpp — a cold L2 before a sample.
//
// Two ways, for the two ways a sample is timed (kernel_timing.hpp):
//   - flush(), flush_on(): a memset of an L2-sized scratch buffer, as
//     nvbench's cold measurement has it; the L2 is left full of dirty lines,
//     whose write-back the next kernel pays for, so with events it is used
//     only when the buffers fit in L2;
//   - clean_flush_on(): a kernel that reads a scratch buffer twice the L2's
//     size, leaving it full of clean lines, as Nsight Compute's cache control
//     leaves it. Its own time is outside the sample when samples are the
//     kernels' own times (CUPTI), and so is the write-back it forces. It is
//     followed by sample_end_on(), an empty kernel that marks where a
//     sample's work ends in the records.
#pragma once

#include "driver/gpu.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

namespace wb {

// The names the two marker kernels have in CUPTI's records.
constexpr const char* kCleanFlushKernel = "wb_l2_clean_flush";
constexpr const char* kSampleEndKernel = "wb_sample_end";

class L2Flush {
public:
    // Flushes only when asked (not `warm`) and the buffers (`working_set`
    // bytes) fit in this L2 of `l2_bytes`: a working set that overflows it
    // leaves nothing of the last sample there to evict.
    L2Flush(const Driver& d, std::size_t l2_bytes, std::uint64_t working_set, bool warm);

    bool enabled() const { return scratch_.has_value(); }
    void flush() const;                    // on the default stream
    void flush_on(CUstream stream) const;  // on `stream`, so a graph can capture it

private:
    const Driver* d_;
    std::size_t bytes_ = 0;
    std::optional<DeviceBuffer> scratch_;
};

// The clean flush and the sample-end marker: compiled by NVRTC for the GPU's
// architecture (cached like any kernel) and loaded once.
class CleanL2Flush {
public:
    // Throws wb::Error when the kernels do not compile or load.
    CleanL2Flush(const GpuContext& ctx);
    void clean_flush_on(CUstream stream) const;
    void sample_end_on(CUstream stream) const;

private:
    const Driver* d_;
    std::size_t words_ = 0;  // int4 words in the scratch
    DeviceBuffer scratch_, sink_;
    std::unique_ptr<GpuModule> module_;
    CUfunction flush_ = nullptr, end_ = nullptr;
    unsigned blocks_ = 1;
};

}  // namespace wb
