// Step 1 solution: RGB to gray, one thread per pixel, flat 1-D indexing.
// rgb is CHW: three planes of n = H*W bytes each, R plane first, then G, then B.
// gray has n bytes, one per pixel.
extern "C" __global__ void rgb_to_gray(const unsigned char* rgb, unsigned char* gray, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;  // the last block runs past the last pixel

    // In CHW the same pixel sits at the same offset i in each plane.
    float r = rgb[i];
    float g = rgb[n + i];
    float b = rgb[2 * n + i];

    float v = 0.21f * r + 0.72f * g + 0.07f * b;
    // Round to nearest. v is never negative; fminf guards against v rounding
    // just above 255 (the weights sum to 1 only up to float rounding).
    gray[i] = (unsigned char)fminf(255.0f, v + 0.5f);
}
