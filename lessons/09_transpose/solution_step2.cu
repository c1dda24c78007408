// Step 2 solution: transpose through a 32 x 32 tile in shared memory.
// in is H x W and out is W x H, both row-major; out[c][r] = in[r][c].
// Each block moves one TILE x TILE tile: it reads the tile's rows from `in`
// (coalesced), then writes the tile's columns as rows of `out` (coalesced).
// Blocks of TILE x BLOCK_ROWS = 32 x 8: each thread moves 4 elements.
#define TILE 32
#define BLOCK_ROWS 8

extern "C" __global__ void transpose(const float* in, float* out, int H, int W)
{
    __shared__ float tile[TILE][TILE];

    int tx = threadIdx.x;
    int ty = threadIdx.y;

    // Load: thread (tx, ty) copies in[y0 + r][x0 + tx] for r = ty, ty + 8,
    // ty + 16, ty + 24. A warp reads 32 consecutive floats of one row of in.
    // The trip count is a compile-time constant, so the loop is unrolled and
    // the four loads are all issued before the first one returns.
    int col = blockIdx.x * TILE + tx;
    #pragma unroll
    for (int r = ty; r < TILE; r += BLOCK_ROWS) {
        int row = blockIdx.y * TILE + r;
        if (row < H && col < W) {
            tile[r][tx] = in[row * W + col];
        }
    }

    // Thread (tx, ty) is about to read tile[tx][r]: written by thread
    // (r, tx % 8), which is in another warp. Wait for all of them.
    __syncthreads();

    // Store: element (x0 + r, y0 + tx) of out is in[y0 + tx][x0 + r], which
    // is tile[tx][r]. A warp writes 32 consecutive floats of one row of out
    // and reads one column of the tile.
    int out_col = blockIdx.y * TILE + tx;           // a row of in
    #pragma unroll
    for (int r = ty; r < TILE; r += BLOCK_ROWS) {
        int out_row = blockIdx.x * TILE + r;        // a column of in
        if (out_row < W && out_col < H) {
            out[out_row * H + out_col] = tile[tx][r];
        }
    }
}
