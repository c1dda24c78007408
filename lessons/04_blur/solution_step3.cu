// Step 3 solution: sharpen a gray image with the tutorial's 3x3 mask,
// clamped edges, the result clamped to 0..255.
extern "C" __global__ void sharpen(const unsigned char* in, unsigned char* out,
                                   int height, int width)
{
    // 9 * centre - (sum of the 8 neighbours). The weights add up to 1, so a
    // flat region keeps its value.
    const int mask[3][3] = {{-1, -1, -1},
                            {-1,  9, -1},
                            {-1, -1, -1}};

    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;

    // The loops have constant bounds, so the compiler unrolls them and the
    // mask becomes constants in the instructions.
    int sum = 0;
    for (int dy = -1; dy <= 1; ++dy) {
        int yy = min(max(y + dy, 0), height - 1);      // clamp the coordinates...
        for (int dx = -1; dx <= 1; ++dx) {
            int xx = min(max(x + dx, 0), width - 1);
            sum += mask[dy + 1][dx + 1] * in[yy * width + xx];
        }
    }

    // ...and the value: sum can be anywhere from -2040 to 2295, and a byte
    // cast alone would wrap -30 around to 226.
    out[y * width + x] = (unsigned char)min(max(sum, 0), 255);
}
