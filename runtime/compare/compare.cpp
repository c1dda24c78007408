// runtime/compare/compare.cpp — element-by-element check of a kernel's output
// against the CPU reference (the rules are in compare.hpp).
//
// The loop is instantiated per element type so a 16M-element buffer is one
// pass over raw memory with no per-element allocation; multi-dimensional
// indices are computed only for the few mismatches that are listed. Unwritten
// and nondeterministic cells are decided on the bytes, not on values, because
// the poison patterns are NaN for floats and NaN never equals itself.
#include "compare/compare.hpp"

#include "core/half.hpp"
#include "core/parallel.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>

namespace wb {

namespace {

template <typename T>
T load(const std::byte* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

// An element's value; f16 elements are widened from their bits.
template <typename T>
double value_at(const std::byte* p) {
    if constexpr (std::is_same_v<T, Half>) return half_to_float(load<uint16_t>(p));
    else return double(load<T>(p));
}

// Floats, and Half: compared by tolerance, with NaN and infinity rules.
template <typename T>
constexpr bool kFloatLike = std::is_floating_point_v<T> || std::is_same_v<T, Half>;

template <typename Bits>
Bits pattern(uint8_t byte) {
    Bits b;
    std::memset(&b, byte, sizeof(Bits));
    return b;
}

// Why `got` and `want` cannot be compared at all, or "" when they can.
// `what` is a catalogue key naming the buffer's side ("compare.what.output").
Sentence layout_problem(const HostBuffer& got, const HostBuffer& want, const char* what) {
    const std::string w = std::string("@") + what;
    if (got.type != want.type)
        return {{"compare.type_differs", {w, std::string(dtype_name(got.type)), std::string(dtype_name(want.type))}}};
    if (got.shape != want.shape)
        return {{"compare.shape_differs", {w, shape_string(got.shape), shape_string(want.shape)}}};
    if (got.bytes.size() != got.count() * dtype_size(got.type))
        return {{"compare.bytes_differ",
                 {w, std::to_string(got.bytes.size()), std::to_string(got.count() * dtype_size(got.type))}}};
    return {};
}

// Whether `g` matches `w` by the element rule; `reason` says why not.
template <typename T>
bool element_ok(double g, double w, bool exact, double atol, double rtol, MismatchReason& reason) {
    reason = MismatchReason::Tolerance;
    if constexpr (kFloatLike<T>) {
        if (std::isnan(w)) {
            // The reference meant NaN; only NaN matches it.
            if (!std::isnan(g)) return reason = MismatchReason::NotANumber, false;
        } else if (std::isinf(w)) {
            if (g != w) return reason = std::isnan(g) ? MismatchReason::NotANumber : MismatchReason::Infinite, false;
        } else if (std::isnan(g)) {
            return reason = MismatchReason::NotANumber, false;
        } else if (std::isinf(g)) {
            return reason = MismatchReason::Infinite, false;
        } else if (!(std::fabs(g - w) <= atol + rtol * std::fabs(w))) {
            return false;
        }
        return true;
    } else {
        return exact ? g == w : std::fabs(g - w) <= atol + rtol * std::fabs(w);
    }
}

// Each validation run is judged against the reference on its own. A cell
// holding poison A in run A and poison B in run B was never written. A cell
// that differs between the runs is a failure only for a deterministic output;
// otherwise it is counted, and the verdict rests on each run's own match.
// Compares elements [begin, end) into r, which holds what this range found.
template <typename T, typename Bits>
void compare_typed(const HostBuffer& got, const HostBuffer* got_b, const HostBuffer& want, double atol, double rtol,
                   bool deterministic, std::size_t max_listed, std::size_t begin, std::size_t end, CompareResult& r) {
    static_assert(sizeof(T) == sizeof(Bits));
    const bool exact = !kFloatLike<T> && !(atol > 0);
    const Bits poison_a = pattern<Bits>(kPoisonA);
    const Bits poison_b = pattern<Bits>(kPoisonB);
    const std::byte* pa = got.bytes.data();
    const std::byte* pb = got_b ? got_b->bytes.data() : nullptr;
    const std::byte* pw = want.bytes.data();
    for (std::size_t i = begin; i < end; ++i) {
        const std::size_t off = i * sizeof(T);
        const double w = value_at<T>(pw + off);
        double g = value_at<T>(pa + off);
        bool bad = false;
        MismatchReason reason = MismatchReason::Tolerance;
        bool written = true;
        bool changed = false;
        if (pb) {
            const Bits a = load<Bits>(pa + off), b = load<Bits>(pb + off);
            if (a != b) {
                if (a == poison_a && b == poison_b) {
                    written = false;
                    bad = true;
                    reason = MismatchReason::Unwritten;
                    ++r.unwritten;
                } else {
                    changed = true;
                    ++r.nondeterministic;
                }
            }
        }
        if (written) {
            bad = !element_ok<T>(g, w, exact, atol, rtol, reason);
            if (!bad && changed) {
                const double gb = value_at<T>(pb + off);
                if (!element_ok<T>(gb, w, exact, atol, rtol, reason)) bad = true, g = gb;  // run B failed on its own
            }
            if (changed && bad) ++r.changed_and_failed;
            if (changed && !bad && deterministic) bad = true, reason = MismatchReason::Nondeterministic;
            if (std::isfinite(g) && std::isfinite(w)) {
                const double err = std::fabs(g - w);
                if (err > r.max_abs_error) r.max_abs_error = err, r.max_abs_at = i;
                if (w != 0) {
                    const double rel = err / std::fabs(w);
                    if (rel > r.max_rel_error) r.max_rel_error = rel;
                }
            }
        }
        if (bad) {
            ++r.mismatches;
            if (r.first.size() < max_listed) r.first.push_back(Mismatch{i, want.unflatten(i), g, w, reason});
            std::vector<MismatchRun>& runs = r.mismatch_runs;
            if (!runs.empty() && runs.back().start + runs.back().count == i) ++runs.back().count;
            else if (runs.size() < kMaxMismatchRuns) runs.push_back({i, 1});
            else r.mismatch_runs_truncated = true;
        }
    }
}

// Adds the result of the range after `into`'s to it, as one pass over both would have.
void merge_after(CompareResult& into, CompareResult&& next, std::size_t max_listed) {
    into.mismatches += next.mismatches;
    into.unwritten += next.unwritten;
    into.nondeterministic += next.nondeterministic;
    into.changed_and_failed += next.changed_and_failed;
    if (next.max_abs_error > into.max_abs_error) into.max_abs_error = next.max_abs_error, into.max_abs_at = next.max_abs_at;
    into.max_rel_error = std::max(into.max_rel_error, next.max_rel_error);
    for (auto& m : next.first)
        if (into.first.size() < max_listed) into.first.push_back(std::move(m));
    std::vector<MismatchRun>& runs = into.mismatch_runs;
    for (const MismatchRun& run : next.mismatch_runs) {
        if (!runs.empty() && runs.back().start + runs.back().count == run.start) runs.back().count += run.count;
        else if (runs.size() < kMaxMismatchRuns) runs.push_back(run);
        else into.mismatch_runs_truncated = true;
    }
    into.mismatch_runs_truncated = into.mismatch_runs_truncated || next.mismatch_runs_truncated;
}

// Compares every element, on every core: each range into its own result,
// merged in index order, so the result is the one a single pass gives.
template <typename T, typename Bits>
void compare_all(const HostBuffer& got, const HostBuffer* got_b, const HostBuffer& want, double atol, double rtol,
                 bool deterministic, std::size_t max_listed, CompareResult& r) {
    const std::size_t n = want.count();
    std::vector<CompareResult> parts(parallel_parts(n));
    parallel_for(n, [&](std::size_t part, std::size_t begin, std::size_t end) {
        compare_typed<T, Bits>(got, got_b, want, atol, rtol, deterministic, max_listed, begin, end, parts[part]);
    });
    for (auto& part : parts) merge_after(r, std::move(part), max_listed);
    r.count = n;
}

}  // namespace

const char* mismatch_reason_name(MismatchReason r) {
    switch (r) {
    case MismatchReason::Tolerance: return "outside tolerance";
    case MismatchReason::NotANumber: return "NaN";
    case MismatchReason::Infinite: return "infinity";
    case MismatchReason::Unwritten: return "never written";
    case MismatchReason::Nondeterministic: return "differs between runs";
    }
    return "unknown";
}

const char* mismatch_reason_key(MismatchReason r) {
    switch (r) {
    case MismatchReason::Tolerance: return "reason.tolerance";
    case MismatchReason::NotANumber: return "reason.nan";
    case MismatchReason::Infinite: return "reason.infinite";
    case MismatchReason::Unwritten: return "reason.unwritten";
    case MismatchReason::Nondeterministic: return "reason.nondeterministic";
    }
    return "reason.tolerance";
}

std::vector<std::uint8_t> mismatch_mask(const CompareResult& result, std::size_t count) {
    if (!result.note.empty() && result.count == 0 && !result.passed) return std::vector<std::uint8_t>(count, 1);
    std::vector<std::uint8_t> mask(count, 0);
    for (const MismatchRun& run : result.mismatch_runs)
        for (std::size_t i = run.start; i < run.start + run.count && i < count; ++i) mask[i] = 1;
    return mask;
}

std::vector<std::uint8_t> mismatch_mask(const CompareResult& result, const HostBuffer& shown) {
    if (!shown.sample_of) return mismatch_mask(result, shown.count());
    const std::size_t count = shown.count();
    if (!result.note.empty() && result.count == 0 && !result.passed) return std::vector<std::uint8_t>(count, 1);
    std::vector<std::uint8_t> mask(count, 0);
    const SampleOf& of = *shown.sample_of;
    const std::size_t dims = of.shape.size();
    if (dims == 0 || dims != shown.shape.size()) return mask;
    const std::size_t row = of.shape.back(), last_step = of.step.back();
    const std::size_t whole = shown.full_count();
    // A run, a row of the last dimension at a time: the cells it covers in
    // that row are consecutive.
    for (const MismatchRun& run : result.mismatch_runs) {
        std::size_t at = run.start, left = std::min(run.count, whole > run.start ? whole - run.start : 0);
        while (left > 0) {
            std::size_t rest = at, cell = 0, stride = 1;
            const std::size_t x = rest % row;
            rest /= row;
            const std::size_t len = std::min(left, row - x);
            std::size_t outer = 0;  // the cell's flat index over every dimension but the last
            for (std::size_t d = dims - 1; d-- > 0;) {
                const std::size_t i = rest % of.shape[d];
                rest /= of.shape[d];
                outer += (i / of.step[d]) * stride;
                stride *= shown.shape[d];
            }
            cell = outer * shown.shape.back();
            for (std::size_t c = x / last_step; c <= (x + len - 1) / last_step; ++c) mask[cell + c] = 1;
            at += len;
            left -= len;
        }
    }
    return mask;
}

CompareResult compare_buffers(const HostBuffer& got, const HostBuffer* got_b, const HostBuffer& want,
                              const CompareSpec& spec, const CompareOptions& options) {
    CompareResult r;
    r.buffer = spec.buffer.empty() ? want.name : spec.buffer;
    r.atol = spec.atol;
    r.rtol = spec.rtol;

    Sentence problem = layout_problem(want, want, "compare.what.reference");
    if (problem.empty()) problem = layout_problem(got, want, "compare.what.output");
    if (problem.empty() && got_b) problem = layout_problem(*got_b, want, "compare.what.second");
    if (!problem.empty()) {
        r.note = render(problem, "en");
        r.note_said = std::move(problem);
        r.passed = false;
        return r;
    }

    const std::size_t listed = options.max_listed;
    const double atol = r.atol, rtol = r.rtol;
    const bool det = r.deterministic = spec.deterministic.value_or(!dtype_is_float(want.type));
    switch (want.type) {
    case DType::U8: compare_all<uint8_t, uint8_t>(got, got_b, want, atol, rtol, det, listed, r); break;
    case DType::I32: compare_all<int32_t, uint32_t>(got, got_b, want, atol, rtol, det, listed, r); break;
    case DType::U32: compare_all<uint32_t, uint32_t>(got, got_b, want, atol, rtol, det, listed, r); break;
    case DType::F16: compare_all<Half, uint16_t>(got, got_b, want, atol, rtol, det, listed, r); break;
    case DType::F32: compare_all<float, uint32_t>(got, got_b, want, atol, rtol, det, listed, r); break;
    case DType::F64: compare_all<double, uint64_t>(got, got_b, want, atol, rtol, det, listed, r); break;
    }
    r.passed = r.mismatches == 0;
    if (r.nondeterministic && !det && r.passed) {
        r.note_said = {{r.nondeterministic == 1 ? "compare.float_order_one" : "compare.float_order",
                        {std::to_string(r.nondeterministic)}}};
        r.note = render(r.note_said, "en");
    }
    return r;
}

}  // namespace wb
