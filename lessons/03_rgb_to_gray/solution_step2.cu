// Step 2 solution: RGB to gray with a 2-D grid of 2-D blocks.
// rgb is HWC (interleaved): pixel (y, x) has its R, G, B bytes at
// rgb[(y*width + x)*3 + 0, 1, 2]. gray is [height, width], row-major.
extern "C" __global__ void rgb_to_gray_2d(const unsigned char* rgb, unsigned char* gray,
                                          int height, int width)
{
    // x runs along a row (fastest-changing in memory), so it takes the .x
    // parts: threads next to each other in a warp then read neighbouring pixels.
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;

    int p = y * width + x;
    float r = rgb[3 * p + 0];
    float g = rgb[3 * p + 1];
    float b = rgb[3 * p + 2];

    float v = 0.21f * r + 0.72f * g + 0.07f * b;
    gray[p] = (unsigned char)fminf(255.0f, v + 0.5f);
}
