// Step 2 starter: C = A ⊙ B over a 2-D grid of 16 x 16 blocks.
// a, b and c are H rows of W floats, stored row by row (row-major).
extern "C" __global__ void multiply_2d(const float* a, const float* b, float* c, int H, int W)
{
    // TODO 1: this thread's column and row in the whole matrix, not just
    //         inside its block. The column comes from the .x parts of the
    //         built-in variables, the row from the .y parts.
    int col = 0;
    int row = 0;

    // TODO 2: the grid is rounded up to whole blocks in both directions, so
    //         some threads fall right of the last column or below the last
    //         row. They must not touch memory.

    // TODO 3: find the element's place in the row-major arrays and store the
    //         product of a and b there in c.
}
