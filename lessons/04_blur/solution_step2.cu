// Step 2 solution: Gaussian blur of a gray image, clamped edges.
// The weight of the neighbour (dx, dy) is g(dx) * g(dy), with
// g(d) = exp(-d*d / (2*sigma*sigma)) for d = -radius..radius, and the weights
// are divided by their sum. The lesson passes radius = ceil(3*sigma) <= 15.
#define MAX_RADIUS 16

extern "C" __global__ void gaussian_blur(const unsigned char* in, unsigned char* out,
                                         int height, int width, float sigma, int radius)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;

    // The 2*radius + 1 one-dimensional weights, and their sum. The array is
    // indexed with a value known only at run time, so it lives in local
    // memory (per thread, cached in L1), not in registers.
    float w[2 * MAX_RADIUS + 1];
    float wsum = 0.0f;
    for (int d = -radius; d <= radius; ++d) {
        w[d + radius] = expf(-(float)(d * d) / (2.0f * sigma * sigma));
        wsum += w[d + radius];
    }

    // The 2-D weight is separable, g(dx) * g(dy): sum each row of the square
    // with g(dx), then the rows with g(dy).
    float acc = 0.0f;
    for (int dy = -radius; dy <= radius; ++dy) {
        int yy = min(max(y + dy, 0), height - 1);
        float row = 0.0f;
        for (int dx = -radius; dx <= radius; ++dx) {
            int xx = min(max(x + dx, 0), width - 1);
            row += w[dx + radius] * in[yy * width + xx];
        }
        acc += w[dy + radius] * row;
    }

    // All the weights together add up to wsum * wsum; dividing by it keeps a
    // flat image flat. v lies in [0, 255] up to float rounding, so v + 0.5
    // truncated rounds to nearest and stays a byte.
    float v = acc / (wsum * wsum);
    out[y * width + x] = (unsigned char)(v + 0.5f);
}
