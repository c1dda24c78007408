// Step 1 solution: naive matrix multiply, one thread per element of C, with
// the row on x, as in the tutorial's Numba kernel (`i, j = cuda.grid(2)`).
// C[M,N] = A[M,K] * B[K,N], all row-major: element (r, c) of a matrix with
// `cols` columns is at index r*cols + c. The launch gives x the M rows and
// y the N columns: grid = ceil_div(M, 16) x ceil_div(N, 16) blocks of 16x16.
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;  // i in the tutorial
    int col = blockIdx.y * blockDim.y + threadIdx.y;  // j
    if (row >= M || col >= N) return;  // the grid is rounded up to whole blocks

    float sum = 0.0f;
    for (int k = 0; k < K; ++k) {
        sum += A[row * K + k] * B[k * N + col];
    }
    C[row * N + col] = sum;
}
