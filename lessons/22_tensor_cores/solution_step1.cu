// Step 1 solution: C = A * B on Tensor Cores with WMMA, one warp per 16 x 16
// tile of C. A (M x K) and B (K x N) are FP16, row-major; C (M x N) is float,
// row-major. The products are added in float (a float accumulator).
// Launch: blocks of 32 threads (one warp), grid ceil_div(N, 16) x ceil_div(M, 16).
// This step requires M, N and K to be multiples of 16: every tile is whole.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

#define WMMA_M 16
#define WMMA_N 16
#define WMMA_K 16

extern "C" __global__ void wmma_gemm(const __half* A, const __half* B, float* C, int M, int N, int K)
{
    // The warp's tile of C: rows tile_row .. tile_row + 15, columns tile_col .. tile_col + 15.
    const int tile_row = blockIdx.y * WMMA_M;
    const int tile_col = blockIdx.x * WMMA_N;

    wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, __half, wmma::row_major> a_frag;
    wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, __half, wmma::row_major> b_frag;
    wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> acc;
    wmma::fill_fragment(acc, 0.0f);

    // All 32 lanes run this loop together: every *_sync call is made by the whole warp.
    for (int k = 0; k < K; k += WMMA_K) {
        // The 16 x 16 block of A at (tile_row, k); a row of A is K halves long.
        wmma::load_matrix_sync(a_frag, A + tile_row * K + k, K);
        // The 16 x 16 block of B at (k, tile_col); a row of B is N halves long.
        wmma::load_matrix_sync(b_frag, B + k * N + tile_col, N);
        wmma::mma_sync(acc, a_frag, b_frag, acc);  // acc += a_frag * b_frag
    }

    // A row of C is N floats long.
    wmma::store_matrix_sync(C + tile_row * N + tile_col, acc, N, wmma::mem_row_major);
}
