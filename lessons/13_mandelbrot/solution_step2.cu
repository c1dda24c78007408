// Step 2 solution: the same pixels, handed out to different warps.
// The launch is 1-D: ceil_div(W*H, 256) blocks of 256 threads. The number
// of threads per block must be a multiple of 32 (the Sweep tab's are), so
// that t / 32 is the hardware's warp.
// The lesson compiles with --fmad=false; escape_time is step 1's.

__device__ int escape_time(float cr, float ci, int max_iter)
{
    float zr = 0.0f, zi = 0.0f;
    int it = 0;
    while (it < max_iter) {
        float zr2 = zr * zr;
        float zi2 = zi * zi;
        if (zr2 + zi2 > 4.0f) break;
        zi = 2.0f * zr * zi + ci;
        zr = zr2 - zi2 + cr;
        ++it;
    }
    return it;
}

extern "C" __global__ void mandelbrot(int* iters, int W, int H, float x0, float y0, float d, int max_iter)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;  // global thread index
    int warp = t / 32;                              // the grid's warp number
    int lane = t % 32;                              // 0..31 inside the warp
    int warps = gridDim.x * blockDim.x / 32;        // warps in the grid

    // Lane l of warp w takes pixel l * warps + w: the grid's threads are
    // split into 32 equal slices of the picture, and each warp takes one
    // pixel from each slice. Each p in 0 .. 32*warps - 1 belongs to exactly
    // one (lane, warp), so every pixel is computed once. In step 1 a warp
    // held 32 neighbours; here its lanes lie warps pixels apart, about
    // H / 32 rows, down one column of the picture.
    int p = lane * warps + warp;
    if (p < W * H) {
        int px = p % W;
        int py = p / W;
        float cr = x0 + px * d;
        float ci = y0 - py * d;
        iters[p] = escape_time(cr, ci, max_iter);
    }
}
