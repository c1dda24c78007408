// Lesson 08 step 2 written for 256 threads only: one thread per bin. Right
// with the lesson's 256-thread blocks; with 96 threads bins 96..255 are never
// added to `bins`, with 1024 threads threads 256 and up index past `local`.
// Case block_96 (and block_1024) must fail it.
#define BINS 256

extern "C" __global__ void histogram(const unsigned char* x, int* bins, int n)
{
    __shared__ int local[BINS];
    local[threadIdx.x] = 0;
    __syncthreads();
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) atomicAdd(&local[x[i]], 1);
    __syncthreads();
    if (local[threadIdx.x] != 0) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
