// runtime/measure/baseline.hpp — a vendor kernel timed beside the student's
// (the lesson's "baseline": cuBLAS SGEMM, a device-to-device memcpy, a CUB
// block-reduce sum, or a CUB device-wide inclusive scan). It runs after the student's kernel has passed, on the
// same inputs, is checked by the step's own compare rule for its output (a
// memcpy: the copy equals its source), and is timed by the same method.
#pragma once
#include "core/phrase.hpp"

#include "compare/compare.hpp"
#include "compile/nvrtc.hpp"
#include "lesson/lesson.hpp"

#include <optional>
#include <string>

namespace wb {

struct Timing;

struct BaselineResult {
    std::string kind;              // baseline_kind_name(): "cublas_sgemm", ...
    std::string label;             // "cuBLAS SGEMM", "device memcpy a -> c", "CUB BlockReduce sum"
    bool ran = false;              // false: `note` says why (cuBLAS missing, a size out of range)
    bool checked = false;          // its output was compared (a memcpy's byte for byte); false: `note` says why not
    bool passed = false;           // its output was compared and checked out
    std::optional<CompareResult> check;  // the compare of its output (not for memcpy)
    std::string note;              // English; note_in() gives it in the student's language
    Sentence note_said;            // what `note` was made from (core/phrase.hpp)
    std::string note_in(std::string_view lang) const { return render_checked(note, note_said, lang); }
    double median_ms = 0, min_ms = 0, max_ms = 0;
    int samples = 0;
    int batch = 1;                 // > 1: timed as graph replays of this many, as the kernel was
    double bytes = 0, flops = 0;   // what it moves and computes: the step's metrics; a memcpy's own bytes
    double gbs() const { return median_ms > 0 ? bytes / median_ms / 1e6 : 0; }
    double gflops() const { return median_ms > 0 ? flops / median_ms / 1e6 : 0; }
};

std::string baseline_label(const BaselineSpec& spec);

// The CUB block-reduce kernel, `cub_reduce_sum(const float* in, float* out, int n)`
// with 256 threads a block, compiled for `arch` by NVRTC (no GPU needed; cached).
constexpr int kCubReduceThreads = 256;
CompileResult compile_cub_reduce(const std::string& arch);

// The CUB device-wide inclusive scan, in three launches per element type T
// (f32, i32: the entries end in the type's name):
//   cub_scan_tiles_T(const T* in, T* out, T* totals, int n)
//       kCubScanThreads threads a block, kCubScanItems elements each: every
//       tile of kCubScanTile elements scanned with cub::BlockScan, its total
//       to totals[tile];
//   cub_scan_totals_T(T* totals, int tiles)
//       one block of kCubScanThreads: the totals scanned in place, exclusive;
//   cub_scan_add_T(T* out, const T* totals, int n)
//       each tile's offset added to its elements.
// Compiled for `arch` by NVRTC (no GPU needed; cached).
constexpr int kCubScanThreads = 256;
constexpr int kCubScanItems = 8;
constexpr int kCubScanTile = kCubScanThreads * kCubScanItems;
CompileResult compile_cub_scan(const std::string& arch);

}  // namespace wb
