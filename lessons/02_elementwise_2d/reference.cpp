// CPU reference for lesson 02_elementwise_2d: C = A ⊙ B, the element-wise
// (Hadamard) product of two H x W float matrices stored row-major.
// Each element is one float multiplication, the same operation the GPU does,
// so the results are bit-identical.
#include <cstddef>

// Step 1: one block covers the whole matrix; the kernel gets no sizes, so the
// reference is given the element count n = H*W.
void multiply_flat_ref(const float* a, const float* b, float* c, int n)
{
    for (int i = 0; i < n; ++i) {
        c[i] = a[i] * b[i];
    }
}

// Step 2: a grid of 2-D blocks; the kernel gets H and W.
void multiply_2d_ref(const float* a, const float* b, float* c, int H, int W)
{
    #pragma omp parallel for schedule(static)  // rows shared among the cores (-fopenmp)
    for (int row = 0; row < H; ++row) {
        const std::size_t base = static_cast<std::size_t>(row) * W;
        for (int col = 0; col < W; ++col) {
            c[base + col] = a[base + col] * b[base + col];
        }
    }
}
