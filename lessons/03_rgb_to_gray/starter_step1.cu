// Step 1 starter: RGB to gray in float, one thread per pixel, flat 1-D indexing.
// rgb is CHW: three planes of n = H*W bytes each, the R plane first, then G,
// then B. gray has n floats, one per pixel, in the same order.
extern "C" __global__ void rgb_to_gray(const unsigned char* rgb, float* gray, int n)
{
    // TODO 1: this thread's pixel index, as in vector addition.
    int i = 0;

    // TODO 2: the last block runs past the last pixel. A thread without a
    //         pixel must not touch memory.

    // TODO 3: read the pixel's red, green and blue bytes, one from each plane.
    float r = 0.0f;
    float g = 0.0f;
    float b = 0.0f;

    // Luminance weights 0.21 R + 0.72 G + 0.07 B (they sum to 1).
    float v = 0.21f * r + 0.72f * g + 0.07f * b;

    // TODO 4: v is this pixel's gray value; store it.
}
