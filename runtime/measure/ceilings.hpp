// runtime/measure/ceilings.hpp — what this GPU can do at best, measured on
// it: the ceilings a kernel's GB/s and GFLOP/s are put against.
//
//   copy     device-to-device cuMemcpyDtoD of 256 MiB: bytes read + written per second
//   fp32     a kernel of independent FMA chains (2 flops each), every SM full
//   fp16     the same with half2 FMAs (4 flops each)
//   sgemm    cuBLAS SGEMM at 4096^3 (libcublas loaded at run time), 2 n^3 flops
//
// Measured once per GPU and driver (about a second) and cached as JSON under
// $XDG_CACHE_HOME/cuda-workbook/ceilings/, so every later run only reads them.
#pragma once

#include "compile/nvrtc.hpp"
#include "driver/device.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace wb {

class GpuContext;

struct Ceilings {
    std::string device;          // the GPU's name
    std::string arch;            // "sm_90"
    int driver_version = 0;
    double copy_gbs = 0;
    double fp32_gflops = 0;
    double fp16_gflops = 0;
    double sgemm_gflops = 0;     // 0 when cuBLAS could not be used...
    std::string sgemm_note;      // ...and why
    std::string measured_at;     // UTC, ISO 8601

    bool operator==(const Ceilings&) const = default;
};

// The cache file for a GPU: name and driver in the file name, made safe.
std::string ceilings_cache_name(const DeviceInfo& device);
std::optional<Ceilings> load_cached_ceilings(const DeviceInfo& device);
void save_cached_ceilings(const Ceilings& ceilings, const DeviceInfo& device);

// The FP32 and FP16 peak kernels, compiled for `arch` (no GPU needed).
CompileResult compile_ceiling_kernels(const std::string& arch);

// Measures them on the context's GPU. Throws wb::Error when a measurement
// kernel cannot be compiled or run; a missing cuBLAS is a note, not an error.
Ceilings measure_ceilings(GpuContext& ctx);

// The cached ones, else measured now and cached.
Ceilings ceilings_for(GpuContext& ctx);

// The roofline of measured ceilings: what a kernel of arithmetic intensity
// `ai` (FLOPs per byte moved, from the lesson's metrics) can reach at best,
// min(FP32 peak, copy bandwidth x ai). Below the ridge a kernel is bound by
// memory, above it by arithmetic.
struct Roofline {
    double copy_gbs = 0, fp32_gflops = 0;

    static Roofline of(const Ceilings& c) { return {c.copy_gbs, c.fp32_gflops}; }
    bool valid() const { return copy_gbs > 0 && fp32_gflops > 0; }
    double ridge() const { return valid() ? fp32_gflops / copy_gbs : 0; }  // FLOP/byte
    double attainable(double ai) const { return std::min(fp32_gflops, copy_gbs * ai); }
    bool memory_bound(double ai) const { return ai < ridge(); }
    // A run's GFLOP/s over what its intensity allows; 0 when either is unknown.
    double fraction(double ai, double gflops) const {
        return valid() && ai > 0 && gflops > 0 ? gflops / attainable(ai) : 0;
    }
};

std::string ceilings_to_json(const Ceilings& c);
// Throws wb::Error (Io) when `text` is not a ceilings record.
Ceilings ceilings_from_json(const std::string& text);

}  // namespace wb
