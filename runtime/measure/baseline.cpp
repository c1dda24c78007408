// runtime/measure/baseline.cpp — baselines' labels and the CUB kernel (baseline.hpp).
// The run itself is in run.cpp, beside the student's timing, whose buffers and sampler it uses.
#include "measure/baseline.hpp"

namespace wb {

std::string baseline_label(const BaselineSpec& spec) {
    switch (spec.kind) {
    case BaselineKind::CublasSgemm: return "cuBLAS SGEMM";
    case BaselineKind::Memcpy: return "device memcpy " + spec.buffers.at("from") + " -> " + spec.buffers.at("to");
    case BaselineKind::CubReduceSum: return "CUB BlockReduce sum";
    case BaselineKind::CubScanSum: return "CUB BlockScan inclusive sum";
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

// A device-wide inclusive scan from CUB's block primitives, the classic three
// passes (scan tiles, scan their totals, add the offsets): what the scan
// lesson's multi-block step builds by hand. CUB's own single-pass
// DeviceScan is host code, which NVRTC cannot compile.
constexpr const char* kCubScanSource = R"(
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

constexpr int kThreads = 256, kItems = 8, kTile = kThreads * kItems;

template <typename T>
__device__ void scan_tiles(const T* in, T* out, T* totals, int n) {
    using Load = cub::BlockLoad<T, kThreads, kItems, cub::BLOCK_LOAD_TRANSPOSE>;
    using Scan = cub::BlockScan<T, kThreads>;
    using Store = cub::BlockStore<T, kThreads, kItems, cub::BLOCK_STORE_TRANSPOSE>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Scan::TempStorage scan;
        typename Store::TempStorage store;
    } temp;
    const long long first = (long long)blockIdx.x * kTile;
    const int valid = (int)min((long long)kTile, (long long)n - first);
    T items[kItems];
    Load(temp.load).Load(in + first, items, valid, T(0));
    __syncthreads();
    T total;
    Scan(temp.scan).InclusiveSum(items, items, total);
    __syncthreads();
    Store(temp.store).Store(out + first, items, valid);
    if (threadIdx.x == 0) totals[blockIdx.x] = total;
}

template <typename T>
__device__ void scan_totals(T* totals, int tiles) {
    using Scan = cub::BlockScan<T, kThreads>;
    __shared__ typename Scan::TempStorage temp;
    T carry = T(0);
    for (int base = 0; base < tiles; base += kThreads) {
        const int i = base + threadIdx.x;
        const T v = i < tiles ? totals[i] : T(0);
        T prefix, chunk;
        Scan(temp).ExclusiveSum(v, prefix, chunk);
        __syncthreads();
        if (i < tiles) totals[i] = carry + prefix;
        carry += chunk;
    }
}

template <typename T>
__device__ void scan_add(T* out, const T* totals, int n) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] += totals[i / kTile];
}

#define WB_SCAN_ENTRIES(T, NAME)                                                                          \
    extern "C" __global__ void cub_scan_tiles_##NAME(const T* in, T* out, T* totals, int n) {            \
        scan_tiles<T>(in, out, totals, n);                                                               \
    }                                                                                                    \
    extern "C" __global__ void cub_scan_totals_##NAME(T* totals, int tiles) { scan_totals<T>(totals, tiles); } \
    extern "C" __global__ void cub_scan_add_##NAME(T* out, const T* totals, int n) { scan_add<T>(out, totals, n); }
WB_SCAN_ENTRIES(float, f32)
WB_SCAN_ENTRIES(int, i32)
)";

}  // namespace

CompileResult compile_cub_scan(const std::string& arch) {
    CompileOptions options;
    options.arch = arch;
    options.line_info = false;
    for (const char* type : {"f32", "i32"})
        for (const char* pass : {"tiles", "totals", "add"})
            options.entries.push_back(std::string("cub_scan_") + pass + "_" + type);
    return compile_cuda(SourceText{kCubScanSource, "cub_scan_sum.cu", ""}, options);
}

CompileResult compile_cub_reduce(const std::string& arch) {
    CompileOptions options;
    options.arch = arch;
    options.line_info = false;
    options.entries = {"cub_reduce_sum"};
    return compile_cuda(SourceText{kCubReduceSource, "cub_reduce_sum.cu", ""}, options);
}

}  // namespace wb
