// Step 1 solution: box blur of radius `radius` on a gray image, clamped edges.
// in and out are height x width bytes, row-major: pixel (x, y) is at [y*width + x].
extern "C" __global__ void box_blur(const unsigned char* in, unsigned char* out,
                                    int height, int width, int radius)
{
    // x runs along a row, so it takes the .x parts (as in lesson 03).
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;  // no pixel for this thread

    // The sum of at most 33*33 bytes fits an int easily, and integer sums are
    // exact in any order.
    int sum = 0;
    for (int dy = -radius; dy <= radius; ++dy) {
        // A neighbour outside the image reads the nearest edge pixel: the row
        // and the column are clamped separately. This also holds when the
        // radius is larger than the image.
        int yy = min(max(y + dy, 0), height - 1);
        for (int dx = -radius; dx <= radius; ++dx) {
            int xx = min(max(x + dx, 0), width - 1);
            sum += in[yy * width + xx];
        }
    }

    // Every pixel averages the same number of reads. Adding half the count
    // before the integer division rounds to nearest; the count is odd, so the
    // mean is never exactly halfway between two bytes.
    int count = (2 * radius + 1) * (2 * radius + 1);
    out[y * width + x] = (unsigned char)((sum + count / 2) / count);
}
