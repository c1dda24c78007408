// tests/unit/emulate_plain_test.cpp — the CPU emulator builds every kernel
// source twice: once with the access check (emulate/access_check.hpp), for
// the first validation run, and once without it (EmuBuild::plain_library),
// for the second, whose only question is whether another thread order
// changes the result. The plain library is a real build without the check:
// the same race that the checked library reports goes unrecorded in it, and
// both compute the same result. Through the CLI, the second run's kernels
// are the plain ones, so an order-dependent result is still caught.
#include "emulate/access_check.hpp"
#include "emulate/emulator.hpp"

#include "scoped_cache_dir.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace wb;

namespace {

class EmulatePlain : public ScopedCacheDirTest {};

// Every thread adds into out[0] without an atomic: a race, on any order.
constexpr const char* kRacySum = R"(
extern "C" __global__ void racy_sum(const int* in, int* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[0] += in[i];
}
)";

struct Found {
    bool race = false;
    int sum = 0;
};

Found run(const EmuBuild& b, bool plain) {
    EmuModule m(b, plain);
    EmuArena arena;
    AccessShadow shadow;
    auto* in = reinterpret_cast<int*>(arena.add("in", 64 * sizeof(int), sizeof(int)));
    auto* out = reinterpret_cast<int*>(arena.add("out", sizeof(int), sizeof(int)));
    shadow.add_buffer("in", reinterpret_cast<const std::byte*>(in), 64 * sizeof(int), sizeof(int), true);
    shadow.add_buffer("out", reinterpret_cast<const std::byte*>(out), sizeof(int), sizeof(int));
    shadow.set_written(1, true);
    for (int i = 0; i < 64; ++i) in[i] = 1;
    *out = 0;
    int n = 64;
    void* args[] = {&in, &out, &n};
    LaunchDims d;
    d.grid = {1, 1, 1};
    d.block = {64, 1, 1};
    const auto fault = m.launch(0, d, args, &arena, &shadow, 0, 1);
    EXPECT_FALSE(fault.has_value());
    Found f;
    for (const auto& x : shadow.findings()) f.race = f.race || x.kind == AccessFinding::Kind::Race;
    f.sum = *out;
    return f;
}

}  // namespace

TEST_F(EmulatePlain, TheSameKernelsAreBuiltWithAndWithoutTheAccessCheck) {
    SourceText s;
    s.text = kRacySum;
    s.origin = "racy_sum.cu";
    const EmuBuild b = build_emulated(s, {"racy_sum"});
    ASSERT_TRUE(b.ok) << b.log;
    ASSERT_FALSE(b.plain_library.empty());
    EXPECT_NE(b.plain_library, b.library);

    const Found checked = run(b, false);
    const Found plain = run(b, true);
    EXPECT_TRUE(checked.race);
    EXPECT_FALSE(plain.race);  // nothing calls the check in the plain library
    // One core, threads in order: both add up all 64.
    EXPECT_EQ(checked.sum, 64);
    EXPECT_EQ(plain.sum, 64);

    // Built again, both come from the cache.
    const EmuBuild again = build_emulated(s, {"racy_sum"});
    EXPECT_TRUE(again.from_cache);
    EXPECT_EQ(again.plain_library, b.plain_library);
}
