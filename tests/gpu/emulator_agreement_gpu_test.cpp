// tests/gpu/emulator_agreement_gpu_test.cpp — the CPU emulator and the GPU
// give the same outputs: for every shipped lesson's solution, every step and
// every case the emulator runs (not "emulate": false, not the timing case, not a
// host step, whose run() the emulator refuses by design),
// the emulated outputs are compared with the GPU's by the step's own rule
// (its atol and rtol for that case). Prints one figure line per case.
#include "compare/compare.hpp"
#include "gpu_test_support.hpp"
#include "pipeline/run.hpp"

#include <cstdio>

namespace {

TEST(EmulatorAgreement, EveryEmulatedCaseMatchesTheGpuWithinTheLessonsTolerance) {
    WB_REQUIRE_GPU();
    auto backend = wb::make_local_backend();
    int cases = 0, disagreements = 0;
    for (const auto& file : wb::list_lessons(source_dir() + "/lessons")) {
        auto loaded = wb::load_lesson(file);
        ASSERT_TRUE(loaded.ok()) << file;
        auto lesson = std::make_shared<const wb::Lesson>(std::move(*loaded.lesson));
        for (const auto& step : lesson->steps) {
            if (step.is_host()) {
                std::printf("[ skipped  ] %s/%s: a host step; the emulator runs kernels, not run()\n", lesson->id.c_str(),
                            step.id.c_str());
                continue;
            }
            for (const auto& tc : step.checks.cases) {
                if (!tc.emulate || tc.timing) continue;
                wb::RunRequest req;
                req.trusted = true;
                req.lesson = lesson;
                req.step = step.id;
                req.test_case = tc.name;
                req.source = wb::SourceChoice::Solution;
                req.timing = false;
                req.keep_buffers = true;
                wb::RunResult gpu = backend->run(req);
                req.executor = wb::Executor::Cpu;
                wb::RunResult cpu = backend->run(req);
                const std::string id = lesson->id + "/" + step.id + "/" + tc.name;
                ASSERT_EQ(gpu.status, wb::RunStatus::Passed) << id << ": " << gpu.message;
                ASSERT_EQ(cpu.status, wb::RunStatus::Passed) << id << ": " << cpu.message;
                ASSERT_TRUE(cpu.emulated);
                ++cases;
                for (const auto& rule : gpu.comparisons) {
                    const wb::HostBuffer* g = nullptr;
                    const wb::HostBuffer* c = nullptr;
                    for (const auto& h : gpu.gpu_outputs) if (h.name == rule.buffer) g = &h;
                    for (const auto& h : cpu.gpu_outputs) if (h.name == rule.buffer) c = &h;
                    ASSERT_TRUE(g && c) << id << ": no output '" << rule.buffer << "'";
                    wb::CompareSpec spec;
                    spec.buffer = rule.buffer;
                    spec.atol = rule.atol;
                    spec.rtol = rule.rtol;
                    const wb::CompareResult d = wb::compare_buffers(*c, nullptr, *g, spec);
                    if (!d.passed) ++disagreements;
                    EXPECT_TRUE(d.passed) << id << ": emulated '" << rule.buffer << "' differs from the GPU's in "
                                          << d.mismatches << " elements";
                    std::printf("[ figures  ] emulator vs GPU %s %s: max abs difference %.3g (atol %.3g, rtol %.3g)\n",
                                id.c_str(), rule.buffer.c_str(), d.max_abs_error, rule.atol, rule.rtol);
                }
            }
        }
    }
    std::printf("[ figures  ] emulator vs GPU: %d cases, %d outputs outside the lesson's tolerance\n", cases, disagreements);
    EXPECT_GT(cases, 100);
}

}  // namespace
