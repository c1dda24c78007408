// Step 3 starter: sharpen a gray image with the tutorial's 3x3 mask,
// clamped edges, the result clamped to 0..255.
extern "C" __global__ void sharpen(const unsigned char* in, unsigned char* out,
                                   int height, int width)
{
    // 9 * centre - (sum of the 8 neighbours). The weights add up to 1, so a
    // flat region keeps its value.
    const int mask[3][3] = {{-1, -1, -1},
                            {-1,  9, -1},
                            {-1, -1, -1}};

    // Pixel and bounds test, as in step 1.
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;

    // TODO 1: the weighted sum of the 3x3 square centred on (x, y), with the
    //         weights of mask and the edges clamped as in step 1.
    int sum = 0;

    // TODO 2: the sum does not always fit a byte (a black pixel among white
    //         ones gives a large negative number). Store the nearest value that
    //         a byte can hold.
    (void)mask;
    (void)sum;
}
