// Lesson 19, step 1 solution: lesson 06's tiled matmul, launched from run().
//
// C[M,N] = A[M,K] * B[K,N], row-major. x runs over the N columns of C and y
// over its M rows, so the grid is ceil_div(N, 16) x ceil_div(M, 16).
#define TILE 16

__global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
        Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = sum;
}

extern "C" int run(wb_host_ctx* ctx)
{
    const float* A = wb_buffer<float>(ctx, "A");
    const float* B = wb_buffer<float>(ctx, "B");
    float* C = wb_buffer<float>(ctx, "C");
    if (!A || !B || !C) return 1;
    const int M = wb_param_int(ctx, "M");
    const int N = wb_param_int(ctx, "N");
    const int K = wb_param_int(ctx, "K");

    float *dA = nullptr, *dB = nullptr, *dC = nullptr;
    WB_CHECK(cudaMalloc(&dA, (size_t)M * K * sizeof(float)));
    WB_CHECK(cudaMalloc(&dB, (size_t)K * N * sizeof(float)));
    WB_CHECK(cudaMalloc(&dC, (size_t)M * N * sizeof(float)));
    WB_CHECK(cudaMemcpy(dA, A, (size_t)M * K * sizeof(float), cudaMemcpyHostToDevice));
    WB_CHECK(cudaMemcpy(dB, B, (size_t)K * N * sizeof(float), cudaMemcpyHostToDevice));

    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);  // x: columns, y: rows
    matmul_tiled<<<grid, block>>>(dA, dB, dC, M, N, K);
    WB_CHECK(cudaGetLastError());

    WB_CHECK(cudaMemcpy(C, dC, (size_t)M * N * sizeof(float), cudaMemcpyDeviceToHost));

    WB_CHECK(cudaFree(dA));
    WB_CHECK(cudaFree(dB));
    WB_CHECK(cudaFree(dC));
    return 0;
}
