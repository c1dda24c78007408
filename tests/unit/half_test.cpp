// tests/unit/half_test.cpp — f16 buffers: the host's half conversions agree
// with IEEE 754 binary16 (round to nearest even, subnormals, infinities, NaN),
// init values are rounded to half, and the comparison widens both sides,
// finds unwritten cells by their poison and applies f16's default tolerance.
#include "compare/compare.hpp"
#include "core/half.hpp"
#include "data/buffers.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace {

using wb::DType;
using wb::HostBuffer;

TEST(Half, KnownValuesConvertExactlyAsIeeeBinary16) {
    EXPECT_EQ(wb::float_to_half(1.0f), 0x3C00);
    EXPECT_EQ(wb::float_to_half(-2.0f), 0xC000);
    EXPECT_EQ(wb::float_to_half(65504.0f), 0x7BFF);          // the largest half
    EXPECT_EQ(wb::float_to_half(65520.0f), 0x7C00);          // rounds up past it: infinity
    EXPECT_EQ(wb::float_to_half(0.1f), 0x2E66);
    EXPECT_EQ(wb::float_to_half(5.9604645e-8f), 0x0001);     // the smallest subnormal
    EXPECT_EQ(wb::float_to_half(2.0e-8f), 0x0000);           // under half of it: zero
    EXPECT_EQ(wb::float_to_half(1.0f + 1.0f / 2048), 0x3C00);  // a tie rounds to even (down)
    EXPECT_EQ(wb::float_to_half(1.0f + 3.0f / 2048), 0x3C02);  // a tie rounds to even (up)
    EXPECT_TRUE(std::isnan(wb::half_to_float(wb::float_to_half(std::numeric_limits<float>::quiet_NaN()))));
    EXPECT_EQ(wb::half_to_float(0x0001), 5.9604645e-8f);
    EXPECT_EQ(wb::half_to_float(0xFC00), -std::numeric_limits<float>::infinity());
}

TEST(Half, EveryHalfSurvivesTheRoundTripThroughFloat) {
    for (uint32_t h = 0; h <= 0xFFFF; ++h) {
        const float f = wb::half_to_float(uint16_t(h));
        if (std::isnan(f)) continue;
        ASSERT_EQ(wb::float_to_half(f), h) << "half 0x" << std::hex << h;
    }
}

TEST(Half, F16BufferStoresRoundedValuesAndReadsThemBack) {
    HostBuffer b;
    b.name = "x";
    b.type = DType::F16;
    b.shape = {3};
    b.bytes = wb::Bytes(b.count() * wb::dtype_size(DType::F16));
    EXPECT_EQ(b.bytes.size(), 6u);
    b.set(0, 0.1);
    b.set(1, 1e6);
    b.set(2, -3.5);
    EXPECT_FLOAT_EQ(b.get(0), wb::half_to_float(0x2E66));
    EXPECT_TRUE(std::isinf(b.get(1)));
    EXPECT_EQ(b.get(2), -3.5);
}

TEST(Half, ComparisonWidensFindsUnwrittenCellsAndUsesTheTolerance) {
    auto make = [](std::vector<double> v) {
        HostBuffer h;
        h.name = "y";
        h.type = DType::F16;
        h.shape = {v.size()};
        h.bytes = wb::Bytes(h.count() * 2);
        for (std::size_t i = 0; i < v.size(); ++i) h.set(i, v[i]);
        return h;
    };
    HostBuffer want = make({1.0, 2.0, 3.0});
    HostBuffer a = make({1.0, 2.001, 0});
    HostBuffer b = make({1.0, 2.001, 0});
    std::memset(static_cast<std::byte*>(a.mutable_data()) + 4, wb::kPoisonA, 2);  // the last cell never written
    std::memset(static_cast<std::byte*>(b.mutable_data()) + 4, wb::kPoisonB, 2);
    wb::CompareSpec spec;
    spec.buffer = "y";
    spec.atol = 1e-3;
    spec.rtol = 1e-3;
    wb::CompareResult r = wb::compare_buffers(a, &b, want, spec, {});
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.mismatches, 1u);  // 2.001 rounds to 2.0 in half: within tolerance
    EXPECT_EQ(r.unwritten, 1u);
    ASSERT_EQ(r.first.size(), 1u);
    EXPECT_EQ(r.first[0].flat, 2u);
    EXPECT_EQ(r.first[0].reason, wb::MismatchReason::Unwritten);
}

}  // namespace
