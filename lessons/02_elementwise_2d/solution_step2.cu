// Step 2 solution: C = A ⊙ B over a 2-D grid of 16 x 16 blocks.
// a, b and c are H rows of W floats, stored row by row (row-major).
extern "C" __global__ void multiply_2d(const float* a, const float* b, float* c, int H, int W)
{
    // The column takes the .x parts. A warp is 32 consecutive linear thread
    // ids (threadIdx.x + 16 * threadIdx.y): with 16 x 16 blocks, two half-rows
    // of 16 threads. Each half-row reads 16 neighbouring floats, 64 bytes in
    // a row, so the warp's loads coalesce.
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;

    // Both directions are rounded up; test each one on its own.
    if (row < H && col < W) {
        int idx = row * W + col;
        c[idx] = a[idx] * b[idx];
    }
}
