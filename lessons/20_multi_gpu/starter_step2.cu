// Lesson 20, step 2 starter: the job split across every visible GPU.
//
// Each GPU gets a contiguous slice of x and y, with its own stream and its
// own device memory. Every CUDA call acts on the current device, so make a
// GPU current (cudaSetDevice) before you create, allocate or queue anything
// for it. Queue all the GPUs' work first, then wait for each of them.

#include <algorithm>
#include <vector>

__global__ void charge(const float* x, float* y, int n, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float b = 1.0f / (float)iters;
    const float a = 1.0f - b;
    const float c = x[i] * b;
    float v = 0.0f;
    for (int k = 0; k < iters; ++k) v = fmaf(v, a, c);  // v += (x - v) / iters
    y[i] = v;
}

// What one GPU works on.
struct Part {
    int begin = 0, count = 0;  // its slice of x and y
    cudaStream_t stream = nullptr;
    float* d_x = nullptr;      // device memory on that GPU, count floats each
    float* d_y = nullptr;
};

extern "C" int run(wb_host_ctx* ctx)
{
    const float* x = wb_buffer<float>(ctx, "x");  // pinned for every GPU
    float* y = wb_buffer<float>(ctx, "y");
    if (!x || !y) return 1;
    const int n = wb_param_int(ctx, "N");
    const int iters = wb_param_int(ctx, "ITERS");

    int gpus = 0;
    WB_CHECK(cudaGetDeviceCount(&gpus));
    std::vector<Part> parts(gpus);

    for (int d = 0; d < gpus; ++d) {
        Part& p = parts[d];
        // TODO 1: this GPU's slice: split n into `gpus` nearly equal,
        //         contiguous slices. With fewer elements than GPUs, some
        //         slices are empty; leave those GPUs alone.

        // TODO 2: make GPU d current, create its stream, allocate its
        //         slices, and queue on its stream: the copy of its slice of
        //         x in, the kernel, the copy of its slice of y out.
    }

    // TODO 3: for every GPU that got work: make it current, wait for its
    //         stream, free its memory and destroy its stream.

    // TODO 4: leave the workbook's GPU (ctx->device) current, as it was.
    return 0;
}
