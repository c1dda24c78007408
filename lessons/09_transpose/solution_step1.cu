// Step 1 solution: the naive transpose, one thread per element.
// in is H x W and out is W x H, both row-major; out[c][r] = in[r][c].
// Blocks of 32 x 8: a warp is 32 consecutive columns of one row of `in`.
extern "C" __global__ void transpose(const float* in, float* out, int H, int W)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;  // column of in = row of out
    int row = blockIdx.y * blockDim.y + threadIdx.y;  // row of in = column of out

    // Both tests: with H = 17, W = 33 the grid covers 64 x 24 threads.
    if (row < H && col < W) {
        // The read is coalesced: a warp reads 32 consecutive floats of one
        // row of `in` (128 bytes). The write is strided: the warp's 32
        // stores land H floats apart, one in each of 32 rows of `out`.
        out[col * H + row] = in[row * W + col];
    }
}
