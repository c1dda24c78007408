// Step 1 starter: one thread per pixel, the escape-time loop.
// The launch is a 2-D grid of 2-D blocks (32 x 8 threads), rounded up to
// whole blocks in both directions.
// The lesson compiles with --fmad=false: write the float operations in the
// order the instructions show, so that they round exactly as the CPU's do.

// How many iterations of z = z^2 + c, from z = 0, until |z| > 2; max_iter if
// it never gets there.
__device__ int escape_time(float cr, float ci, int max_iter)
{
    // TODO 2: the CPU reference's loop (see the instructions), with z kept
    //         as two floats, its real and imaginary parts.
    return 0;
}

extern "C" __global__ void mandelbrot(int* iters, int W, int H, float x0, float y0, float d, int max_iter)
{
    // TODO 1: find this thread's pixel: its column from the x parts of the
    //         built-in variables, its row from the y parts. Threads that fall
    //         outside the W x H image do nothing.

    // TODO 3: turn the pixel into its point c of the complex plane (x0, y0 is
    //         the top-left corner, d the distance between pixels; rows go
    //         down while the imaginary part goes up) and store its escape
    //         time in the row-major image.
}
