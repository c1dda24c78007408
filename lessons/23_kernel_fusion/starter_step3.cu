// Step 3 starter: the fused kernel of step 2, four elements per thread, with
// 16-byte (float4) loads and stores.
// x, residual and y are R x C floats, row-major; bias has C floats, one per
// column. The launch is 1-D: 256 threads per block, ceil_div(ceil_div(R*C, 4),
// 256) blocks. Thread t handles the flat elements 4t, 4t+1, 4t+2, 4t+3.
// cudaMalloc returns memory aligned to 256 bytes, so element 4t of x,
// residual and y starts on a 16-byte boundary.

__device__ __forceinline__ float gelu_tanh(float v)
{
    const float k = 0.7978845608f;              // sqrt(2 / pi)
    return 0.5f * v * (1.0f + tanhf(k * (v + 0.044715f * v * v * v)));
}

// The next column, wrapping to 0 at the end of a row.
__device__ __forceinline__ int next_col(int c, int C)
{
    return (c + 1 == C) ? 0 : c + 1;
}

extern "C" __global__ void bias_gelu_residual_vec4(const float* x, const float* bias,
                                                   const float* residual, float* y,
                                                   int R, int C)
{
    int n = R * C;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int i = 4 * t;                              // this thread's first element
    if (i >= n) return;
    int c = i % C;                              // and its column

    // TODO 1: when all four elements exist, load x and residual with one
    //         float4 load each, compute the four results and store them with
    //         one float4 store. The four elements need not lie in one row:
    //         each takes the bias of its own column, and the column after
    //         C - 1 is 0.

    // TODO 2: the last thread may hold fewer than four elements (R*C is not
    //         always a multiple of 4). It must handle those one float at a
    //         time, and read and write nothing past the end.
}
