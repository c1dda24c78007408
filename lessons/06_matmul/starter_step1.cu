// Step 1 starter: naive matrix multiply, one thread per element of C.
// C[M,N] = A[M,K] * B[K,N], all row-major: element (r, c) of a matrix with
// `cols` columns is at index r*cols + c.
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K)
{
    // TODO 1: this thread's column of C (from the .x parts) and row (from the .y parts).
    int col = 0;
    int row = 0;

    // TODO 2: the grid is rounded up to whole 16x16 blocks; return if
    //         row >= M or col >= N.

    // TODO 3: the dot product of row `row` of A with column `col` of B:
    //         sum over k of A[row*K + k] * B[k*N + col].
    float sum = 0.0f;

    // TODO 4: store the result in C[row*N + col].
}
