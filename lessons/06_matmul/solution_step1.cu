// Step 1 solution: naive matrix multiply, one thread per element of C.
// C[M,N] = A[M,K] * B[K,N], all row-major: element (r, c) of a matrix with
// `cols` columns is at index r*cols + c.
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K)
{
    // col takes the .x parts so that the 32 threads of a warp (consecutive
    // threadIdx.x) read consecutive elements of a row of B and write
    // consecutive elements of C: coalesced memory access.
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;

    float sum = 0.0f;
    for (int k = 0; k < K; ++k) {
        sum += A[row * K + k] * B[k * N + col];
    }
    C[row * N + col] = sum;
}
