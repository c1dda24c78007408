// tests/unit/compare_test.cpp — checking kernel output against the reference:
// the isclose rule and its exact boundary, NaN/Inf rules, integer exactness,
// unwritten cells found with two poisoned runs, races between runs, error
// statistics, the listed mismatches and their indices, and malformed inputs.
#include "compare/compare.hpp"
#include "core/parallel.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

namespace {

using wb::CompareResult;
using wb::DType;
using wb::HostBuffer;
using wb::MismatchReason;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

HostBuffer make(DType type, std::vector<std::size_t> shape, const std::vector<double>& values = {}) {
    HostBuffer h;
    h.name = "c";
    h.type = type;
    h.shape = std::move(shape);
    h.bytes = wb::Bytes(h.count() * wb::dtype_size(type));
    for (std::size_t i = 0; i < values.size(); ++i) h.set(i, values[i]);
    return h;
}

// As the pipeline does before a run: every byte of the buffer set to `pattern`.
HostBuffer poisoned(DType type, std::vector<std::size_t> shape, uint8_t pattern) {
    HostBuffer h = make(type, std::move(shape));
    std::memset(h.mutable_data(), pattern, h.size_bytes());
    return h;
}

wb::CompareSpec tol(double atol, double rtol, std::optional<bool> deterministic = std::nullopt) {
    wb::CompareSpec s;
    s.buffer = "c";
    s.atol = atol;
    s.rtol = rtol;
    s.deterministic = deterministic;
    s.json_path = "checks.compare[0]";
    return s;
}

TEST(Compare, OutputWithinTolerancePasses) {
    HostBuffer want = make(DType::F32, {3}, {1, 2, 3});
    HostBuffer got = make(DType::F32, {3}, {1 + 1e-6, 2 - 1e-6, 3});
    CompareResult r = wb::compare_buffers(got, nullptr, want, tol(1e-5, 1e-5));
    EXPECT_TRUE(r.passed);
    EXPECT_EQ(r.buffer, "c");
    EXPECT_EQ(r.count, 3u);
    EXPECT_EQ(r.mismatches, 0u);
    EXPECT_TRUE(r.first.empty());
    EXPECT_TRUE(r.note.empty());
    EXPECT_EQ(r.atol, 1e-5);
    EXPECT_EQ(r.rtol, 1e-5);
}

TEST(Compare, ToleranceBoundaryIsInclusiveAndTheNextFloatFails) {
    // atol + rtol*|want| = 0.25 + 0.5*2 = 1.25, all exact in binary.
    HostBuffer want = make(DType::F32, {4}, {2, 2, 2, 2});
    const float above = 3.25f, below = 0.75f;
    HostBuffer got = make(DType::F32, {4},
                          {above, std::nextafter(above, 10.0f), below, std::nextafter(below, -10.0f)});
    CompareResult r = wb::compare_buffers(got, nullptr, want, tol(0.25, 0.5));
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.mismatches, 2u);
    ASSERT_EQ(r.first.size(), 2u);
    EXPECT_EQ(r.first[0].flat, 1u);
    EXPECT_EQ(r.first[1].flat, 3u);
    EXPECT_EQ(r.first[0].reason, MismatchReason::Tolerance);
    EXPECT_EQ(r.first[0].got, double(std::nextafter(above, 10.0f)));
    EXPECT_EQ(r.first[0].want, 2.0);
}

TEST(Compare, NaNInOutputFailsWhereReferenceIsFinite) {
    HostBuffer want = make(DType::F32, {2}, {1, 2});
    HostBuffer got = make(DType::F32, {2}, {1, kNaN});
    CompareResult r = wb::compare_buffers(got, nullptr, want, tol(1e3, 1e3));  // no tolerance hides a NaN
    EXPECT_FALSE(r.passed);
    ASSERT_EQ(r.first.size(), 1u);
    EXPECT_EQ(r.first[0].reason, MismatchReason::NotANumber);
    EXPECT_EQ(r.max_abs_error, 0.0);  // the NaN pair is not a finite pair
}

