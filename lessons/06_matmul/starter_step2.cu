// Step 2 starter: tiled matrix multiply with shared memory.
// C[M,N] = A[M,K] * B[K,N], row-major. The launch MUST use 16x16 blocks:
// each block computes one TILE x TILE tile of C, and each thread loads one
// element of each shared tile.
#define TILE 16

extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];  // a TILE x TILE piece of A
    __shared__ float Bs[TILE][TILE];  // a TILE x TILE piece of B

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;  // this thread's element of C
    int col = blockIdx.x * TILE + tx;

    // No early return here: every thread of the block must reach each
    // __syncthreads(), even threads outside C, because they help load tiles.
    float sum = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        // TODO 1: load one element of each tile. This thread loads
        //         A[row, t + tx] into As[ty][tx] and B[t + ty, col] into Bs[ty][tx].
        //         Where the index falls outside A or B (row >= M, t + tx >= K,
        //         t + ty >= K, col >= N) store 0.0f instead: a zero adds
        //         nothing to the sum.
        As[ty][tx] = 0.0f;
        Bs[ty][tx] = 0.0f;

        // TODO 2: wait until the whole block has finished loading.

        // TODO 3: add this tile's contribution:
        //         sum over k in [0, TILE) of As[ty][k] * Bs[k][tx].

        // TODO 4: wait again before the next iteration overwrites the tiles.
    }

    // TODO 5: store sum in C[row*N + col], but only if row < M and col < N.
}
