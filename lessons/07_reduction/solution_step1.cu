// Step 1 solution: sum reduction with one atomic addition per element.
// *sum starts at 0 (the lesson sets it before every run).
extern "C" __global__ void reduce_sum(const float* x, float* sum, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    // atomicAdd reads *sum, adds and writes back as one operation, so no
    // update is lost. All of them go to the same address, so the memory
    // system performs them one after another: correct, but slow. The order
    // differs from run to run, and float addition rounds, so the last digits
    // of the result can differ too.
    if (i < n) {
        atomicAdd(sum, x[i]);
    }
}
