// tests/gpu/runtime_gpu_test.cpp — what the run pipeline does on a real GPU:
// poisoned outputs catch unwritten cells, limits are refused before launch,
// large shared memory is opted in to, and a kernel that faults is reported
// (in a child process, since the fault ruins its CUDA context).
#include "gpu_test_support.hpp"
#include "driver/device.hpp"
#include "pipeline/run.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>

namespace fs = std::filesystem;

namespace {

wb::RunBackend& backend() {
    static auto b = wb::make_local_backend();
    return *b;
}

wb::RunResult run_vector_add(const std::string& source, const std::string& test_case,
                             std::vector<wb::LaunchOverride> launches = {}) {
    wb::RunRequest req;
    req.trusted = true;  // on a GPU machine the bundle's binaries may not know this checkout as shipped
    req.lesson = load_shipped("01_vector_add.json");
    req.step = "1";
    req.test_case = test_case;
    req.source = wb::SourceChoice::Custom;
    req.custom_source = source;
    req.launches = std::move(launches);
    req.keep_buffers = false;
    return backend().run(req);
}

constexpr const char* kSkipsLast = R"(
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - 1) c[i] = a[i] + b[i];   // off by one: the last element is never written
}
)";

constexpr const char* kCorrect = R"(
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
)";

// Uses 64 KiB of dynamic shared memory: over the 48 KiB default, so the runtime must opt in.
constexpr const char* kBigShared = R"(
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    extern __shared__ float stage[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    stage[threadIdx.x + 16000] = (i < n) ? a[i] + b[i] : 0.f;
    __syncthreads();
    if (i < n) c[i] = stage[threadIdx.x + 16000];
}
)";

}  // namespace

TEST(GpuRun, DeviceIsQueriedWithItsLimits) {
    WB_REQUIRE_GPU();
    auto devices = wb::query_devices();
    ASSERT_FALSE(devices.empty());
    const auto& d = devices[0];
    std::printf("[ device   ] %s, %s, %d SMs, %.1f GiB, smem/block opt-in %lld KiB\n", d.name.c_str(), d.arch().c_str(),
                d.sm_count, d.total_memory / 1073741824.0, d.limits.shared_per_block_optin / 1024);
    EXPECT_GT(d.sm_count, 0);
    EXPECT_EQ(d.limits.max_threads_per_block, 1024);
    EXPECT_GE(d.limits.shared_per_block_optin, d.limits.shared_per_block);
}

TEST(GpuRun, UnwrittenLastElementIsCaughtByPoison) {
    WB_REQUIRE_GPU();
    auto r = run_vector_add(kSkipsLast, "ragged");
    ASSERT_EQ(r.status, wb::RunStatus::Mismatch) << r.message;
    ASSERT_EQ(r.comparisons.size(), 1u);
    const auto& c = r.comparisons[0];
    EXPECT_EQ(c.mismatches, 1u);
    EXPECT_EQ(c.unwritten, 1u);
    ASSERT_FALSE(c.first.empty());
    EXPECT_EQ(c.first[0].index, std::vector<std::size_t>{999});
    EXPECT_FALSE(r.gpu_time) << "a wrong kernel must not be timed";
}

TEST(GpuRun, A2048ThreadBlockIsRefusedBeforeLaunch) {
    WB_REQUIRE_GPU();
    wb::LaunchOverride ov;
    ov.block = std::array<long long, 3>{2048, 1, 1};
    auto r = run_vector_add(kCorrect, "small", {ov});
    ASSERT_EQ(r.status, wb::RunStatus::Refused) << r.message;
    EXPECT_NE(r.message.find("1024"), std::string::npos) << r.message;
}

TEST(GpuRun, BlockOverrideKeepsTheGridCoveringTheProblem) {
    WB_REQUIRE_GPU();
    wb::LaunchOverride ov;
    ov.block = std::array<long long, 3>{96, 1, 1};
    auto r = run_vector_add(kCorrect, "ragged", {ov});
    ASSERT_EQ(r.status, wb::RunStatus::Passed) << r.message;
    EXPECT_EQ(r.launches[0].dims.grid[0], 11);  // ceil(1000 / 96)
}

TEST(GpuRun, SharedMemoryOver48KiBIsOptedIn) {
    WB_REQUIRE_GPU();
    wb::LaunchOverride ov;
    ov.block = std::array<long long, 3>{256, 1, 1};
    ov.shared_bytes = 64 * 1024 + 1024;
    auto r = run_vector_add(kBigShared, "ragged", {ov});
    ASSERT_EQ(r.status, wb::RunStatus::Passed) << r.message;
    EXPECT_TRUE(r.launches[0].shared_optin);
}

TEST(GpuRun, SharedMemoryOverTheDeviceMaximumIsRefused) {
    WB_REQUIRE_GPU();
    wb::LaunchOverride ov;
    ov.shared_bytes = 1024 * 1024;
    auto r = run_vector_add(kBigShared, "small", {ov});
    ASSERT_EQ(r.status, wb::RunStatus::Refused) << r.message;
    EXPECT_NE(r.message.find("shared memory"), std::string::npos) << r.message;
}

TEST(GpuRun, IllegalAddressIsReportedWithAHintAndTheProgramSurvives) {
    WB_REQUIRE_GPU();
    fs::path dir = fs::temp_directory_path() / "wb_gpu_test";
    fs::create_directories(dir);
    fs::path src = dir / "oob.cu";
    std::ofstream(src) << "extern \"C\" __global__ void vector_add(const float* a, const float* b, float* c, int n)\n"
                          "{\n"
                          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                          "    c[i + (1 << 30)] = a[i] + b[i];\n"
                          "}\n";
    // --trust: from a device bundle, this checkout's lessons/ is not the CLI's shipped folder.
    const auto [rc, out] =
        run_cli("run '" + source_dir() + "/lessons/01_vector_add.json' --trust --source '" + src.string() + "'");
    ASSERT_NE(rc, -1) << "the CLI crashed instead of reporting the fault:\n" << out;
    EXPECT_EQ(rc, 1) << out;
    // Far out of bounds: the driver reports an illegal address, or (seen on an
    // H200 with driver 580) an operation on an invalid address space.
    EXPECT_TRUE(out.find("CUDA_ERROR_ILLEGAL_ADDRESS") != std::string::npos ||
                out.find("CUDA_ERROR_INVALID_ADDRESS_SPACE") != std::string::npos)
        << out;
    EXPECT_NE(out.find("bounds"), std::string::npos) << out;
}