TEST(Compare, NaNInBothPassesAndNaNOnlyInReferenceFails) {
    HostBuffer want = make(DType::F64, {2}, {kNaN, kNaN});
    HostBuffer got = make(DType::F64, {2}, {kNaN, 0});
    CompareResult r = wb::compare_buffers(got, nullptr, want, tol(1e-12, 1e-12));
    EXPECT_EQ(r.mismatches, 1u);
    ASSERT_EQ(r.first.size(), 1u);
    EXPECT_EQ(r.first[0].flat, 1u);
    EXPECT_EQ(r.first[0].reason, MismatchReason::NotANumber);
}

TEST(Compare, InfinityMustMatchInSign) {
    HostBuffer want = make(DType::F32, {5}, {kInf, -kInf, kInf, 1, kInf});
    HostBuffer got = make(DType::F32, {5}, {kInf, kInf, 1e30, kInf, kNaN});
    CompareResult r = wb::compare_buffers(got, nullptr, want, tol(1e-5, 1e-5));
    EXPECT_EQ(r.mismatches, 4u);
    ASSERT_EQ(r.first.size(), 4u);
    EXPECT_EQ(r.first[0].flat, 1u);
    EXPECT_EQ(r.first[0].reason, MismatchReason::Infinite);
    EXPECT_EQ(r.first[1].flat, 2u);  // a huge finite value is not infinity
    EXPECT_EQ(r.first[1].reason, MismatchReason::Infinite);
    EXPECT_EQ(r.first[2].flat, 3u);  // infinity where a finite value was expected
    EXPECT_EQ(r.first[2].reason, MismatchReason::Infinite);
    EXPECT_EQ(r.first[3].reason, MismatchReason::NotANumber);
}

TEST(Compare, CellsLeftWithBothPoisonsAreUnwritten) {
    HostBuffer want = make(DType::F32, {4}, {1, 2, 3, 4});
    HostBuffer a = poisoned(DType::F32, {4}, wb::kPoisonA);
    HostBuffer b = poisoned(DType::F32, {4}, wb::kPoisonB);
    for (std::size_t i : {0, 2}) a.set(i, want.get(i)), b.set(i, want.get(i));  // the kernel skipped 1 and 3
    CompareResult r = wb::compare_buffers(a, &b, want, tol(1e-5, 1e-5));
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.unwritten, 2u);
    EXPECT_EQ(r.nondeterministic, 0u);
    EXPECT_EQ(r.mismatches, 2u);
    ASSERT_EQ(r.first.size(), 2u);
    EXPECT_EQ(r.first[0].flat, 1u);
    EXPECT_EQ(r.first[0].reason, MismatchReason::Unwritten);
    EXPECT_EQ(r.first[1].flat, 3u);
    EXPECT_EQ(r.max_abs_error, 0.0);
}

TEST(Compare, ALegitimate255InU8IsNotMistakenForPoison) {
    // kPoisonA is 0xFF, which is also a real u8 value. Written in both runs it
    // is just a value; skipped in one run it is still caught even though the
    // reference wants 255 there.
    HostBuffer want = make(DType::U8, {3}, {255, 255, 7});
    HostBuffer a = poisoned(DType::U8, {3}, wb::kPoisonA);
    HostBuffer b = poisoned(DType::U8, {3}, wb::kPoisonB);
    a.set(0, 255), b.set(0, 255);  // written 255 both times
    a.set(2, 7), b.set(2, 7);      // cell 1 never written
    CompareResult r = wb::compare_buffers(a, &b, want, tol(0, 0));
    EXPECT_EQ(r.mismatches, 1u);
    EXPECT_EQ(r.unwritten, 1u);
    ASSERT_EQ(r.first.size(), 1u);
    EXPECT_EQ(r.first[0].flat, 1u);
    EXPECT_EQ(r.first[0].reason, MismatchReason::Unwritten);

    b.set(1, 255);  // now written in the second run too: deterministic 255, correct
    a.set(1, 255);
    EXPECT_TRUE(wb::compare_buffers(a, &b, want, tol(0, 0)).passed);
}

