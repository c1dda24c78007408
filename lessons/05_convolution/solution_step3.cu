// Step 3 solution: shared-memory tiles with halos, the mask in constant memory.
// The launch MUST use blocks of BX x BY = 32 x 8 threads: each block computes
// a 32 x 8 tile of the output, and the shared array is sized for it.
#define MAX_R 3
#define MAX_K (2 * MAX_R + 1)
#define BX 32                      // block width in threads = output tile width
#define BY 8                       // block height in threads = output tile height

__constant__ float c_mask[MAX_K * MAX_K];

extern "C" __global__ void conv2d(const float* in, float* out, int H, int W, int R)
{
    // The input the block needs: its 32 x 8 output tile plus a halo of R
    // pixels on every side, (BY + 2R) x (BX + 2R) values. Sized for the
    // largest R; a smaller R uses the top-left part.
    __shared__ float tile[BY + 2 * MAX_R][BX + 2 * MAX_R];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int tile_w = BX + 2 * R;
    int tile_h = BY + 2 * R;
    // Image coordinates of tile[0][0]: R above and R left of the block's
    // first output pixel.
    int x0 = blockIdx.x * BX - R;
    int y0 = blockIdx.y * BY - R;

    // 1. Load. There are more values (up to 14 x 38 = 532) than threads
    //    (256), so each thread loads every BY-th row and every BX-th column
    //    from its own (ty, tx): rows ty, ty + 8, ...; columns tx, tx + 32.
    //    The 32 threads of a warp load 32 neighbouring floats of one row.
    //    Pixels outside the image are stored as 0: the zero padding is done
    //    here, once, and the sum below needs no tests.
    for (int sy = ty; sy < tile_h; sy += BY) {
        int gy = y0 + sy;
        for (int sx = tx; sx < tile_w; sx += BX) {
            int gx = x0 + sx;
            bool inside = gy >= 0 && gy < H && gx >= 0 && gx < W;
            tile[sy][sx] = inside ? in[gy * W + gx] : 0.0f;
        }
    }

    // 2. Wait: a thread's window holds values that other warps loaded.
    //    Every thread of the block reaches this line (no return above it).
    __syncthreads();

    // 3. Compute, reading only shared memory. Output (y, x) needs input rows
    //    y - R .. y + R, which are tile rows ty .. ty + 2R.
    int x = blockIdx.x * BX + tx;
    int y = blockIdx.y * BY + ty;
    if (x >= W || y >= H) {
        return;                    // after the barrier, so it cannot skip it
    }
    int K = 2 * R + 1;
    float sum = 0.0f;
    for (int i = 0; i < K; ++i) {
        for (int j = 0; j < K; ++j) {
            // A warp (one row of the block, tx = 0..31) reads 32 consecutive
            // words of one tile row: 32 different banks, no bank conflict.
            sum += c_mask[i * K + j] * tile[ty + i][tx + j];
        }
    }
    out[y * W + x] = sum;
}
