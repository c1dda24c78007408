// Step 3 solution: the tiled transpose with a padded tile, no bank conflicts.
// in is H x W and out is W x H, both row-major; out[c][r] = in[r][c].
// Same as step 2 but for one number: each row of the tile is 33 floats long.
// Shared memory has 32 banks of 4 bytes; word w lies in bank w % 32.
//   tile[TILE][TILE]:     tile[tx][r] is word 32*tx + r, bank r for every
//                         tx: a warp's 32 column reads hit one bank.
//   tile[TILE][TILE + 1]: tile[tx][r] is word 33*tx + r, bank (tx + r) % 32:
//                         32 different banks. The row writes tile[r][tx]
//                         (bank (r + tx) % 32) stay conflict-free too.
// The 33rd column is never used; it costs 32 floats of shared memory.
#define TILE 32
#define BLOCK_ROWS 8

extern "C" __global__ void transpose(const float* in, float* out, int H, int W)
{
    __shared__ float tile[TILE][TILE + 1];

    int tx = threadIdx.x;
    int ty = threadIdx.y;

    int col = blockIdx.x * TILE + tx;
    #pragma unroll
    for (int r = ty; r < TILE; r += BLOCK_ROWS) {
        int row = blockIdx.y * TILE + r;
        if (row < H && col < W) {
            tile[r][tx] = in[row * W + col];
        }
    }
    __syncthreads();

    int out_col = blockIdx.y * TILE + tx;           // a row of in
    #pragma unroll
    for (int r = ty; r < TILE; r += BLOCK_ROWS) {
        int out_row = blockIdx.x * TILE + r;        // a column of in
        if (out_row < W && out_col < H) {
            out[out_row * H + out_col] = tile[tx][r];
        }
    }
}
