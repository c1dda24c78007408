// runtime/compare/compare.cpp — element-by-element check of a kernel's output
// against the CPU reference (the rules are in compare.hpp).
//
// The loop is instantiated per element type so a 16M-element buffer is one
// pass over raw memory with no per-element allocation; multi-dimensional
// indices are computed only for the few mismatches that are listed. Unwritten
// and nondeterministic cells are decided on the bytes, not on values, because
// the poison patterns are NaN for floats and NaN never equals itself.
#include "compare/compare.hpp"

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

template <typename Bits>
Bits pattern(uint8_t byte) {
    Bits b;
    std::memset(&b, byte, sizeof(Bits));
    return b;
}

// Why `got` and `want` cannot be compared at all, or "" when they can.
std::string layout_problem(const HostBuffer& got, const HostBuffer& want, const char* what) {
    if (got.type != want.type)
        return std::string(what) + " type differs: got " + std::string(dtype_name(got.type)) + ", want " +
               std::string(dtype_name(want.type));
    if (got.shape != want.shape)
        return std::string(what) + " shape differs: got " + shape_string(got.shape) + ", want " +
               shape_string(want.shape);
    if (got.bytes.size() != got.count() * dtype_size(got.type))
        return std::string(what) + " holds " + std::to_string(got.bytes.size()) + " bytes, but its shape needs " +
               std::to_string(got.count() * dtype_size(got.type));
    return {};
}

template <typename T, typename Bits>
void compare_typed(const HostBuffer& got, const HostBuffer* got_b, const HostBuffer& want, double atol, double rtol,
                   std::size_t max_listed, CompareResult& r) {
    static_assert(sizeof(T) == sizeof(Bits));
    constexpr bool kFloat = std::is_floating_point_v<T>;
    const bool exact = !kFloat && !(atol > 0);
    const Bits poison_a = pattern<Bits>(kPoisonA);
    const Bits poison_b = pattern<Bits>(kPoisonB);
    const std::byte* pa = got.bytes.data();
    const std::byte* pb = got_b ? got_b->bytes.data() : nullptr;
    const std::byte* pw = want.bytes.data();
    const std::size_t n = want.count();
    r.count = n;

    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t off = i * sizeof(T);
        bool bad = false;
        bool written = true;
        MismatchReason reason = MismatchReason::Tolerance;
        if (pb) {
            const Bits a = load<Bits>(pa + off), b = load<Bits>(pb + off);
            if (a != b) {
                bad = true;
                if (a == poison_a && b == poison_b) {
                    reason = MismatchReason::Unwritten;
                    written = false;
                    ++r.unwritten;
                } else {
                    reason = MismatchReason::Nondeterministic;
                    ++r.nondeterministic;
                }
            }
        }
        const double g = double(load<T>(pa + off));
        const double w = double(load<T>(pw + off));
        const bool finite = std::isfinite(g) && std::isfinite(w);
        if (!bad) {
            if constexpr (kFloat) {
                if (std::isnan(w)) {
                    // The reference meant NaN; only NaN matches it.
                    if (!std::isnan(g)) bad = true, reason = MismatchReason::NotANumber;
                } else if (std::isinf(w)) {
                    if (g != w) bad = true, reason = std::isnan(g) ? MismatchReason::NotANumber : MismatchReason::Infinite;
                } else if (std::isnan(g)) {
                    bad = true, reason = MismatchReason::NotANumber;
                } else if (std::isinf(g)) {
                    bad = true, reason = MismatchReason::Infinite;
                } else if (!(std::fabs(g - w) <= atol + rtol * std::fabs(w))) {
                    bad = true;
                }
            } else {
                if (exact ? g != w : !(std::fabs(g - w) <= atol + rtol * std::fabs(w))) bad = true;
            }
        }
        // Poison in an unwritten cell is not an error of the kernel's arithmetic.
        if (written && finite) {
            const double err = std::fabs(g - w);
            if (err > r.max_abs_error) r.max_abs_error = err, r.max_abs_at = i;
            if (w != 0) {
                const double rel = err / std::fabs(w);
                if (rel > r.max_rel_error) r.max_rel_error = rel;
            }
        }
        if (bad) {
            ++r.mismatches;
            if (r.first.size() < max_listed) r.first.push_back(Mismatch{i, want.unflatten(i), g, w, reason});
        }
    }
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

CompareResult compare_buffers(const HostBuffer& got, const HostBuffer* got_b, const HostBuffer& want,
                              const CompareSpec& spec, const CompareOptions& options) {
    CompareResult r;
    r.buffer = spec.buffer.empty() ? want.name : spec.buffer;
    r.atol = spec.atol;
    r.rtol = spec.rtol;

    std::string problem = layout_problem(want, want, "reference output");
    if (problem.empty()) problem = layout_problem(got, want, "output");
    if (problem.empty() && got_b) problem = layout_problem(*got_b, want, "second run's output");
    if (!problem.empty()) {
        r.note = problem;
        r.passed = false;
        return r;
    }

    const std::size_t listed = options.max_listed;
    switch (want.type) {
    case DType::U8: compare_typed<uint8_t, uint8_t>(got, got_b, want, spec.atol, spec.rtol, listed, r); break;
    case DType::I32: compare_typed<int32_t, uint32_t>(got, got_b, want, spec.atol, spec.rtol, listed, r); break;
    case DType::U32: compare_typed<uint32_t, uint32_t>(got, got_b, want, spec.atol, spec.rtol, listed, r); break;
    case DType::F32: compare_typed<float, uint32_t>(got, got_b, want, spec.atol, spec.rtol, listed, r); break;
    case DType::F64: compare_typed<double, uint64_t>(got, got_b, want, spec.atol, spec.rtol, listed, r); break;
    }
    r.passed = r.mismatches == 0;
    return r;
}

}  // namespace wb
