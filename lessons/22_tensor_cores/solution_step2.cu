// Step 2 solution: the block stages tiles of A and B through shared memory.
// A block of 128 threads (4 warps) computes a 64 x 64 tile of C; each warp
// computes a 32 x 32 quarter of it as 2 x 2 WMMA tiles of 16 x 16. Along K the
// block moves 16 at a time: it copies a 64 x 16 tile of A and a 16 x 64 tile of
// B into shared memory, with zeros where the tile sticks out of the matrix, so
// M, N and K may be any size. The result goes through shared memory too, and
// only the elements inside C are written.
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

    const __half zero = __float2half(0.0f);
    for (int k0 = 0; k0 < K; k0 += BK) {
        // Every thread copies 8 elements of each tile; outside the matrix, 0.
        for (int i = tid; i < BM * BK; i += THREADS) {
            const int r = i / BK, c = i % BK;
            const int gr = row0 + r, gc = k0 + c;
            As[r][c] = (gr < M && gc < K) ? A[gr * K + gc] : zero;
        }
        for (int i = tid; i < BK * BN; i += THREADS) {
            const int r = i / BN, c = i % BN;
            const int gr = k0 + r, gc = col0 + c;
            Bs[r][c] = (gr < K && gc < N) ? B[gr * N + gc] : zero;
        }
        __syncthreads();  // the tiles are complete before any warp loads a fragment

        for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(a_frag[i], &As[warp_row + 16 * i][0], BK);
        for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(b_frag[j], &Bs[0][warp_col + 16 * j], BN);
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], a_frag[i], b_frag[j], acc[i][j]);
        __syncthreads();  // every warp has read the tiles before they are overwritten
    }

    // Through shared memory, so that only the elements inside C are written.
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            wmma::store_matrix_sync(&Cs[warp_row + 16 * i][warp_col + 16 * j], acc[i][j], BN, wmma::mem_row_major);
    __syncthreads();
    for (int i = tid; i < BM * BN; i += THREADS) {
        const int r = i / BN, c = i % BN;
        const int gr = row0 + r, gc = col0 + c;
        if (gr < M && gc < N) C[gr * N + gc] = Cs[r][c];
    }
}
