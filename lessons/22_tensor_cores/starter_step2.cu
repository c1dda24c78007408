// Step 2: the block stages tiles of A and B through shared memory.
// A block of 128 threads (4 warps) computes a 64 x 64 tile of C; each warp
// computes a 32 x 32 quarter of it as 2 x 2 WMMA tiles of 16 x 16. Along K the
// block moves 16 at a time. M, N and K may be any size here.
// Launch: blocks of 128 threads, grid ceil_div(N, 64) x ceil_div(M, 64).
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

#define BM 64   // rows of C per block
#define BN 64   // columns of C per block
#define BK 16   // the step along K
#define WM 32   // rows of C per warp
#define WN 32   // columns of C per warp
#define THREADS 128

extern "C" __global__ void __launch_bounds__(THREADS)
wmma_gemm_tiled(const __half* A, const __half* B, float* C, int M, int N, int K)
{
    // load_matrix_sync and store_matrix_sync want 32-byte aligned addresses.
    __shared__ __align__(32) __half As[BM][BK];
    __shared__ __align__(32) __half Bs[BK][BN];
    __shared__ __align__(32) float Cs[BM][BN];

    const int tid = threadIdx.x;
    const int warp = tid / 32;
    const int warp_row = (warp / 2) * WM;  // 0 or 32, inside the block's tile
    const int warp_col = (warp % 2) * WN;  // 0 or 32
    const int row0 = blockIdx.y * BM;
    const int col0 = blockIdx.x * BN;

    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_frag[2];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b_frag[2];
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < K; k0 += BK) {
        // TODO 1: the 128 threads copy the 64 x 16 tile of A at (row0, k0) into As
        //         and the 16 x 64 tile of B at (k0, col0) into Bs. Where the tile
        //         sticks out of the matrix (a row, a column or a k that does not
        //         exist), store a zero instead.

        // TODO 2: make sure the tiles are complete before any warp reads them.

        // TODO 3: this warp loads its two fragments of A (rows warp_row and
        //         warp_row + 16 of As) and of B (columns warp_col and warp_col + 16
        //         of Bs), and adds the four products into acc[i][j]. The leading
        //         dimension is now the row length of the shared array.

        // TODO 4: make sure every warp is done with the tiles before the next
        //         iteration overwrites them.
    }

    // TODO 5: store the four accumulators into this warp's quarter of Cs, wait for
    //         the whole block, then copy the elements of Cs that lie inside C
    //         (row < M, column < N) to C.
}
