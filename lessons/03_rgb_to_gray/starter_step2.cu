// Step 2 starter: RGB to gray in bytes, with a 2-D grid of 16 x 16 blocks.
// rgb is HWC (interleaved): H rows of W pixels, three bytes per pixel in the
// order R, G, B. gray is H rows of W bytes, row-major.
extern "C" __global__ void rgb_to_gray_2d(const unsigned char* rgb, unsigned char* gray,
                                          int height, int width)
{
    // TODO 1: the pixel's column x and row y in the whole image.
    int x = 0;
    int y = 0;

    // TODO 2: the grid is rounded up in both directions. A thread outside
    //         the image must not touch memory.

    // TODO 3: find the pixel's place in the image, and read its three bytes.
    float r = 0.0f;
    float g = 0.0f;
    float b = 0.0f;

    float v = 0.21f * r + 0.72f * g + 0.07f * b;

    // TODO 4: round v to the nearest whole number and store it as this
    //         pixel's byte of gray.
}
