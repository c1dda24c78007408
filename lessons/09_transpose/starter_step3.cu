// Step 3 starter: the tiled transpose of step 2, without bank conflicts.
// in is H x W and out is W x H, both row-major; out[c][r] = in[r][c].
// Same launch as step 2: blocks of 32 x 8 (TILE x BLOCK_ROWS), grid
// ceil_div(W, 32) x ceil_div(H, 32), one block per 32 x 32 tile.
#define TILE 32
#define BLOCK_ROWS 8

extern "C" __global__ void transpose(const float* in, float* out, int H, int W)
{
    // TODO 1: when a warp reads one column of this array, all 32 of its
    //         reads fall into the same bank of shared memory. Change the
    //         array's declaration (and nothing in the indexing) so that the
    //         32 words of a column lie in 32 different banks.
    __shared__ float tile[TILE][TILE];

    int tx = threadIdx.x;
    int ty = threadIdx.y;

    // The load of step 2: rows of `in` into rows of `tile`, coalesced.
    int col = blockIdx.x * TILE + tx;
    #pragma unroll
    for (int r = ty; r < TILE; r += BLOCK_ROWS) {
        int row = blockIdx.y * TILE + r;
        if (row < H && col < W) {
            tile[r][tx] = in[row * W + col];
        }
    }
    __syncthreads();

    // TODO 2: write the tile out transposed, as in step 2: each warp writes
    //         consecutive addresses of one row of `out`, reading a column
    //         of `tile`, and only elements inside `out` are written.
}
