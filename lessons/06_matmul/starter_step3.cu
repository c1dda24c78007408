// Step 3 starter: tiled matrix multiply with shared memory.
// C[M,N] = A[M,K] * B[K,N], row-major. The launch MUST use 16x16 blocks
// (grid ceil_div(N, 16) x ceil_div(M, 16)): each block computes one
// TILE x TILE tile of C, and each thread loads one element of each shared tile.
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
        // TODO 1: load this thread's element of each tile: the one at its
        //         own position (ty, tx) in the tile of A and in the tile of B
        //         that start at t along K. Where that element lies outside
        //         A or B, store a value that adds nothing to the sum.
        As[ty][tx] = 0.0f;
        Bs[ty][tx] = 0.0f;

        // TODO 2: wait until the whole block has finished loading.

        // TODO 3: add this tile's contribution to sum: the products of this
        //         thread's row of As with its column of Bs.

        // TODO 4: wait again before the next iteration overwrites the tiles.
    }

    // TODO 5: store sum in C, only if (row, col) lies inside C.
}
