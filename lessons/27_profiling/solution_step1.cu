// Step 1 solution: the same kernel with coalesced access.
// C[M,N] = A[M,K] * B[K,N], all row-major. The launch uses 16 x 16 blocks on
// a grid of ceil_div(N, 16) x ceil_div(M, 16): grid.x walks the columns,
// grid.y the rows.
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K)
{
    // A warp is 32 consecutive thread numbers (threadIdx.x varying fastest):
    // with 16 x 16 blocks, two half-rows of 16 consecutive columns. At each k
    // they read 2 values of A (one per row, each sent to 16 lanes) and 16
    // consecutive floats of row k of B, and at the end they store 2 x 16
    // consecutive floats of C. The mapping works for any block shape.
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;

    float sum = 0.0f;
    for (int k = 0; k < K; ++k) {
        float a = A[row * K + k];
        float b = B[k * N + col];
        sum += a * b;
    }
    C[row * N + col] = sum;
}
