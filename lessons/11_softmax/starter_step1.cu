// Step 1 starter: row softmax, one thread per row.
// x and y are R x C matrices stored row by row: row r starts at x + r * C.
// Every element of every row of y must be written.
#include <cmath>

extern "C" __global__ void softmax(const float* x, float* y, int R, int C)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;

    // TODO 1: the grid is rounded up to whole blocks, so the last block has
    //         threads without a row. Only a thread that owns a row may touch
    //         memory.

    // TODO 2: find the largest value of this row. (Try the lesson's first
    //         experiment before you use it: leave it out, press Run, and
    //         look at the cases with large inputs.)

    // TODO 3: add up the exponentials of the row, shifted so that no
    //         exponential can exceed 1.

    // TODO 4: write each element's share of that sum into y, shifted the
    //         same way.
}
