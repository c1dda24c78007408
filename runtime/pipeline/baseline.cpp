// runtime/pipeline/baseline.cpp — baselines' labels and the CUB kernel (baseline.hpp).
// The run itself is in run.cpp, beside the student's timing, whose buffers and sampler it uses.
#include "pipeline/baseline.hpp"

namespace wb {

std::string baseline_label(const BaselineSpec& spec) {
    switch (spec.kind) {
    case BaselineKind::CublasSgemm: return "cuBLAS SGEMM";
    case BaselineKind::Memcpy: return "device memcpy " + spec.buffers.at("from") + " -> " + spec.buffers.at("to");
    case BaselineKind::CubReduceSum: return "CUB BlockReduce sum";
    }
    return "?";
}

namespace {

// A grid-stride sum per thread, cub::BlockReduce over the block, one atomicAdd
// per block: what the reduction lesson's last step builds by hand.
constexpr const char* kCubReduceSource = R"(
#include <cub/block/block_reduce.cuh>

extern "C" __global__ void cub_reduce_sum(const float* in, float* out, int n) {
    using BlockReduce = cub::BlockReduce<float, 256>;
    __shared__ typename BlockReduce::TempStorage temp;
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += in[i];
    const float block_sum = BlockReduce(temp).Sum(sum);
    if (threadIdx.x == 0) atomicAdd(out, block_sum);
}
)";

}  // namespace

CompileResult compile_cub_reduce(const std::string& arch) {
    CompileOptions options;
    options.arch = arch;
    options.line_info = false;
    options.entries = {"cub_reduce_sum"};
    return compile_cuda(SourceText{kCubReduceSource, "cub_reduce_sum.cu", ""}, options);
}

}  // namespace wb
