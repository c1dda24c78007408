#define BLOCK 256

// The shared-memory tree without the zeros for threads past the end: in the
// last block those slots are never written, and the tree reads them.
extern "C" __global__ void reduce_sum(const float* x, float* sum, int n)
{
    __shared__ float partial[BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    if (i < n) partial[tid] = x[i];
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride) {
            partial[tid] += partial[tid + stride];
        }
        __syncthreads();
    }
    if (tid == 0) atomicAdd(sum, partial[0]);
}
