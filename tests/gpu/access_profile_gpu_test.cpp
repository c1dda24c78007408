// tests/gpu/access_profile_gpu_test.cpp — Nsight Compute and the CPU emulator
// give the same memory table for the shipped lessons' kernels.
//
// For each case below, the solution runs twice: on the CPU emulator with the
// access record (RunRequest::access), and on the GPU in a one-shot worker under
// ncu (RunRequest::profile). Every case here has a grid of at most 8 blocks, so
// the emulator records every block, as ncu counts them. Per source line, kind
// of access and memory space, the global sectors must be equal (they do not
// depend on how the compiler groups a thread's loads into instructions) and
// the shared-memory bank-conflict ways (wavefronts over the ideal) must agree
// to 0.05. Requests are printed, not compared: ncu also counts an instruction
// whose lanes are all off, which the emulator never sees. The table printed is
// the one docs/performance.md records. Skipped, with the reason, without a GPU
// or without ncu.
#include "gpu_test_support.hpp"
#include "core/fs.hpp"
#include "pipeline/worker.hpp"
#include "profile/ncu.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

namespace {

bool have_ncu() {
    std::filesystem::path home;
    try {
        home = wb::cuda_home();
    } catch (const std::exception&) {
    }
    return !wb::find_ncu(home).empty();
}

struct Case {
    const char* lesson;
    const char* step;
    const char* test_case;
};

class AccessProfileGpu : public ::testing::TestWithParam<Case> {};

TEST_P(AccessProfileGpu, NsightComputeAndTheEmulatorGiveTheSameSectorsAndBankConflictsPerLine) {
    WB_REQUIRE_GPU();
    if (!have_ncu()) GTEST_SKIP() << "needs Nsight Compute (ncu in the CUDA Toolkit's bin/ or on PATH); none was found";
    const Case c = GetParam();
    wb::WorkerBackend worker;

    wb::RunRequest emu = solution_request(c.lesson, c.step, c.test_case);
    ASSERT_TRUE(emu.lesson) << c.lesson;
    emu.executor = wb::Executor::Cpu;
    emu.timing = false;
    emu.access = true;
    const wb::RunResult e = worker.run(emu);
    ASSERT_EQ(e.status, wb::RunStatus::Passed) << e.message;
    ASSERT_TRUE(e.access && e.access->not_recorded.empty());
    for (const auto& l : e.access->launches)
        ASSERT_EQ(static_cast<long long>(l.sampled.size()), l.blocks) << "this case's grid is sampled: pick a smaller one";

    wb::RunRequest gpu = solution_request(c.lesson, c.step, c.test_case);
    gpu.executor = wb::Executor::Gpu;
    gpu.profile = true;
    const wb::RunResult g = worker.run(gpu);
    ASSERT_EQ(g.status, wb::RunStatus::Passed) << g.message;
    ASSERT_TRUE(g.profile);
    ASSERT_TRUE(g.profile->not_recorded.empty()) << wb::render(g.profile->not_recorded, "en");
    ASSERT_FALSE(g.profile->lines.empty());

    using Key = std::tuple<int, std::string, std::string>;
    std::map<Key, const wb::AccessLine*> emulated, profiled;
    for (const auto& l : e.access->lines) emulated[{l.line, l.op, l.space}] = &l;
    for (const auto& l : g.profile->lines) profiled[{l.line, l.op, l.space}] = &l;
    std::printf("[ figures  ] %s step %s case %s: line op space | emulator requests sectors/ways | ncu requests sectors/ways\n",
                c.lesson, c.step, c.test_case);
    for (const auto& [key, el] : emulated) {
        const auto it = profiled.find(key);
        const bool global = el->space == "global";
        const auto fig = [&](const wb::AccessLine& l) {
            char s[64];
            if (global) std::snprintf(s, sizeof s, "%lld sectors (%.2f/req)", l.sectors, l.sectors_per_request);
            else std::snprintf(s, sizeof s, "%.2f ways (%lld/%lld)", l.bank_conflict_ways, l.wavefronts, l.least_wavefronts);
            return std::string(s);
        };
        std::printf("[ figures  ]   %d %s %s | %lld%s %s | %s\n", el->line, el->op.c_str(), el->space.c_str(), el->requests,
                    el->uneven_requests > 0 ? "~" : "",
                    fig(*el).c_str(), it == profiled.end() ? "-" : (std::to_string(it->second->requests) + " " + fig(*it->second)).c_str());
        EXPECT_NE(it, profiled.end()) << "ncu has no " << el->op << " of " << el->space << " memory on line " << el->line;
        if (it == profiled.end()) continue;  // every row is still printed
        // Where lanes of a warp ran the line unequally, an unrolled loop on the GPU
        // can pair them otherwise (AccessLine::uneven_requests): within 5% there.
        const double slack = el->uneven_requests > 0 ? 0.05 : 0.0;
        if (global)
            EXPECT_LE(std::abs(double(it->second->sectors - el->sectors)), slack * double(el->sectors))
                << "line " << el->line << " " << el->op << ": ncu " << it->second->sectors << " sectors, the emulator " << el->sectors;
        else
            EXPECT_NEAR(it->second->bank_conflict_ways, el->bank_conflict_ways, std::max(0.05, slack * el->bank_conflict_ways))
                << "line " << el->line << " " << el->op;
    }
    for (const auto& [key, pl] : profiled)
        EXPECT_TRUE(emulated.count(key)) << "the emulator has no " << pl->op << " of " << pl->space << " memory on line "
                                         << pl->line << " (ncu: " << pl->requests << " requests)";
}

INSTANTIATE_TEST_SUITE_P(Lessons, AccessProfileGpu,
                         ::testing::Values(Case{"12_coalescing.json", "1", "ragged"}, Case{"12_coalescing.json", "2", "ragged"},
                                           Case{"09_transpose.json", "1", "one_tile"}, Case{"09_transpose.json", "2", "ragged"},
                                           Case{"09_transpose.json", "3", "ragged"}, Case{"09_transpose.json", "2", "one_tile"},
                                           Case{"06_matmul.json", "2", "ragged"}, Case{"06_matmul.json", "3", "ragged"},
                                           Case{"06_matmul.json", "4", "ragged"},
                                           Case{"03_rgb_to_gray.json", "1", "ragged"}, Case{"03_rgb_to_gray.json", "2", "ragged"}),
                         [](const ::testing::TestParamInfo<Case>& i) {
                             std::string n = std::string(i.param.lesson).substr(0, 2) + "_step" + i.param.step + "_" + i.param.test_case;
                             return n;
                         });

}  // namespace
