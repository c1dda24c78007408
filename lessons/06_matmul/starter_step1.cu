// Step 1 starter: naive matrix multiply, one thread per element of C, as in
// the tutorial's Numba kernel (`i, j = cuda.grid(2)`: the row i comes from x).
// C[M,N] = A[M,K] * B[K,N], all row-major: element (r, c) of a matrix with
// `cols` columns is at index r*cols + c. The launch gives x the M rows and
// y the N columns: grid = ceil_div(M, 16) x ceil_div(N, 16) blocks of 16x16.
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K)
{
    // TODO 1: this thread's row of C (the x direction of this launch) and
    //         its column (the y direction), from blockIdx, blockDim, threadIdx.
    int row = 0;
    int col = 0;

    // TODO 2: the grid is rounded up to whole 16x16 blocks: a thread whose
    //         (row, col) lies outside C has nothing to do.

    // TODO 3: the dot product of row `row` of A with column `col` of B,
    //         accumulated in `sum`.
    float sum = 0.0f;

    // TODO 4: store it in C at (row, col).
}
