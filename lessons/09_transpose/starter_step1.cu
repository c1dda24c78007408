// Step 1 starter: the naive transpose, one thread per element.
// in is H x W and out is W x H, both row-major: element (r, c) of a matrix
// with `cols` columns is at index r * cols + c. out[c][r] must equal in[r][c].
// The launch: blocks of 32 x 8 threads, grid ceil_div(W, 32) x ceil_div(H, 8),
// so x runs along a row of `in` (its columns) and y down its rows.
extern "C" __global__ void transpose(const float* in, float* out, int H, int W)
{
    // TODO 1: this thread's element of `in`: its column from the .x
    //         variables, its row from the .y variables. (Right now every
    //         thread thinks it is element (0, 0).)
    int col = 0;
    int row = 0;

    // TODO 2: the grid is rounded up to whole blocks in both directions, so
    //         some threads fall outside `in`. Only threads inside it may
    //         touch memory.

    // TODO 3: copy this thread's element of `in` to its transposed place in
    //         `out`. Mind which of H and W is the row length of each matrix.
}
