// runtime/measure/l2_flush.cpp — a cold L2 before a sample (l2_flush.hpp).
#include "measure/l2_flush.hpp"

namespace wb {

L2Flush::L2Flush(const Driver& d, std::size_t l2_bytes, std::uint64_t working_set, bool warm) : d_(&d), bytes_(l2_bytes) {
    if (!warm && l2_bytes > 0 && working_set <= l2_bytes) scratch_.emplace(d, l2_bytes);
}

void L2Flush::flush() const {
    if (scratch_) d_->check(d_->api().cuMemsetD8(scratch_->ptr(), 0, bytes_), "flushing L2 (cuMemsetD8)");
}

void L2Flush::flush_on(CUstream stream) const {
    if (scratch_) d_->check(d_->api().cuMemsetD8Async(scratch_->ptr(), 0, bytes_, stream), "flushing L2 (cuMemsetD8Async)");
}

}  // namespace wb
