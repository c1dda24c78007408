// Lesson 08 step 2's solution without its first __syncthreads(): a warp may
// count into a bin that another warp has not cleared yet. The values usually
// come out right; compute-sanitizer racecheck reports the hazard, so the
// case that requires a clean race check (ragged) must fail on a GPU.
#define BINS 256

extern "C" __global__ void histogram(const unsigned char* x, int* bins, int n)
{
    __shared__ int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) atomicAdd(&local[x[i]], 1);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        int count = local[b];
        if (count != 0) atomicAdd(&bins[b], count);
    }
}
