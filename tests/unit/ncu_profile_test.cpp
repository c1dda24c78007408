// tests/unit/ncu_profile_test.cpp — Nsight Compute's source page becomes the
// access table (profile/ncu.hpp). The fixtures in tests/data/ncu/ are ncu
// 2025.3's output on an H200 for the lesson solutions' `ragged` cases (see
// tests/data/ncu/README.md), so the parser is tested here without a GPU; the
// GPU suite profiles the same cases live and compares them with the emulator.
#include "profile/ncu.hpp"

#include "core/error.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

std::string fixture(const std::string& name) {
    std::ifstream in(std::string(WB_SOURCE_DIR) + "/tests/data/ncu/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

const wb::AccessLine* row(const wb::AccessSummary& a, int line, const std::string& op, const std::string& space) {
    for (const auto& l : a.lines)
        if (l.line == line && l.op == op && l.space == space) return &l;
    return nullptr;
}

TEST(NcuProfile, StridedReadsGiveNsightsSectorsPerRequestFromTheFirstValidationRunOnly) {
    const wb::AccessSummary a = wb::parse_ncu_source_page(fixture("12_strided_reads_ragged.txt"));
    EXPECT_TRUE(a.not_recorded.empty());
    EXPECT_EQ(a.source, "ncu");
    ASSERT_EQ(a.launches.size(), 1u);  // two validation runs were profiled: the first is counted
    EXPECT_EQ(a.launches[0].kernel, "strided_copy");
    const auto* copy = row(a, 14, "load", "global");
    ASSERT_NE(copy, nullptr);
    EXPECT_EQ(copy->file, "solution_step1.cu");
    EXPECT_EQ(copy->requests, 35);
    EXPECT_EQ(copy->sectors, 870);
    EXPECT_NEAR(copy->sectors_per_request, 24.86, 0.01);
    const auto* tail = row(a, 18, "load", "global");
    ASSERT_NE(tail, nullptr);
    EXPECT_EQ(tail->requests, 6);
    EXPECT_DOUBLE_EQ(tail->sectors_per_request, 1.0);
    // Nsight Compute's l1tex sectors / requests over the kernel: 21.4.
    EXPECT_NEAR(double(copy->sectors + tail->sectors) / double(copy->requests + tail->requests), 21.37, 0.01);
    ASSERT_NE(row(a, 14, "store", "global"), nullptr);
    EXPECT_EQ(row(a, 14, "store", "global")->sectors, 150);
    for (const auto& l : a.lines) EXPECT_NE(l.space, "shared");
}

TEST(NcuProfile, UnpaddedTileColumnReadIsSeventeenWayOnTheRaggedCaseAndThePaddedOneHasNoConflict) {
    const wb::AccessSummary a = wb::parse_ncu_source_page(fixture("09_shared_tile_ragged.csv"));
    ASSERT_TRUE(a.not_recorded.empty());
    const auto* column = row(a, 41, "load", "shared");
    ASSERT_NE(column, nullptr);
    EXPECT_EQ(column->requests, 64);  // ncu counts the instructions whose lanes were all off too
    EXPECT_EQ(column->wavefronts, 561);
    EXPECT_EQ(column->least_wavefronts, 33);
    EXPECT_DOUBLE_EQ(column->bank_conflict_ways, 17.0);  // 561 wavefronts where 33 would do
    const auto* tile_store = row(a, 25, "store", "shared");
    ASSERT_NE(tile_store, nullptr);
    EXPECT_DOUBLE_EQ(tile_store->bank_conflict_ways, 1.0);
    ASSERT_NE(row(a, 25, "load", "global"), nullptr);
    EXPECT_EQ(row(a, 25, "load", "global")->sectors, 99);

    const wb::AccessSummary padded = wb::parse_ncu_source_page(fixture("09_padded_tile_ragged.csv"));
    const auto* read = row(padded, 36, "load", "shared");
    ASSERT_NE(read, nullptr);
    EXPECT_EQ(read->wavefronts, 33);
    EXPECT_DOUBLE_EQ(read->bank_conflict_ways, 1.0);
}

TEST(NcuProfile, RegisterTilesFloat4AndUnrolledScalarStoresAreCountedPerSourceLine) {
    // Lesson 06 step 4, case ragged: every C store goes through the scalar path
    // on line 119, sixteen STG instructions of one unrolled loop.
    const wb::AccessSummary a = wb::parse_ncu_source_page(fixture("06_register_tiles_ragged.txt"));
    ASSERT_TRUE(a.not_recorded.empty());
    ASSERT_EQ(a.launches.size(), 1u);
    EXPECT_EQ(a.launches[0].kernel, "matmul_regtile");
    const auto* c = row(a, 119, "store", "global");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->requests, 68);
    EXPECT_EQ(c->sectors, 345);
    const auto* tile = row(a, 82, "store", "shared");  // one STS.128 per thread
    ASSERT_NE(tile, nullptr);
    EXPECT_EQ(tile->requests, 48);
    EXPECT_DOUBLE_EQ(tile->bank_conflict_ways, 1.0);
    const auto* a_lo = row(a, 90, "load", "shared");  // eight LDS.128 of the unrolled k loop
    ASSERT_NE(a_lo, nullptr);
    EXPECT_EQ(a_lo->requests, 384);
    EXPECT_DOUBLE_EQ(a_lo->bank_conflict_ways, 1.0);
    const auto* transposed = row(a, 64, "store", "shared");
    ASSERT_NE(transposed, nullptr);
    EXPECT_DOUBLE_EQ(transposed->bank_conflict_ways, 2.0);
}

TEST(NcuProfile, PrintedLinesAndWarningsAmongTheRowsAreSkipped) {
    std::string text = fixture("12_strided_reads_ragged.txt");
    // A kernel's printf and ncu's own notes may fall between the page's lines.
    const std::size_t at = text.find("\"Line No\"");
    ASSERT_NE(at, std::string::npos);
    text.insert(at, "hello from thread 3\n==WARNING== something ncu says\n\"not a page line\"\n");
    const wb::AccessSummary a = wb::parse_ncu_source_page(text);
    ASSERT_NE(row(a, 14, "load", "global"), nullptr);
    EXPECT_EQ(row(a, 14, "load", "global")->sectors, 870);
}

TEST(NcuProfile, APageTheWorkerCutShortGivesNoTableButSaysWhy) {
    // The worker keeps kMaxProfileOutput of what ncu prints and then marks the cut.
    std::string text = fixture("06_register_tiles_ragged.txt");
    text = text.substr(0, text.find("\"119\"")) + "\n[output truncated at 65536 KiB]\n";
    const wb::AccessSummary a = wb::parse_ncu_source_page(text);
    EXPECT_TRUE(a.lines.empty());
    ASSERT_EQ(a.not_recorded.size(), 1u);
    EXPECT_EQ(a.not_recorded[0].key, "profile.too_long");
    EXPECT_NE(wb::render(a.not_recorded, "en").find("65536 KiB"), std::string::npos);
}

TEST(NcuProfile, NoPermissionToReadTheCountersIsSaidWithTheFix) {
    const wb::AccessSummary a = wb::parse_ncu_source_page(
        "==PROF== Connected to process 12 (/usr/bin/cuda-workbook-worker)\n"
        "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on "
        "the target device 0.\n==PROF== Disconnected from process 12\n");
    EXPECT_TRUE(a.lines.empty());
    ASSERT_FALSE(a.not_recorded.empty());
    EXPECT_EQ(a.not_recorded.front().key, "profile.no_permission");
    EXPECT_NE(wb::render(a.not_recorded, "en").find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos);
    EXPECT_NE(wb::render(a.not_recorded, "zh").find("性能计数器"), std::string::npos);
}

TEST(NcuProfile, NothingProfiledAndAnErrorAreSaid) {
    EXPECT_EQ(wb::parse_ncu_source_page("==PROF== Disconnected from process 9\n==WARNING== No kernels were profiled.\n")
                  .not_recorded.front().key,
              "profile.nothing");
    const wb::AccessSummary failed = wb::parse_ncu_source_page("==ERROR== Failed to connect to the target\n");
    ASSERT_FALSE(failed.not_recorded.empty());
    EXPECT_EQ(failed.not_recorded.front().key, "profile.failed");
    EXPECT_NE(wb::render(failed.not_recorded, "en").find("Failed to connect"), std::string::npos);
    EXPECT_EQ(wb::parse_ncu_source_page("").not_recorded.front().key, "profile.nothing");
}

TEST(NcuProfile, TheWrapperLimitsNcuToTheStepsKernels) {
    const std::filesystem::path home = std::filesystem::path(WB_SOURCE_DIR) / "no-such-cuda";
    if (wb::find_ncu(home).empty()) {
        EXPECT_THROW(wb::ncu_wrapper(home, {"transpose"}), wb::Error);
        GTEST_SKIP() << "ncu is not installed here (nor on PATH): only its absence is tested";
    }
    const auto w = wb::ncu_wrapper(home, {"transpose", "scale"});
    ASSERT_GE(w.size(), 3u);
    EXPECT_EQ(w[w.size() - 2], "-k");
    EXPECT_EQ(w.back(), "regex:^(transpose|scale)$");
}

}  // namespace
