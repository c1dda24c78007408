// Step 1 solution: y = GELU(x + bias) + residual as three kernels, launched one
// after another, as PyTorch's eager mode runs three operators:
//     h = x + bias            add_bias
//     g = gelu(h, 'tanh')     gelu_tanh
//     y = g + residual        add_residual
// x, h, g, residual and y are R x C floats, row-major; bias has C floats, one
// per column. Each launch is 1-D: 256 threads per block, ceil_div(R*C, 256)
// blocks, one thread per element (i is the flat index, 0 ... R*C - 1).
// Each kernel reads its inputs from global memory and writes its whole output
// back there: 28 bytes per element in all, where the fused kernel of step 2
// moves 12.

// Element i lies in column i % C, and every row adds the same bias vector
// (NumPy's and PyTorch's broadcasting of a shape (C,) tensor).
extern "C" __global__ void add_bias(const float* x, const float* bias, float* h, int R, int C)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < R * C) {
        h[i] = x[i] + bias[i % C];
    }
}

// GELU with the tanh approximation, as torch.nn.functional.gelu(v,
// approximate='tanh'):
//     0.5 * v * (1 + tanh(sqrt(2/pi) * (v + 0.044715 * v^3)))
extern "C" __global__ void gelu_tanh(const float* h, float* g, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float k = 0.7978845608f;          // sqrt(2 / pi)
        float v = h[i];
        float inner = k * (v + 0.044715f * v * v * v);
        g[i] = 0.5f * v * (1.0f + tanhf(inner));
    }
}

extern "C" __global__ void add_residual(const float* g, const float* residual, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = g[i] + residual[i];
    }
}
