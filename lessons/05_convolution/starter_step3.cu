// Step 3 starter: shared-memory tiles with halos, the mask in constant memory.
// The launch MUST use blocks of BX x BY = 32 x 8 threads: each block computes
// a 32 x 8 tile of the output, and the shared array is sized for it.
#define MAX_R 3
#define MAX_K (2 * MAX_R + 1)
#define BX 32                      // block width in threads = output tile width
#define BY 8                       // block height in threads = output tile height

__constant__ float c_mask[MAX_K * MAX_K];

extern "C" __global__ void conv2d(const float* in, float* out, int H, int W, int R)
{
    // The input the block needs: its output tile plus a halo of R pixels on
    // every side. Sized for the largest R; a smaller R uses the top-left part.
    __shared__ float tile[BY + 2 * MAX_R][BX + 2 * MAX_R];

    int tx = threadIdx.x;
    int ty = threadIdx.y;

    // TODO 1: copy the block's input region into tile, halo and corners
    //         included: tile[0][0] is the pixel R rows above and R columns
    //         left of the block's first output pixel. The region has more
    //         values than the block has threads, so a thread may have to load
    //         several. Pixels outside the image go in as 0.

    // TODO 2: no thread may read the tile before all of it is loaded. Keep
    //         in mind that every thread of the block must reach that point.

    // TODO 3: threads with an output pixel add up mask weight x input pixel
    //         over their window, reading the input from tile only, and store
    //         the sum.
}
