// Step 3 solution: the fused kernel of step 2, four elements per thread, with
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

    if (i + 3 < n) {
        // Four elements: one 16-byte load of x, one of residual, one store.
        // bias stays scalar: when C is not a multiple of 4, the four
        // elements can straddle the end of a row, and bias + c need not be
        // 16-byte aligned.
        float4 xv = reinterpret_cast<const float4*>(x)[t];
        float4 rv = reinterpret_cast<const float4*>(residual)[t];
        float4 yv;
        yv.x = gelu_tanh(xv.x + bias[c]) + rv.x;  c = next_col(c, C);
        yv.y = gelu_tanh(xv.y + bias[c]) + rv.y;  c = next_col(c, C);
        yv.z = gelu_tanh(xv.z + bias[c]) + rv.z;  c = next_col(c, C);
        yv.w = gelu_tanh(xv.w + bias[c]) + rv.w;
        reinterpret_cast<float4*>(y)[t] = yv;
    } else {
        // The tail: 1 to 3 elements, one float at a time.
        for (int k = i; k < n; ++k) {
            y[k] = gelu_tanh(x[k] + bias[c]) + residual[k];
            c = next_col(c, C);
        }
    }
}
