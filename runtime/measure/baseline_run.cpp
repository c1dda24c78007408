// runtime/measure/baseline_run.cpp — the lesson's baseline run, checked and
// timed beside the student's kernel (baseline_run.hpp).
#include "measure/baseline_run.hpp"

#include "core/error.hpp"
#include "driver/cublas.hpp"
#include "lesson/expr.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

namespace wb {

BaselineResult run_baseline(const GpuContext& ctx, const BaselineRun& in, KernelTimer& timer, const Timing& t) {
    const Driver& d = ctx.driver();
    const auto& cu = d.api();
    const auto& host = in.host;
    const auto& dev = in.dev;
    const BaselineSpec& spec = in.spec;
    BaselineResult b;
    b.kind = baseline_kind_name(spec.kind);
    b.label = baseline_label(spec);
    b.bytes = in.bytes;
    b.flops = in.flops;
    const ExprVars vars(in.params.begin(), in.params.end());
    auto size = [&](const char* role) { return std::llround(eval_expr(spec.sizes.at(role), vars)); };
    auto index = [&](const char* role) { return buffer_index(host, spec.buffers.at(role)); };
    auto say = [&](Sentence s) {
        b.note = render(s, "en");
        b.note_said = std::move(s);
    };
    auto fits = [&](const char* role, long long need) {
        if (need <= static_cast<long long>(host[index(role)].count())) return true;
        say({{"baseline.buffer_too_small",
              {spec.buffers.at(role), std::to_string(host[index(role)].count()), std::to_string(need)}}});
        return false;
    };
    std::function<void()> before;
    std::function<void(CUstream)> launch;  // on `stream`, so a graph can capture it
    std::optional<CublasHandle> handle;
    std::optional<GpuModule> cub;
    std::optional<DeviceBuffer> scratch;
    const CublasApi* api = nullptr;
    std::size_t copy_bytes = 0;
    bool ready = false;
    switch (spec.kind) {
    case BaselineKind::CublasSgemm: {
        const long long m = size("m"), n = size("n"), k = size("k");
        if (!fits("a", m * k) || !fits("b", k * n) || !fits("c", m * n)) break;
        if (m <= 0 || n <= 0 || k <= 0 || m > INT32_MAX || n > INT32_MAX || k > INT32_MAX) {
            say({{"baseline.size_range", {"m, n, k"}}});
            break;
        }
        std::string why;
        if (!(api = CublasApi::get(why))) {
            say({{"baseline.cublas_not_loaded", {why}}});
            break;
        }
        handle.emplace(*api);
        if (!handle->get()) {
            say({{"baseline.cublas_not_started", {}}});
            break;
        }
        const auto* pa = reinterpret_cast<const float*>(dev[index("a")].ptr());
        const auto* pb = reinterpret_cast<const float*>(dev[index("b")].ptr());
        auto* pc = reinterpret_cast<float*>(dev[index("c")].ptr());
        launch = [&, m, n, k, pa, pb, pc](CUstream stream) {
            api->set_stream(handle->get(), reinterpret_cast<cudaStream_t>(stream));
            const cublasStatus_t st = sgemm_row_major(*api, handle->get(), int(m), int(n), int(k), pa, pb, pc);
            if (st != CUBLAS_STATUS_SUCCESS)
                throw Error(ErrorKind::Cuda, "cublasSgemm failed (status " + std::to_string(int(st)) + ")");
        };
        ready = true;
        break;
    }
    case BaselineKind::Memcpy: {
        copy_bytes = std::min(host[index("from")].size_bytes(), host[index("to")].size_bytes());
        b.bytes = 2.0 * double(copy_bytes);  // read once, written once
        b.flops = 0;
        const CUdeviceptr from = dev[index("from")].ptr(), to = dev[index("to")].ptr();
        launch = [&, from, to](CUstream stream) {
            d.check(cu.cuMemcpyDtoDAsync(to, from, copy_bytes, stream), "cuMemcpyDtoDAsync");
        };
        ready = true;
        break;
    }
    case BaselineKind::CubReduceSum: {
        const long long n = size("n");
        if (!fits("in", n) || n > INT32_MAX) break;
        const CompileResult compiled = compile_cub_reduce(in.arch);
        if (!compiled.ok) {
            say({{"baseline.cub_not_compiled", {compiled.diagnostics.empty() ? compiled.log : compiled.diagnostics[0].message}}});
            break;
        }
        cub.emplace(d, compiled.image);
        const CUfunction f = cub->function("cub_reduce_sum", "cub_reduce_sum");
        const unsigned blocks = unsigned(std::clamp<long long>((n + kCubReduceThreads - 1) / kCubReduceThreads, 1,
                                                                8LL * ctx.info().sm_count));
        const CUdeviceptr in = dev[index("in")].ptr(), out = dev[index("out")].ptr();
        before = [&, out] { d.check(cu.cuMemsetD8(out, 0, sizeof(float)), "zeroing the baseline's sum"); };
        launch = [&, f, blocks, in, out, n](CUstream stream) {
            int count = int(n);
            CUdeviceptr pin = in, pout = out;
            void* args[] = {&pin, &pout, &count};
            d.check(cu.cuLaunchKernel(f, blocks, 1, 1, kCubReduceThreads, 1, 1, 0, stream, args, nullptr),
                    "launching the CUB baseline");
        };
        ready = true;
        break;
    }
    case BaselineKind::CubScanSum: {
        const long long n = size("n");
        if (!fits("in", n) || !fits("out", n)) break;
        if (n < 1 || n > INT32_MAX) {
            say({{"baseline.size_range", {"n"}}});
            break;
        }
        const DType type = host[index("in")].type;  // f32 or i32, the same as out's (the loader checks)
        const CompileResult compiled = compile_cub_scan(in.arch);
        if (!compiled.ok) {
            say({{"baseline.cub_not_compiled", {compiled.diagnostics.empty() ? compiled.log : compiled.diagnostics[0].message}}});
            break;
        }
        cub.emplace(d, compiled.image);
        const std::string suffix = type == DType::F32 ? "_f32" : "_i32";
        const CUfunction tiles_f = cub->function("cub_scan_tiles" + suffix, "cub_scan_tiles" + suffix);
        const CUfunction totals_f = cub->function("cub_scan_totals" + suffix, "cub_scan_totals" + suffix);
        const CUfunction add_f = cub->function("cub_scan_add" + suffix, "cub_scan_add" + suffix);
        const unsigned tiles = unsigned((n + kCubScanTile - 1) / kCubScanTile);
        scratch.emplace(d, std::size_t(tiles) * 4);
        const CUdeviceptr in = dev[index("in")].ptr(), out = dev[index("out")].ptr(), totals = scratch->ptr();
        launch = [&, tiles_f, totals_f, add_f, tiles, in, out, totals, n](CUstream stream) {
            int count = int(n), tile_count = int(tiles);
            CUdeviceptr pin = in, pout = out, ptot = totals;
            void* tile_args[] = {&pin, &pout, &ptot, &count};
            d.check(cu.cuLaunchKernel(tiles_f, tiles, 1, 1, kCubScanThreads, 1, 1, 0, stream, tile_args, nullptr),
                    "launching the CUB scan baseline (tiles)");
            void* total_args[] = {&ptot, &tile_count};
            d.check(cu.cuLaunchKernel(totals_f, 1, 1, 1, kCubScanThreads, 1, 1, 0, stream, total_args, nullptr),
                    "launching the CUB scan baseline (totals)");
            void* add_args[] = {&pout, &ptot, &count};
            const unsigned blocks = unsigned((n + 255) / 256);
            d.check(cu.cuLaunchKernel(add_f, blocks, 1, 1, 256, 1, 1, 0, stream, add_args, nullptr),
                    "launching the CUB scan baseline (offsets)");
        };
        ready = true;
        break;
    }
    }
    if (ready) {
        in.upload_inputs();
        if (before) before();
        launch(nullptr);
        in.synchronize("running the baseline");
        if (spec.kind == BaselineKind::Memcpy) {
            // Read back a chunk at a time: the copy of 10^8 floats needs no 400 MB on the host to be checked.
            constexpr std::size_t kChunk = std::size_t(32) << 20;
            std::vector<unsigned char> got(std::min(copy_bytes, kChunk));
            const auto* want = static_cast<const unsigned char*>(host[index("from")].data());
            b.checked = b.passed = true;
            for (std::size_t off = 0; off < copy_bytes && b.passed; off += kChunk) {
                const std::size_t len = std::min(kChunk, copy_bytes - off);
                dev[index("to")].download_range(got.data(), off, len);
                b.passed = std::memcmp(got.data(), want + off, len) == 0;
            }
            if (!b.passed) say({{"baseline.copy_differs", {}}});
        } else {
            HostBuffer got = host[index(baseline_output_role(spec.kind))].zeroed_like();
            dev[index(baseline_output_role(spec.kind))].download(got.mutable_data());
            const HostBuffer* want = find_in(in.reference_out, got.name);
            const auto rule = std::find_if(in.compare.begin(), in.compare.end(),
                                           [&](const CompareSpec& c) { return c.buffer == got.name; });
            if (want && rule != in.compare.end()) {
                b.check = compare_buffers(got, nullptr, *want, *rule);
                b.checked = true;
                b.passed = b.check->passed;
            } else {
                say({{"baseline.not_checked", {got.name}}});
            }
        }
        // The kernel's method: a graph replay of as many launches when it
        // was batched (and the baseline has nothing to reset between
        // launches), else one launch per sample after the same L2 flush.
        // cuBLAS goes back to the default stream after a graph's capture, whatever happens.
        struct DefaultStream {
            const CublasApi* api;
            const std::optional<CublasHandle>& handle;
            ~DefaultStream() {
                if (api && handle) api->set_stream(handle->get(), nullptr);
            }
        } back_to_default{api, handle};
        const Timing bt = timer.time_like(t, before, launch, "timing the baseline");
        const int batch = bt.batch;
        b.batch = batch;
        b.ran = true;
        b.samples = int(bt.samples_ms.size());
        b.median_ms = bt.median_ms;
        b.min_ms = bt.min_ms;
        b.max_ms = bt.max_ms;
    }
    return b;
}

}  // namespace wb
