// Step 4 solution: register tiles with vector loads (siboehm's "kernel 6").
// C[M,N] = A[M,K] * B[K,N], row-major. The launch MUST use 1-D blocks of
// 256 threads and a grid of ceil_div(N, 128) x ceil_div(M, 128) blocks:
// each block computes a 128 x 128 tile of C, each thread 8 x 8 of it.
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
    // A's tile is stored transposed, As[k][m], so that the 8 values of A a
    // thread needs at one k are side by side (two float4 reads), like B's.
    __shared__ __align__(16) float As[BK][BM];
    __shared__ __align__(16) float Bs[BK][BN];

    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BM;  // the block's tile of C starts here
    const int col0 = blockIdx.x * BN;

    // Loading: 1024 floats of each tile, one float4 per thread per tile.
    const int a_row = tid / 2;         // A: row 0..127 of the tile,
    const int a_k = (tid % 2) * 4;     //    k 0..3 or 4..7
    const int b_k = tid / 32;          // B: row 0..7 of the tile,
    const int b_col = (tid % 32) * 4;  //    columns b_col..b_col+3

    // Computing: the thread's rows are 4*ty..4*ty+3 and 64+4*ty..64+4*ty+3
    // of the tile, its columns 4*tx.. and 64+4*tx.. in the same way. Each
    // read of the tiles below is then 16 consecutive float4 per warp: no
    // bank conflicts, and the stores to C are coalesced.
    const int ty = tid / 16;  // 0..15
    const int tx = tid % 16;  // 0..15

    // float4 global loads need 16-byte aligned addresses: every row of A
    // starts on one when K is a multiple of 4, every row of B when N is.
    const bool a_vec = (K % 4) == 0;
    const bool b_vec = (N % 4) == 0;

    float acc[TM][TN];
    #pragma unroll
    for (int i = 0; i < TM; ++i)
        #pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        // A[row0 + a_row][k0 + a_k .. +3], zero outside A.
        {
            const int r = row0 + a_row;
            const int k = k0 + a_k;
            float4 v;
            if (a_vec && r < M && k + 3 < K) {
                v = *reinterpret_cast<const float4*>(&A[r * K + k]);
            } else {
                v.x = (r < M && k + 0 < K) ? A[r * K + k + 0] : 0.0f;
                v.y = (r < M && k + 1 < K) ? A[r * K + k + 1] : 0.0f;
                v.z = (r < M && k + 2 < K) ? A[r * K + k + 2] : 0.0f;
                v.w = (r < M && k + 3 < K) ? A[r * K + k + 3] : 0.0f;
            }
            As[a_k + 0][a_row] = v.x;  // transposed
            As[a_k + 1][a_row] = v.y;
            As[a_k + 2][a_row] = v.z;
            As[a_k + 3][a_row] = v.w;
        }
        // B[k0 + b_k][col0 + b_col .. +3], zero outside B.
        {
            const int k = k0 + b_k;
            const int c = col0 + b_col;
            float4 v;
            if (b_vec && k < K && c + 3 < N) {
                v = *reinterpret_cast<const float4*>(&B[k * N + c]);
            } else {
                v.x = (k < K && c + 0 < N) ? B[k * N + c + 0] : 0.0f;
                v.y = (k < K && c + 1 < N) ? B[k * N + c + 1] : 0.0f;
                v.z = (k < K && c + 2 < N) ? B[k * N + c + 2] : 0.0f;
                v.w = (k < K && c + 3 < N) ? B[k * N + c + 3] : 0.0f;
            }
            *reinterpret_cast<float4*>(&Bs[b_k][b_col]) = v;
        }
        __syncthreads();  // both tiles complete

        // 8 outer products: at each k, 8 values of A times 8 values of B
        // give 64 multiply-adds for 4 float4 reads of shared memory.
        #pragma unroll
        for (int k = 0; k < BK; ++k) {
            const float4 a_lo = *reinterpret_cast<const float4*>(&As[k][4 * ty]);
            const float4 a_hi = *reinterpret_cast<const float4*>(&As[k][64 + 4 * ty]);
            const float4 b_lo = *reinterpret_cast<const float4*>(&Bs[k][4 * tx]);
            const float4 b_hi = *reinterpret_cast<const float4*>(&Bs[k][64 + 4 * tx]);
            const float a[TM] = {a_lo.x, a_lo.y, a_lo.z, a_lo.w, a_hi.x, a_hi.y, a_hi.z, a_hi.w};
            const float b[TN] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w, b_hi.x, b_hi.y, b_hi.z, b_hi.w};
            #pragma unroll
            for (int i = 0; i < TM; ++i)
                #pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();  // everyone done reading before the next loads
    }

    // acc[i][j] belongs to row (i < 4 ? 4*ty + i : 64 + 4*ty + i - 4) of the
    // tile, and to column (j < 4 ? 4*tx + j : 64 + 4*tx + j - 4).
    #pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = row0 + (i < 4 ? 4 * ty + i : 64 + 4 * ty + (i - 4));
        if (r >= M) continue;
        #pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int c = col0 + 64 * h + 4 * tx;
            if (b_vec && c + 3 < N) {
                *reinterpret_cast<float4*>(&C[r * N + c]) =
                    make_float4(acc[i][4 * h + 0], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]);
            } else {
                #pragma unroll
                for (int j = 0; j < 4; ++j)
                    if (c + j < N) C[r * N + c + j] = acc[i][4 * h + j];
            }
        }
    }
}
