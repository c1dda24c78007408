// Step 1 starter: a matrix multiply that gives the right C, slowly.
// C[M,N] = A[M,K] * B[K,N], all row-major: element (r, c) of a matrix with
// `cols` columns is at index r*cols + c. The launch uses 16 x 16 blocks on a
// grid of ceil_div(N, 16) x ceil_div(M, 16): each block owns a 16 x 16 tile
// of C, grid.x walking the columns and grid.y the rows.
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K)
{
    // This kernel passes the comparison, but an access limit fails it.
    // Measure it first (Roofline, Memory access), then:
    // TODO: choose which thread index gives the row and which the column
    //       inside the block's tile, so that the 32 threads of a warp read
    //       neighbouring addresses. (As written, it also needs a square block.)
    int row = blockIdx.y * blockDim.y + threadIdx.x;
    int col = blockIdx.x * blockDim.x + threadIdx.y;
    if (row >= M || col >= N) return;

    float sum = 0.0f;
    for (int k = 0; k < K; ++k) {
        float a = A[row * K + k];  // each load on its own line, so that the
        float b = B[k * N + col];  // Memory access tab gives each its own row
        sum += a * b;
    }
    C[row * N + col] = sum;
}
