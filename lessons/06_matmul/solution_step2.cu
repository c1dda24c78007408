// Step 2 solution: the same kernel with the column on x, so that the 32
// threads of a warp work on 32 neighbouring elements of one row of C.
// The launch uses blocks of 32 x 8 threads and a grid of
// ceil_div(N, 32) x ceil_div(M, 8): x covers the N columns, y the M rows.
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K)
{
    // A warp is 32 consecutive thread numbers (y * blockDim.x + x); with this
    // step's 32-wide block, one row and 32 consecutive columns. At each k the
    // warp reads one A[row][k] (the same address for all 32) and 32
    // consecutive floats of row k of B (128 bytes, 4 sectors), and at the end it
    // stores 32 consecutive floats of C.
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;

    float sum = 0.0f;
    for (int k = 0; k < K; ++k) {
        sum += A[row * K + k] * B[k * N + col];
    }
    C[row * N + col] = sum;
}
