// Step 3 solution: tiled matrix multiply with shared memory.
// C[M,N] = A[M,K] * B[K,N], row-major. The launch MUST use 16x16 blocks
// (grid ceil_div(N, 16) x ceil_div(M, 16)):
// each block computes one TILE x TILE tile of C, and each thread loads one
// element of each shared tile.
#define TILE 16

extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;

    // No early return: threads outside C still load tiles and must reach
    // every __syncthreads().
    float sum = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        // Each thread loads one element of each tile; out-of-range elements
        // become 0 so the ragged last tile adds nothing extra.
        int a_col = t + tx;
        int b_row = t + ty;
        As[ty][tx] = (row < M && a_col < K) ? A[row * K + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < K && col < N) ? B[b_row * N + col] : 0.0f;
        __syncthreads();  // tiles complete before anyone reads them

        for (int k = 0; k < TILE; ++k) {
            sum += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();  // everyone done reading before the next load
    }

    if (row < M && col < N) {
        C[row * N + col] = sum;
    }
}
