// Step 4 starter: register tiles with vector loads.
// C[M,N] = A[M,K] * B[K,N], row-major. The launch uses 1-D blocks of 256
// threads and a grid of ceil_div(N, 128) x ceil_div(M, 128) blocks: each
// block computes a 128 x 128 tile of C, each thread 8 x 8 of it.
#define BM 128       // rows of C per block
#define BN 128       // columns of C per block
#define BK 8         // the step along K: one tile of A is BM x BK, of B BK x BN
#define TM 8         // rows of C per thread
#define TN 8         // columns of C per thread
#define THREADS 256  // (BM / TM) * (BN / TN)

// At most 128 registers per thread, so that two blocks fit on one SM.
extern "C" __global__ void __launch_bounds__(THREADS, 2)
matmul_regtile(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
               int M, int N, int K)
{
    __shared__ __align__(16) float As[BK][BM];  // A's tile, transposed: As[k][m]
    __shared__ __align__(16) float Bs[BK][BN];  // B's tile: Bs[k][n]

    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BM;  // the block's tile of C starts here
    const int col0 = blockIdx.x * BN;

    // Loading: each thread brings one float4 of each tile per step along K.
    const int a_row = tid / 2;         // A: row 0..127 of the tile,
    const int a_k = (tid % 2) * 4;     //    k 0..3 or 4..7
    const int b_k = tid / 32;          // B: row 0..7 of the tile,
    const int b_col = (tid % 32) * 4;  //    columns b_col..b_col+3

    // Computing: this thread's rows are 4*ty..4*ty+3 and 64+4*ty..64+4*ty+3
    // of the tile, its columns 4*tx..4*tx+3 and 64+4*tx..64+4*tx+3.
    const int ty = tid / 16;  // 0..15
    const int tx = tid % 16;  // 0..15

    // float4 global loads need 16-byte aligned addresses: every row of A
    // starts on one when K is a multiple of 4, every row of B when N is.
    const bool a_vec = (K % 4) == 0;
    const bool b_vec = (N % 4) == 0;

    float acc[TM][TN];  // this thread's 8 x 8 outputs, in registers
    #pragma unroll
    for (int i = 0; i < TM; ++i)
        #pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        // TODO 1: load this thread's 4 consecutive elements of A (row a_row
        //         of the tile, k from a_k) and store them transposed in As.
        //         One float4 load where the row is aligned and all four lie
        //         inside A; otherwise each one on its own, 0 outside A.

        // TODO 2: the same for this thread's 4 consecutive elements of B
        //         (row b_k of the tile, columns from b_col), stored as they
        //         are in Bs.

        // TODO 3: wait until both tiles are complete.

        // TODO 4: for each of the BK values of k: read this thread's 8
        //         values of A and 8 of B from the tiles (float4 reads) and
        //         add all 64 products into acc. Keep every loop unrolled with
        //         constant bounds, so that acc stays in registers.

        // TODO 5: wait until everyone has finished reading the tiles.
    }

    // TODO 6: store acc in this thread's 64 places of C, skipping places
    //         outside C. Use float4 stores where the row is aligned and all
    //         four columns exist.
}
