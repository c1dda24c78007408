// Step 1 starter: 2-D convolution, one thread per output pixel, the mask read
// from global memory. Zero padding: neighbours outside the image count as 0.
// in and out are H x W, row-major: pixel (row y, column x) is in[y * W + x].
// mask is (2R+1) x (2R+1), row-major, and is centred on the output pixel.
// The launch: blocks of 32 x 8 threads, ceil_div(W, 32) x ceil_div(H, 8) of them.
extern "C" __global__ void conv2d(const float* in, const float* mask, float* out,
                                  int H, int W, int R)
{
    // TODO 1: find this thread's output pixel. The grid's x dimension runs
    //         along the rows of the image (over the W columns), its y
    //         dimension down the image (over the H rows).

    // TODO 2: the grid is rounded up to whole blocks in both directions, so
    //         some threads have no pixel. They must not write anything.

    // TODO 3: add up (mask weight) x (input pixel) over the window of
    //         (2R+1) x (2R+1) input pixels centred on this pixel. A neighbour
    //         outside the image contributes nothing (and must not be read).

    // TODO 4: store the sum in this thread's output pixel.
}
