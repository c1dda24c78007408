// Step 2 starter: the same pixels, handed out to different warps.
// The launch is 1-D: ceil_div(W*H, 256) blocks of 256 threads. The number
// of threads per block must be a multiple of 32 (the Sweep tab's are).
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

    // TODO 1: which warp of the grid this thread is in, its lane in that
    //         warp, and how many warps the whole grid has.

    // TODO 2: choose this thread's pixel p (a row-major index) so that the
    //         32 lanes of one warp get pixels spread over the whole picture,
    //         one in each 32nd of it, while every pixel still gets exactly
    //         one thread. The grid has at least W*H threads, so some threads
    //         get a p past the last pixel: they do nothing.

    // TODO 3: as in step 1: the pixel's column and row, its point c, and
    //         its escape time stored at p.
}
