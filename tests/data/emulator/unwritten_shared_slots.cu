// Lesson 07 step 2 with a bug a GPU shows and the emulator used to hide:
// threads past the end write nothing into their slot, and the tree adds the
// slots nobody wrote. Shared memory is not cleared between blocks.
#define BLOCK 256

extern "C" __global__ void reduce_sum(const float* x, float* sum, int n)
{
    __shared__ float partial[BLOCK];

    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    if (i < n) partial[tid] = x[i];  // the bug: no 0 for the threads past the end
    __syncthreads();

    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride) {
            partial[tid] += partial[tid + stride];
        }
        __syncthreads();
    }
    if (tid == 0) {
        atomicAdd(sum, partial[0]);
    }
}
