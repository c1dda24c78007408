// Step 1 starter: RGB to gray, one thread per pixel, flat 1-D indexing.
// rgb is CHW: three planes of n = H*W bytes each, R plane first, then G, then B.
// gray has n bytes, one per pixel.
extern "C" __global__ void rgb_to_gray(const unsigned char* rgb, unsigned char* gray, int n)
{
    // TODO 1: this thread's pixel index, as in vector addition.
    int i = 0;

    // TODO 2: return early if i is past the last pixel (i >= n).

    // TODO 3: read the pixel's three channels. In CHW the R plane starts at
    //         rgb[0], the G plane at rgb[n], the B plane at rgb[2*n].
    float r = 0.0f;
    float g = 0.0f;
    float b = 0.0f;

    // Luminance weights 0.21 R + 0.72 G + 0.07 B (they sum to 1).
    float v = 0.21f * r + 0.72f * g + 0.07f * b;

    // TODO 4: round to the nearest integer and store it in gray[i]:
    //         gray[i] = (unsigned char)fminf(255.0f, v + 0.5f);
}
