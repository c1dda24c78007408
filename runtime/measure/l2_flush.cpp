// runtime/measure/l2_flush.cpp — a cold L2 before a sample (l2_flush.hpp).
#include "measure/l2_flush.hpp"

#include "compile/nvrtc.hpp"
#include "core/error.hpp"

#include <algorithm>

namespace wb {

namespace {

// Reads every 16-byte word of the scratch; the sum is kept only so the reads
// cannot be left out (the scratch holds zeros, so *sink is never written).
constexpr const char* kFlushSource = R"(
extern "C" __global__ void wb_l2_clean_flush(const int4* __restrict__ p, unsigned long long words, int* sink)
{
    int acc = 0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < words;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        const int4 v = p[i];
        acc += v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x5eed1e55) *sink = acc;
}
extern "C" __global__ void wb_sample_end() {}
)";

}  // namespace

L2Flush::L2Flush(const Driver& d, std::size_t l2_bytes, std::uint64_t working_set, bool warm) : d_(&d), bytes_(l2_bytes) {
    if (!warm && l2_bytes > 0 && working_set <= l2_bytes) scratch_.emplace(d, l2_bytes);
}

void L2Flush::flush() const {
    if (scratch_) d_->check(d_->api().cuMemsetD8(scratch_->ptr(), 0, bytes_), "flushing L2 (cuMemsetD8)");
}

void L2Flush::flush_on(CUstream stream) const {
    if (scratch_) d_->check(d_->api().cuMemsetD8Async(scratch_->ptr(), 0, bytes_, stream), "flushing L2 (cuMemsetD8Async)");
}

CleanL2Flush::CleanL2Flush(const GpuContext& ctx) : d_(&ctx.driver()) {
    const std::size_t l2 = static_cast<std::size_t>(std::max(ctx.info().l2_bytes, 1 << 20));
    words_ = 2 * l2 / 16;
    scratch_ = DeviceBuffer(*d_, words_ * 16);
    scratch_.fill_bytes(0);
    sink_ = DeviceBuffer(*d_, sizeof(int));
    CompileOptions options;
    options.arch = ctx.info().arch();
    options.line_info = false;
    options.entries = {kCleanFlushKernel, kSampleEndKernel};
    const CompileResult c = compile_cuda(SourceText{kFlushSource, "l2_clean_flush.cu", ""}, options);
    if (!c.ok)
        throw Error(ErrorKind::Internal, "the L2 flush kernel did not compile: " +
                                             (c.diagnostics.empty() ? c.log : c.diagnostics[0].message));
    module_ = std::make_unique<GpuModule>(*d_, c.image);
    flush_ = module_->function(kCleanFlushKernel, kCleanFlushKernel);
    end_ = module_->function(kSampleEndKernel, kSampleEndKernel);
    blocks_ = unsigned(std::max(1, ctx.info().sm_count) * 4);
}

void CleanL2Flush::clean_flush_on(CUstream stream) const {
    CUdeviceptr p = scratch_.ptr(), sink = sink_.ptr();
    unsigned long long words = words_;
    void* args[] = {&p, &words, &sink};
    d_->check(d_->api().cuLaunchKernel(flush_, blocks_, 1, 1, 512, 1, 1, 0, stream, args, nullptr), "flushing L2 (a read of twice its size)");
}

void CleanL2Flush::sample_end_on(CUstream stream) const {
    d_->check(d_->api().cuLaunchKernel(end_, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr), "marking a sample's end");
}

}  // namespace wb
