// tests/gpu/module_reuse_gpu_test.cpp — a loaded module is reused between runs
// of the same compiled image, except when the image has __device__ variables:
// those would carry values from one run into the next. A kernel that counts
// its launches in one must see a fresh count in every run.
#include "gpu_test_support.hpp"

#include "pipeline/run.hpp"

TEST(ModuleReuse, ADeviceVariableStartsFreshInEveryRun) {
    WB_REQUIRE_GPU();
    auto backend = wb::make_local_backend();
    wb::RunRequest req = solution_request("01_vector_add.json", "1", "ragged");
    req.source = wb::SourceChoice::Custom;
    // Right only while `launches` is at most 2 when it is read: the two
    // validation launches of one run. A reused module would start the next run at 2 or more.
    req.custom_source = R"(
__device__ int launches;
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {
    if (blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(&launches, 1);
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i] + (*(volatile int*)&launches > 2 && blockIdx.x == 0 ? 1.0f : 0.0f);
}
)";
    req.timing = false;
    for (int run = 1; run <= 3; ++run) {
        const wb::RunResult r = backend->run(req);
        EXPECT_EQ(r.status, wb::RunStatus::Passed) << "run " << run << ": " << r.message;
    }
}
