// Step 1 solution: one thread per pixel, the escape-time loop.
// The launch is a 2-D grid of 2-D blocks (32 x 8 threads): a warp is 32
// neighbouring pixels of one row.
// The lesson compiles with --fmad=false, so every operation below is rounded
// on its own, in this order, exactly as in the CPU reference.

// How many iterations of z = z^2 + c, from z = 0, until |z| > 2; max_iter if
// it never gets there. The trip count depends on c: this is where the lanes
// of a warp go their own ways.
__device__ int escape_time(float cr, float ci, int max_iter)
{
    float zr = 0.0f, zi = 0.0f;
    int it = 0;
    while (it < max_iter) {
        float zr2 = zr * zr;
        float zi2 = zi * zi;
        if (zr2 + zi2 > 4.0f) break;  // this lane is done; its warp may not be
        zi = 2.0f * zr * zi + ci;
        zr = zr2 - zi2 + cr;
        ++it;
    }
    return it;
}

extern "C" __global__ void mandelbrot(int* iters, int W, int H, float x0, float y0, float d, int max_iter)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x;  // column
    int py = blockIdx.y * blockDim.y + threadIdx.y;  // row
    if (px < W && py < H) {
        float cr = x0 + px * d;
        float ci = y0 - py * d;  // row 0 is the top of the picture
        iters[py * W + px] = escape_time(cr, ci, max_iter);
    }
}
