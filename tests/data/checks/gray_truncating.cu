// Lesson 03 step 2 with the byte truncated instead of rounded: one gray level
// low wherever v has a fractional part of .5 or more. The step compares
// exactly (atol 0), so it must fail.
extern "C" __global__ void rgb_to_gray_2d(const unsigned char* rgb, unsigned char* gray,
                                          int height, int width)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    int p = y * width + x;
    float v = 0.21f * rgb[3 * p + 0] + 0.72f * rgb[3 * p + 1] + 0.07f * rgb[3 * p + 2];
    gray[p] = (unsigned char)v;
}
