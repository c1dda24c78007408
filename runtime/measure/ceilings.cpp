// runtime/measure/ceilings.cpp — measuring and caching a GPU's ceilings (ceilings.hpp).
#include "measure/ceilings.hpp"

#include "compile/nvrtc.hpp"
#include "core/error.hpp"
#include "core/fs.hpp"
#include "driver/cublas.hpp"
#include "driver/gpu.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ctime>
#include <vector>

namespace wb {
namespace {

// Eight independent FMA chains per thread keep every FP32 pipe busy; the sum
// is stored only under a condition that never holds, so nothing is optimised away.
constexpr const char* kPeakSource = R"(
#include <cuda_fp16.h>
extern "C" __global__ void fp32_peak(float* out, float seed, int iters) {
    float a0 = seed + threadIdx.x, a1 = a0 + 1.f, a2 = a0 + 2.f, a3 = a0 + 3.f;
    float a4 = a0 + 4.f, a5 = a0 + 5.f, a6 = a0 + 6.f, a7 = a0 + 7.f;
    const float m = 0.9999999f, c = 1e-7f;
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int j = 0; j < 16; ++j) {
            a0 = fmaf(a0, m, c); a1 = fmaf(a1, m, c); a2 = fmaf(a2, m, c); a3 = fmaf(a3, m, c);
            a4 = fmaf(a4, m, c); a5 = fmaf(a5, m, c); a6 = fmaf(a6, m, c); a7 = fmaf(a7, m, c);
        }
    }
    const float s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
    if (s == -1.f) out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
extern "C" __global__ void fp16_peak(float* out, float seed, int iters) {
    __half2 a0 = __float2half2_rn(seed + threadIdx.x), a1 = __hadd2(a0, a0), a2 = __hadd2(a1, a0), a3 = __hadd2(a2, a0);
    __half2 a4 = __hadd2(a3, a0), a5 = __hadd2(a4, a0), a6 = __hadd2(a5, a0), a7 = __hadd2(a6, a0);
    const __half2 m = __float2half2_rn(0.999f), c = __float2half2_rn(0.0001f);
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int j = 0; j < 16; ++j) {
            a0 = __hfma2(a0, m, c); a1 = __hfma2(a1, m, c); a2 = __hfma2(a2, m, c); a3 = __hfma2(a3, m, c);
            a4 = __hfma2(a4, m, c); a5 = __hfma2(a5, m, c); a6 = __hfma2(a6, m, c); a7 = __hfma2(a7, m, c);
        }
    }
    const float s = __low2float(a0) + __low2float(a1) + __low2float(a2) + __low2float(a3) +
                    __high2float(a4) + __high2float(a5) + __high2float(a6) + __high2float(a7);
    if (s == -1.f) out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
)";

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

// Milliseconds of `work`, the median of `repeat` after one warm-up, by events.
template <typename F>
double time_ms(const Driver& d, int repeat, F&& work) {
    const DriverApi& cu = d.api();
    work();
    d.check(cu.cuCtxSynchronize(), "cuCtxSynchronize");
    GpuEvent start(d), stop(d);
    std::vector<double> samples;
    for (int i = 0; i < repeat; ++i) {
        d.check(cu.cuEventRecord(start.get(), nullptr), "cuEventRecord");
        work();
        d.check(cu.cuEventRecord(stop.get(), nullptr), "cuEventRecord");
        d.check(cu.cuEventSynchronize(stop.get()), "cuEventSynchronize");
        float ms = 0;
        d.check(cu.cuEventElapsedTime(&ms, start.get(), stop.get()), "cuEventElapsedTime");
        samples.push_back(ms);
    }
    return median(samples);
}

double measure_copy(const Driver& d) {
    constexpr std::size_t kBytes = std::size_t(256) << 20;
    DeviceBuffer a(d, kBytes), b(d, kBytes);
    a.fill_bytes(1);
    const double ms = time_ms(d, 10, [&] { d.check(d.api().cuMemcpyDtoD(b.ptr(), a.ptr(), kBytes), "cuMemcpyDtoD"); });
    return 2.0 * double(kBytes) / (ms * 1e6);
}

double measure_peak(const Driver& d, const DeviceInfo& dev, const GpuModule& module, const char* name,
                    double flops_per_fma) {
    CUfunction f = module.function(name, name);
    const int threads = 256;
    const int blocks = dev.sm_count * (dev.limits.max_threads_per_sm / threads) * 4;
    DeviceBuffer out(d, std::size_t(blocks) * threads * sizeof(float));
    CUdeviceptr out_ptr = out.ptr();
    float seed = 1.0f;
    int iters = 256;
    void* args[] = {&out_ptr, &seed, &iters};
    auto launch = [&] {
        d.check(d.api().cuLaunchKernel(f, unsigned(blocks), 1, 1, unsigned(threads), 1, 1, 0, nullptr, args, nullptr),
                name);
    };
    const double ms = time_ms(d, 5, launch);
    const double fmas = double(blocks) * threads * iters * 16.0 * 8.0;
    return fmas * flops_per_fma / (ms * 1e6);
}