TEST(Compare, WithOneRunPoisonShowsAsNaNForFloats) {
    HostBuffer want = make(DType::F32, {2}, {1, 2});
    HostBuffer a = poisoned(DType::F32, {2}, wb::kPoisonA);
    a.set(0, 1);
    CompareResult r = wb::compare_buffers(a, nullptr, want, tol(1e-5, 1e-5));
    EXPECT_EQ(r.mismatches, 1u);
    EXPECT_EQ(r.unwritten, 0u);  // telling unwritten apart needs the second run
    ASSERT_EQ(r.first.size(), 1u);
    EXPECT_EQ(r.first[0].reason, MismatchReason::NotANumber);
}

TEST(Compare, EachRunIsJudgedOnItsOwnAndAChangeThatFailsIsNamed) {
    HostBuffer want = make(DType::F32, {4}, {1, 2, 3, 4});
    HostBuffer a = make(DType::F32, {4}, {1, 2, 3, 4});
    HostBuffer b = make(DType::F32, {4}, {1, 2.5, 3, 4});
    std::memset(static_cast<std::byte*>(a.mutable_data()) + 12, wb::kPoisonA, 4);  // cell 3 written only in run B
    CompareResult r = wb::compare_buffers(a, &b, want, tol(1e-5, 1e-5));
    EXPECT_EQ(r.nondeterministic, 2u);
    EXPECT_EQ(r.changed_and_failed, 2u);
    EXPECT_EQ(r.unwritten, 0u);
    EXPECT_EQ(r.mismatches, 2u);
    EXPECT_FALSE(r.passed);
    ASSERT_EQ(r.first.size(), 2u);
    EXPECT_EQ(r.first[0].flat, 1u);
    EXPECT_EQ(r.first[0].reason, MismatchReason::Tolerance);
    EXPECT_EQ(r.first[0].got, 2.5) << "run B was the wrong one, so its value is reported";
    EXPECT_EQ(r.first[1].flat, 3u);
    EXPECT_EQ(r.first[1].reason, MismatchReason::NotANumber) << "run A left poison in a cell run B wrote";
}

TEST(Compare, FloatSumsThatChangeWithinToleranceAreANoteNotAFailure) {
    // What float atomicAdd does: a different order of additions each run.
    HostBuffer want = make(DType::F32, {3}, {100, 200, 300});
    HostBuffer a = make(DType::F32, {3}, {100.00001, 200, 300});
    HostBuffer b = make(DType::F32, {3}, {99.99999, 200, 300.00002});
    CompareResult r = wb::compare_buffers(a, &b, want, tol(1e-3, 1e-5));
    EXPECT_TRUE(r.passed) << r.note;
    EXPECT_FALSE(r.deterministic);
    EXPECT_EQ(r.nondeterministic, 2u);
    EXPECT_EQ(r.mismatches, 0u);
    EXPECT_NE(r.note.find("2 elements changed between the two validation runs"), std::string::npos) << r.note;
}

TEST(Compare, ADeterministicOutputFailsOnAnyChange) {
    HostBuffer want = make(DType::F32, {3}, {100, 200, 300});
    HostBuffer a = make(DType::F32, {3}, {100.00001, 200, 300});
    HostBuffer b = make(DType::F32, {3}, {99.99999, 200, 300});
    CompareResult r = wb::compare_buffers(a, &b, want, tol(1e-3, 1e-5, true));
    EXPECT_FALSE(r.passed);
    EXPECT_TRUE(r.deterministic);
    ASSERT_EQ(r.first.size(), 1u);
    EXPECT_EQ(r.first[0].reason, MismatchReason::Nondeterministic);
}

