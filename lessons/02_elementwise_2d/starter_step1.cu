// Step 1 starter: C = A ⊙ B with one block that has exactly the matrix's
// shape: blockDim.x = W threads across, blockDim.y = H threads down, one
// thread per element. a, b and c are H x W floats stored row by row.
extern "C" __global__ void multiply_them(const float* a, const float* b, float* c)
{
    // TODO 1: the position of this thread's element in the arrays.
    //         threadIdx.x says which column it is in, threadIdx.y which row,
    //         and every row before it holds one full row of the block.
    int idx = 0;

    // TODO 2: store the product of this thread's elements of a and b in c.
}