// cuBLAS SGEMM at n = 4096, loaded from the toolkit at run time.
double measure_sgemm(const Driver& d, std::string& note) {
    const CublasApi* api = CublasApi::get(note);
    if (!api) return 0;
    const CublasHandle handle(*api);
    if (!handle.get()) {
        note = "cuBLAS was loaded but could not start (cublasCreate failed)";
        return 0;
    }
    constexpr int n = 4096;
    const std::size_t bytes = std::size_t(n) * n * sizeof(float);
    DeviceBuffer a(d, bytes), b(d, bytes), c(d, bytes);
    a.fill_bytes(0);
    b.fill_bytes(0);
    bool ok = true;
    const double ms = time_ms(d, 5, [&] {
        ok = ok && sgemm_row_major(*api, handle.get(), n, n, n, reinterpret_cast<const float*>(a.ptr()),
                                   reinterpret_cast<const float*>(b.ptr()), reinterpret_cast<float*>(c.ptr())) ==
                       CUBLAS_STATUS_SUCCESS;
    });
    if (!ok) {
        note = "cublasSgemm failed";
        return 0;
    }
    return 2.0 * double(n) * n * n / (ms * 1e6);
}

std::string now_utc() {
    char buf[32];
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

}  // namespace

std::string ceilings_cache_name(const DeviceInfo& device) {
    std::string name = device.name + "-" + device.arch() + "-driver" + std::to_string(device.driver_version);
    for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_') ch = '_';
    return name + ".json";
}

std::string ceilings_to_json(const Ceilings& c) {
    const nlohmann::json j = {{"device", c.device},           {"arch", c.arch},
                              {"driver_version", c.driver_version}, {"copy_gbs", c.copy_gbs},
                              {"fp32_gflops", c.fp32_gflops}, {"fp16_gflops", c.fp16_gflops},
                              {"sgemm_gflops", c.sgemm_gflops}, {"sgemm_note", c.sgemm_note},
                              {"measured_at", c.measured_at}};
    return j.dump(2) + "\n";
}

Ceilings ceilings_from_json(const std::string& text) {
    try {
        const nlohmann::json j = nlohmann::json::parse(text);
        Ceilings c;
        c.device = j.at("device");
        c.arch = j.at("arch");
        c.driver_version = j.at("driver_version");
        c.copy_gbs = j.at("copy_gbs");
        c.fp32_gflops = j.at("fp32_gflops");
        c.fp16_gflops = j.at("fp16_gflops");
        c.sgemm_gflops = j.at("sgemm_gflops");
        c.sgemm_note = j.at("sgemm_note");
        c.measured_at = j.at("measured_at");
        if (c.copy_gbs <= 0 || c.fp32_gflops <= 0) throw Error(ErrorKind::Io, "a ceilings record without its figures");
        return c;
    } catch (const nlohmann::json::exception& e) {
        throw Error(ErrorKind::Io, std::string("not a ceilings record: ") + e.what());
    }
}

std::optional<Ceilings> load_cached_ceilings(const DeviceInfo& device) {
    const std::filesystem::path file = cache_dir() / "ceilings" / ceilings_cache_name(device);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) return std::nullopt;
    try {
        Ceilings c = ceilings_from_json(read_file(file, 1 << 16));
        if (c.device != device.name || c.driver_version != device.driver_version) return std::nullopt;
        return c;
    } catch (const Error&) {
        return std::nullopt;  // a broken cache entry is measured again and replaced
    }
}

void save_cached_ceilings(const Ceilings& ceilings, const DeviceInfo& device) {
    const std::filesystem::path dir = cache_dir() / "ceilings";
    std::filesystem::create_directories(dir);
    write_file_atomic(dir / ceilings_cache_name(device), ceilings_to_json(ceilings));
}

CompileResult compile_ceiling_kernels(const std::string& arch) {
    CompileOptions options;
    options.arch = arch;
    options.line_info = false;
    options.entries = {"fp32_peak", "fp16_peak"};
    return compile_cuda(SourceText{kPeakSource, "ceilings.cu", ""}, options);
}

Ceilings measure_ceilings(GpuContext& ctx) {
    ctx.make_current();
    const Driver& d = ctx.driver();
    const DeviceInfo& dev = ctx.info();
    Ceilings c;
    c.device = dev.name;
    c.arch = dev.arch();
    c.driver_version = dev.driver_version;
    c.measured_at = now_utc();
    c.copy_gbs = measure_copy(d);

    const CompileResult compiled = compile_ceiling_kernels(dev.arch());
    if (!compiled.ok)
        throw Error(ErrorKind::Compile, "the ceiling kernels did not compile: " +
                                            (compiled.diagnostics.empty() ? compiled.log : compiled.diagnostics[0].message));
    const GpuModule module(d, compiled.image);
    c.fp32_gflops = measure_peak(d, dev, module, "fp32_peak", 2.0);
    c.fp16_gflops = measure_peak(d, dev, module, "fp16_peak", 4.0);
    c.sgemm_gflops = measure_sgemm(d, c.sgemm_note);
    return c;
}

Ceilings ceilings_for(GpuContext& ctx) {
    if (auto cached = load_cached_ceilings(ctx.info())) return *cached;
    Ceilings c = measure_ceilings(ctx);
    try {
        save_cached_ceilings(c, ctx.info());
    } catch (const std::exception&) {
        // A contained worker reads the cache only: its supervisor keeps what
        // the result brings (WorkerBackend::keep_ceilings).
    }
    return c;
}

}  // namespace wb