TEST(Compare, IntegerOutputsAreDeterministicByDefault) {
    // A racy histogram whose counts happen to land within atol still fails.
    HostBuffer want = make(DType::I32, {2}, {5, 7});
    HostBuffer a = make(DType::I32, {2}, {5, 7});
    HostBuffer b = make(DType::I32, {2}, {6, 7});
    CompareResult r = wb::compare_buffers(a, &b, want, tol(1, 0));
    EXPECT_FALSE(r.passed);
    EXPECT_TRUE(r.deterministic);
    ASSERT_EQ(r.first.size(), 1u);
    EXPECT_EQ(r.first[0].reason, MismatchReason::Nondeterministic);
    CompareResult allowed = wb::compare_buffers(a, &b, want, tol(1, 0, false));
    EXPECT_TRUE(allowed.passed) << "\"deterministic\": false lets an integer output vary within atol";
}

TEST(Compare, ASecondRunThatFailsAloneIsCaught) {
    HostBuffer want = make(DType::F32, {2}, {1, 2});
    HostBuffer a = make(DType::F32, {2}, {1, 2});
    HostBuffer b = make(DType::F32, {2}, {1, 9});
    CompareResult r = wb::compare_buffers(a, &b, want, tol(1e-5, 1e-5));
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.changed_and_failed, 1u);
    ASSERT_EQ(r.first.size(), 1u);
    EXPECT_EQ(r.first[0].got, 9.0);
}

TEST(Compare, IntegersAreExactUnlessAtolIsSet) {
    HostBuffer want = make(DType::I32, {2}, {5, -100});
    HostBuffer got = make(DType::I32, {2}, {6, -100});
    CompareResult exact = wb::compare_buffers(got, nullptr, want, tol(0, 0.5));  // rtol alone does not loosen
    EXPECT_FALSE(exact.passed);
    EXPECT_EQ(exact.mismatches, 1u);
    EXPECT_EQ(exact.max_abs_error, 1.0);
    EXPECT_TRUE(wb::compare_buffers(got, nullptr, want, tol(1, 0)).passed);

    HostBuffer uw = make(DType::U32, {1}, {4294967295.0});
    HostBuffer ug = make(DType::U32, {1}, {4294967294.0});
    EXPECT_FALSE(wb::compare_buffers(ug, nullptr, uw, tol(0, 0)).passed);
}

TEST(Compare, MaxAbsoluteAndRelativeErrorsOverFinitePairs) {
    HostBuffer want = make(DType::F64, {5}, {1, 2, 0, 4, kNaN});
    HostBuffer got = make(DType::F64, {5}, {1.5, 2, 0.25, 3, kNaN});
    CompareResult r = wb::compare_buffers(got, nullptr, want, tol(10, 0));
    EXPECT_TRUE(r.passed);
    EXPECT_EQ(r.max_abs_error, 1.0);
    EXPECT_EQ(r.max_abs_at, 3u);
    EXPECT_EQ(r.max_rel_error, 0.5);  // 0.5/1; the cell with want 0 has no relative error
}

TEST(Compare, FirstMismatchesCarryMultiDimensionalIndices) {
    HostBuffer want = make(DType::F32, {2, 3, 4});
    HostBuffer got = make(DType::F32, {2, 3, 4});
    got.set(5, 1);
    got.set(23, 1);
    CompareResult r = wb::compare_buffers(got, nullptr, want, tol(1e-5, 1e-5));
    ASSERT_EQ(r.first.size(), 2u);
    EXPECT_EQ(r.first[0].index, (std::vector<std::size_t>{0, 1, 1}));
    EXPECT_EQ(r.first[1].index, (std::vector<std::size_t>{1, 2, 3}));
}

TEST(Compare, ShapeOrTypeMismatchIsReportedNotCrashed) {
    HostBuffer want = make(DType::F32, {5});
    CompareResult r = wb::compare_buffers(make(DType::F32, {4}), nullptr, want, tol(1e-5, 1e-5));
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.note, "output shape differs: got [4], want [5]");

    r = wb::compare_buffers(make(DType::F64, {5}), nullptr, want, tol(1e-5, 1e-5));
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.note, "output type differs: got f64, want f32");

    HostBuffer short_b = make(DType::F32, {5});
    short_b.bytes = wb::Bytes(8);
    r = wb::compare_buffers(make(DType::F32, {5}), &short_b, want, tol(1e-5, 1e-5));
    EXPECT_FALSE(r.passed);
    EXPECT_NE(r.note.find("second run"), std::string::npos) << r.note;
}

