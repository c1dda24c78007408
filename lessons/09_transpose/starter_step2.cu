// Step 2 starter: transpose through a 32 x 32 tile in shared memory.
// in is H x W and out is W x H, both row-major; out[c][r] = in[r][c].
// Each block moves one TILE x TILE tile with TILE x BLOCK_ROWS threads, so
// each thread moves TILE / BLOCK_ROWS = 4 elements. The launch MUST be
// blocks of 32 x 8 (TILE x BLOCK_ROWS), grid ceil_div(W, 32) x ceil_div(H, 32).
#define TILE 32
#define BLOCK_ROWS 8

extern "C" __global__ void transpose(const float* in, float* out, int H, int W)
{
    __shared__ float tile[TILE][TILE];

    int tx = threadIdx.x;  // 0..31: a column of the tile
    int ty = threadIdx.y;  // 0..7: the first of this thread's rows of the tile

    // No early return in this kernel: every thread of the block must reach
    // the __syncthreads() below, also threads whose elements lie outside.

    // TODO 1: load the block's tile of `in` into `tile`, in the same
    //         orientation. The tile starts at row blockIdx.y * TILE and
    //         column blockIdx.x * TILE of `in`. This thread loads its column
    //         of the tile in rows ty, ty + BLOCK_ROWS, ... so that each warp
    //         reads consecutive addresses. Only elements inside `in` may be
    //         read.

    // TODO 2: no thread may read the tile before every thread has written
    //         its part of it.

    // TODO 3: write the tile out transposed. The block's tile of `out`
    //         starts at row blockIdx.x * TILE and column blockIdx.y * TILE
    //         (out is W x H). Here too each warp must write consecutive
    //         addresses of `out`, so it reads a column of `tile`. Only
    //         elements inside `out` may be written.
}
