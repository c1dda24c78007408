// Step 1 solution: RGB to gray in float, one thread per pixel, flat 1-D indexing.
// rgb is CHW: three planes of n = H*W bytes each, the R plane first, then G,
// then B. gray has n floats, one per pixel, in the same order.
extern "C" __global__ void rgb_to_gray(const unsigned char* rgb, float* gray, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;  // the last block runs past the last pixel

    // In CHW the same pixel sits at the same offset i in each plane.
    // A byte converts to a float exactly (0.0 ... 255.0).
    float r = rgb[i];
    float g = rgb[n + i];
    float b = rgb[2 * n + i];

    // The tutorial's 0.21*img[0] + 0.72*img[1] + 0.07*img[2], one pixel.
    gray[i] = 0.21f * r + 0.72f * g + 0.07f * b;
}