TEST(Compare, OnlyMaxListedMismatchesAreRecordedButAllAreCounted) {
    HostBuffer want = make(DType::F32, {100});
    HostBuffer got = make(DType::F32, {100});
    for (std::size_t i = 0; i < 100; ++i) got.set(i, 1);
    CompareResult r = wb::compare_buffers(got, nullptr, want, tol(1e-5, 1e-5), wb::CompareOptions{10});
    EXPECT_EQ(r.mismatches, 100u);
    ASSERT_EQ(r.first.size(), 10u);
    EXPECT_EQ(r.first[9].flat, 9u);
    EXPECT_EQ(wb::compare_buffers(got, nullptr, want, tol(1e-5, 1e-5), wb::CompareOptions{0}).first.size(), 0u);
}

TEST(Compare, SixteenMillionFloatsWithTwoRunsInOneCall) {
    const std::size_t n = std::size_t(1) << 24;
    HostBuffer want = make(DType::F32, {n});
    float* w = static_cast<float*>(want.mutable_data());
    for (std::size_t i = 0; i < n; ++i) w[i] = float(i % 1000) * 0.5f;
    HostBuffer got = want, got_b = want;
    static_cast<float*>(got.mutable_data())[n - 1] += 1.0f;
    static_cast<float*>(got_b.mutable_data())[n - 1] += 1.0f;
    const auto t0 = std::chrono::steady_clock::now();
    CompareResult r = wb::compare_buffers(got, &got_b, want, tol(1e-5, 1e-5));
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.count, n);
    EXPECT_EQ(r.mismatches, 1u);
    EXPECT_EQ(r.max_abs_at, n - 1);
    RecordProperty("compare_ms", std::to_string(ms));
    std::printf("compared %zu f32 elements (two runs) in %.1f ms\n", n, ms);
}

TEST(Compare, ReasonNamesAreDistinct) {
    const MismatchReason all[] = {MismatchReason::Tolerance, MismatchReason::NotANumber, MismatchReason::Infinite,
                                  MismatchReason::Unwritten, MismatchReason::Nondeterministic};
    for (auto a : all) {
        for (auto b : all) {
            if (a != b) {
                EXPECT_STRNE(wb::mismatch_reason_name(a), wb::mismatch_reason_name(b));
            }
        }
    }
    EXPECT_STREQ(wb::mismatch_reason_name(MismatchReason::Unwritten), "never written");
}

}  // namespace

// The element verdicts the GUI outlines come from the comparison itself:
// every mismatch, unwritten cells included, as runs, and none beyond them.
TEST(Compare, TheMaskMarksExactlyTheElementsThatFailed) {
    HostBuffer want = make(DType::F64, {8}, {kNaN, 1.0, kInf, kInf, 100.5, 1, 2, 3});
    HostBuffer got = make(DType::F64, {8}, {kNaN, kNaN, kInf, 1.0, 100.0, 9, 9, 3});
    const CompareResult r = wb::compare_buffers(got, nullptr, want, tol(0.0, 0.01));
    EXPECT_EQ(r.mismatches, 4u);
    EXPECT_EQ(wb::mismatch_mask(r, 8), (std::vector<std::uint8_t>{0, 1, 0, 1, 0, 1, 1, 0}));
    // Neighbouring mismatches are one run.
    ASSERT_EQ(r.mismatch_runs.size(), 3u);
    EXPECT_EQ(r.mismatch_runs[2], (wb::MismatchRun{5, 2}));
    EXPECT_FALSE(r.mismatch_runs_truncated);
}

