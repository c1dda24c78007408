// Lesson 19, step 1 starter: lesson 06's shared-memory tiled matmul, and
// the host code around it.
//
// C[M,N] = A[M,K] * B[K,N], row-major. The kernel is finished (it is lesson
// 06's step 3); this step is the launch: a two-dimensional grid of 16 x 16
// blocks, one block per 16 x 16 tile of C.
#define TILE 16

__global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;  // y runs over the rows of C (M)
    int col = blockIdx.x * TILE + tx;  // x runs over the columns of C (N)
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

    // TODO 1: launch matmul_tiled with TILE x TILE blocks, and enough blocks
    //         along x and y to cover every column and every row of C. A
    //         two-dimensional size is a dim3. Check the launch.

    // TODO 2: copy C back into host memory.

    WB_CHECK(cudaFree(dA));
    WB_CHECK(cudaFree(dB));
    WB_CHECK(cudaFree(dC));
    return 0;
}
