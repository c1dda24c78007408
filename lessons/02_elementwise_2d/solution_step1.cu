// Step 1 solution: C = A ⊙ B with one block that has exactly the matrix's
// shape: blockDim.x = W threads across, blockDim.y = H threads down, one
// thread per element. a, b and c are H x W floats stored row by row.
extern "C" __global__ void multiply_them(const float* a, const float* b, float* c)
{
    // Row-major: threadIdx.y full rows come first, each blockDim.x wide.
    // The tutorial writes threadIdx.y*4 because its block is 4 wide.
    int idx = threadIdx.y * blockDim.x + threadIdx.x;

    // Every thread of the block is inside the matrix, so no bounds test is
    // needed here; step 2's grid is rounded up and needs one.
    c[idx] = a[idx] * b[idx];
}