TEST(Compare, TheMaskIncludesUnwrittenCells) {
    // Cell 2 holds each run's poison: never written.
    HostBuffer want = make(DType::F32, {4}, {1, 2, 3, 4});
    HostBuffer a = poisoned(DType::F32, {4}, wb::kPoisonA), b = poisoned(DType::F32, {4}, wb::kPoisonB);
    for (std::size_t i : {0u, 1u, 3u}) a.set(i, want.get(i)), b.set(i, want.get(i));
    const CompareResult r = wb::compare_buffers(a, &b, want, tol(1e-5, 1e-5));
    EXPECT_EQ(r.unwritten, 1u);
    EXPECT_EQ(wb::mismatch_mask(r, 4), (std::vector<std::uint8_t>{0, 0, 1, 0}));
}

TEST(Compare, AComparisonThatCouldNotBeMadeMarksEverything) {
    HostBuffer want = make(DType::F32, {5});
    HostBuffer got = make(DType::F32, {4});
    const CompareResult r = wb::compare_buffers(got, nullptr, want, tol(0, 0));
    ASSERT_FALSE(r.note.empty());
    EXPECT_EQ(wb::mismatch_mask(r, 4), (std::vector<std::uint8_t>(4, 1)));
}

TEST(Compare, PastTheRunLimitTheMaskKeepsTheFirstRunsAndSaysSo) {
    const std::size_t n = 2 * wb::kMaxMismatchRuns + 10;
    std::vector<double> w(n, 0.0), g(n, 0.0);
    for (std::size_t i = 0; i < n; i += 2) g[i] = 1.0;  // every other element wrong: one run each
    const CompareResult r = wb::compare_buffers(make(DType::F32, {n}, g), nullptr, make(DType::F32, {n}, w), tol(0, 0));
    EXPECT_EQ(r.mismatches, n / 2);
    EXPECT_EQ(r.mismatch_runs.size(), wb::kMaxMismatchRuns);
    EXPECT_TRUE(r.mismatch_runs_truncated);
}

// A large buffer is compared on every core, range by range; the merged result
// must be the one a single pass gives: runs joined across a range's edge,
// the first mismatches in index order, the earliest of equal largest errors.
TEST(Compare, ALargeBufferComparedInRangesGivesTheSinglePassResult) {
    const std::size_t n = std::size_t(1) << 20;
    if (wb::parallel_parts(n) < 2) GTEST_SKIP() << "one core: the buffer is compared in one range";
    std::vector<double> w(n, 1.0), g(n, 1.0);
    std::vector<std::size_t> bad;
    for (std::size_t i = 0; i < 16; ++i) bad.push_back(i * 5);                 // 16 runs of one at the start
    for (std::size_t k = 1; k < 8; ++k)                                      // a run across each k/8 edge
        for (std::size_t i = n * k / 8 - 3; i < n * k / 8 + 3; ++i) bad.push_back(i);
    bad.push_back(n - 1);
    for (std::size_t i : bad) g[i] = 2.0;
    g[n / 2 + 1] = 5.0;  // the largest error, 4 ...
    g[n - 1] = 5.0;      // ... again later: the first is reported
    const CompareResult r = wb::compare_buffers(make(DType::F32, {n}, g), nullptr, make(DType::F32, {n}, w), tol(0, 0));

    std::vector<wb::MismatchRun> want_runs;
    for (std::size_t i = 0; i < n; ++i)
        if (g[i] != w[i]) {
            if (!want_runs.empty() && want_runs.back().start + want_runs.back().count == i) ++want_runs.back().count;
            else want_runs.push_back({i, 1});
        }
    EXPECT_EQ(r.count, n);
    EXPECT_EQ(r.mismatches, bad.size());
    EXPECT_EQ(r.mismatch_runs, want_runs);
    EXPECT_FALSE(r.mismatch_runs_truncated);
    ASSERT_EQ(r.first.size(), 10u);
    for (std::size_t k = 0; k < 10; ++k) EXPECT_EQ(r.first[k].flat, k * 5) << k;
    EXPECT_EQ(r.max_abs_error, 4.0);
    EXPECT_EQ(r.max_abs_at, n / 2 + 1);
}
