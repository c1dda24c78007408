// Step 2 solution: y = GELU(x + bias) + residual in ONE kernel.
// x, residual and y are R x C floats, row-major; bias has C floats, one per
// column. The launch is 1-D: 256 threads per block, ceil_div(R*C, 256)
// blocks, one thread per element (i is the flat index, 0 ... R*C - 1).

// Step 1's GELU, as a device function: the compiler inlines it, so its
// value stays in a register.
__device__ __forceinline__ float gelu_tanh(float v)
{
    const float k = 0.7978845608f;              // sqrt(2 / pi)
    return 0.5f * v * (1.0f + tanhf(k * (v + 0.044715f * v * v * v)));
}

extern "C" __global__ void bias_gelu_residual(const float* x, const float* bias,
                                              const float* residual, float* y,
                                              int R, int C)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= R * C) return;

    // One read of each input, everything in between in registers, one write:
    // 12 bytes of x, residual and y per element (bias is C floats, read from
    // the caches after the first rows), against step 1's 28.
    float v = x[i] + bias[i % C];
    y[i] = gelu_tanh(v) + residual[i];
}
