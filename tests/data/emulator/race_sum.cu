// Every thread adds into *sum with a plain +=: a read and a write that
// other threads' read and write can fall between, in any block.
extern "C" __global__ void reduce_sum(const float* x, float* sum, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        *sum += x[i];
    }
}
