// Step 1: C = A * B on Tensor Cores with WMMA, one warp per 16 x 16 tile of C.
// A (M x K) and B (K x N) are FP16, row-major; C (M x N) is float, row-major.
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

    // TODO 1: walk along K, 16 at a time. At each step, load the warp's 16 x 16
    //         block of A (rows of this tile) and of B (columns of this tile) into
    //         the fragments, and add their product into acc. The last argument of
    //         a load is the leading dimension: the length of one row of that
    //         matrix in memory, in elements.

    // TODO 2: store acc into this warp's tile of C (row-major, rows N floats long).
}
