// Step 2 starter: RGB to gray with a 2-D grid of 2-D blocks.
// rgb is HWC (interleaved): pixel (y, x) has its R, G, B bytes at
// rgb[(y*width + x)*3 + 0, 1, 2]. gray is [height, width], row-major.
extern "C" __global__ void rgb_to_gray_2d(const unsigned char* rgb, unsigned char* gray,
                                          int height, int width)
{
    // TODO 1: the pixel's column x (from the .x parts) and row y (from the .y parts).
    int x = 0;
    int y = 0;

    // TODO 2: the grid is rounded up in both directions; return if this
    //         thread is outside the image (x >= width or y >= height).

    // TODO 3: the pixel's flat index p = y*width + x; its channels are at
    //         rgb[3*p], rgb[3*p + 1], rgb[3*p + 2].
    int p = 0;
    float r = 0.0f;
    float g = 0.0f;
    float b = 0.0f;

    float v = 0.21f * r + 0.72f * g + 0.07f * b;

    // TODO 4: store the rounded value in gray[p]:
    //         gray[p] = (unsigned char)fminf(255.0f, v + 0.5f);
}
