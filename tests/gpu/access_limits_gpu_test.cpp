// tests/gpu/access_limits_gpu_test.cpp — a step's access limits (checks.access)
// on a GPU run, where only the CPU emulator can count them: an untimed case
// whose outputs passed is run once more on the emulator and its limits
// judged there (a thread reading three times fails as it does on the
// emulator); the timing case lists them as not judged and passes on its
// outputs; a kernel the emulator cannot run (inline PTX) fails, saying why,
// because nothing shows that its limits held.
#include "gpu_test_support.hpp"

#include "pipeline/run.hpp"

namespace {

wb::RunResult run(const std::string& step, const std::string& test_case, const std::string& source = "") {
    static auto backend = wb::make_local_backend();
    auto loaded = wb::load_lesson(source_dir() + "/tests/data/lessons_good/access_limits.json");
    EXPECT_TRUE(loaded.ok());
    wb::RunRequest req;
    req.trusted = true;
    req.lesson = std::make_shared<const wb::Lesson>(std::move(*loaded.lesson));
    req.step = step;
    req.test_case = test_case;
    req.source = source.empty() ? wb::SourceChoice::Solution : wb::SourceChoice::Custom;
    req.custom_source = source;
    req.executor = wb::Executor::Gpu;
    req.keep_buffers = false;
    return backend->run(req);
}

}  // namespace

TEST(AccessLimitsGpu, AnUntimedCaseIsJudgedByAnEmulatedRunBesideTheGpuRun) {
    WB_REQUIRE_GPU();
    const wb::RunResult r = run("reads", "ragged");
    ASSERT_EQ(r.status, wb::RunStatus::Passed) << r.message;
    EXPECT_FALSE(r.emulated) << "the case ran on the GPU";
    ASSERT_EQ(r.access_limits.size(), 1u);
    EXPECT_EQ(r.access_limits[0].verdict, wb::LimitVerdict::Passed) << r.access_limits[0].said_in("en");
    EXPECT_EQ(r.access_limits[0].value, 2);

    const std::string reads_thrice = R"(extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = a[i] + b[i];
    if (i == 77 && i + 1 < n && a[i + 1] < -1e30f) s = 0;
    c[i] = s;
}
)";
    const wb::RunResult bad = run("reads", "ragged", reads_thrice);
    ASSERT_EQ(bad.status, wb::RunStatus::AccessLimit) << bad.message;
    EXPECT_EQ(bad.message.rfind("Thread (13,0,0) of block (1,0,0) read global memory 3 times; this step allows at most 2.", 0), 0u)
        << bad.message;
    EXPECT_FALSE(bad.gpu_time) << "a kernel that broke a limit is not timed";
}

TEST(AccessLimitsGpu, TheTimingCaseListsItsLimitsAsNotJudgedAndPassesOnItsOutputs) {
    WB_REQUIRE_GPU();
    const wb::RunResult r = run("reads", "large");
    ASSERT_EQ(r.status, wb::RunStatus::Passed) << r.message;
    EXPECT_TRUE(r.gpu_time);
    ASSERT_EQ(r.access_limits.size(), 1u);
    EXPECT_EQ(r.access_limits[0].verdict, wb::LimitVerdict::NotJudged);
    ASSERT_FALSE(r.access_limits[0].said.empty());
    EXPECT_EQ(r.access_limits[0].said[0].key, "access.not_judged.timed");
}

TEST(AccessLimitsGpu, AKernelTheEmulatorCannotRunFailsItsLimitsSayingWhy) {
    WB_REQUIRE_GPU();
    const std::string ptx = R"(extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s;
    asm("add.f32 %0, %1, %2;" : "=f"(s) : "f"(a[i]), "f"(b[i]));
    c[i] = s;
}
)";
    const wb::RunResult r = run("reads", "ragged", ptx);
    ASSERT_EQ(r.status, wb::RunStatus::AccessLimit) << r.message;
    ASSERT_FALSE(r.message_said.empty());
    EXPECT_EQ(r.message_said[0].key, "access.not_judged.emulator_failed");
    EXPECT_EQ(r.access_limits.at(0).verdict, wb::LimitVerdict::NotJudged);
}
