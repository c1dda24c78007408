// Lesson 17, step 2 starter: the job cut into CHUNKS pieces, spread over
// NSTREAMS streams, so that copies overlap kernels.
//
// Each chunk is the same three operations as step 1 (copy in, kernel, copy
// out) on its own slice of x and y. Work in one stream runs in order; work
// in different streams may run at the same time.

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

extern "C" int run(wb_host_ctx* ctx)
{
    const float* x = wb_buffer<float>(ctx, "x");  // pinned by the workbook
    float* y = wb_buffer<float>(ctx, "y");
    if (!x || !y) return 1;
    const int n = wb_param_int(ctx, "N");
    const int iters = wb_param_int(ctx, "ITERS");
    const int nstreams = wb_param_int(ctx, "NSTREAMS");
    const int chunks = wb_param_int(ctx, "CHUNKS");
    const size_t bytes = (size_t)n * sizeof(float);

    std::vector<cudaStream_t> streams(nstreams);
    for (auto& s : streams) WB_CHECK(cudaStreamCreate(&s));
    float *d_x = nullptr, *d_y = nullptr;
    WB_CHECK(cudaMalloc(&d_x, bytes));
    WB_CHECK(cudaMalloc(&d_y, bytes));

    // TODO 1: choose the chunk size: CHUNKS chunks of equal size cover all
    //         n elements, except that the last one may be shorter.

    for (int c = 0; c < chunks; ++c) {
        // TODO 2: this chunk's first element and its number of elements.
        //         When n is small, some chunks have none: skip them (a
        //         kernel launched with zero blocks is an error).

        // TODO 3: pick this chunk's stream, so that the chunks take the
        //         streams in turn, and queue on it the copy of its slice
        //         of x in, the kernel over that slice, and the copy of its
        //         slice of y out.
    }

    // TODO 4: wait for every stream.

    WB_CHECK(cudaFree(d_x));
    WB_CHECK(cudaFree(d_y));
    for (auto& s : streams) WB_CHECK(cudaStreamDestroy(s));
    return 0;
}
