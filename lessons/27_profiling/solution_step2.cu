// Step 2 solution: shared-memory tiles, B's tile transposed and padded.
// C[M,N] = A[M,K] * B[K,N], row-major. The block must be square, T x T
// threads (the lesson launches 16 x 16; the sweep tries 8 x 8 and 32 x 32 as
// well), on a grid of ceil_div(N, T) x ceil_div(M, T). Each block computes one
// T x T tile of C. The lesson gives the kernel (2T + 1) * T floats of dynamic
// shared memory: A's tile takes T * T of them, B's tile the rest.
extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K)
{
    extern __shared__ float smem[];
    const int T = blockDim.x;
    if (blockDim.y != T) return;  // square blocks only: the whole block leaves

    // One unused float after each row of Bt: row c starts c * (T + 1) words
    // in, so Bt[tx][k] is in bank (tx * (T + 1) + k) % 32, a different bank
    // for each tx of a half-row or row of the block.
    const int PITCH = T + 1;         // floats from one row of Bt to the next

    float* As = smem;                // As[r][k] = As[r * T + k]: A's tile as it is
    float* Bt = smem + T * T;        // Bt[c][k] = Bt[c * PITCH + k]: B's tile, transposed

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = blockIdx.y * T + ty;   // this thread's element of C
    int col = blockIdx.x * T + tx;

    // No early return below: every thread helps load the tiles and must
    // reach every __syncthreads().
    float sum = 0.0f;
    for (int t = 0; t < K; t += T) {
        As[ty * T + tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
        Bt[tx * PITCH + ty] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;
        __syncthreads();  // both tiles complete

        // Row ty of A's tile against row tx of Bt (column tx of B's tile).
        for (int k = 0; k < T; ++k) {
            float a = As[ty * T + k];
            float b = Bt[tx * PITCH + k];
            sum += a * b;
        }
        __syncthreads();  // everyone done reading before the next loads
    }

    if (row < M && col < N) C[row * N + col] = sum;
}
