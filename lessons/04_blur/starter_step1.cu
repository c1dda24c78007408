// Step 1 starter: box blur of radius `radius` on a gray image, clamped edges.
// in and out are height x width bytes, row-major: pixel (x, y) is at [y*width + x].
extern "C" __global__ void box_blur(const unsigned char* in, unsigned char* out,
                                    int height, int width, int radius)
{
    // TODO 1: this thread's pixel: its column x from the .x parts of the
    //         indices, its row y from the .y parts (as in lesson 03, step 2).
    int x = 0;
    int y = 0;

    // TODO 2: the grid is rounded up to whole blocks in both directions. A
    //         thread outside the image has no pixel: it must not write.

    // TODO 3: add up the square of (2*radius + 1) x (2*radius + 1) input pixels
    //         centred on (x, y). A neighbour that lies outside the image is read
    //         from the nearest pixel on the edge instead: its row and its column
    //         are each brought back into the image, separately.
    int sum = 0;

    // TODO 4: store the mean of the square in out, rounded to the nearest
    //         integer (integer arithmetic can do it exactly).
    (void)x;
    (void)y;
    (void)sum;
}
