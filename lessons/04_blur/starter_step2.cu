// Step 2 starter: Gaussian blur of a gray image, clamped edges.
// The weight of the neighbour (dx, dy) is g(dx) * g(dy), with
// g(d) = exp(-d*d / (2*sigma*sigma)) for d = -radius..radius, and the weights
// are divided by their sum. The lesson passes radius = ceil(3*sigma) <= 15.
#define MAX_RADIUS 16

extern "C" __global__ void gaussian_blur(const unsigned char* in, unsigned char* out,
                                         int height, int width, float sigma, int radius)
{
    // Pixel and bounds test, as in step 1.
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;

    // TODO 1: fill w[d + radius] with g(d) for every d from -radius to radius,
    //         and add them up in wsum.
    float w[2 * MAX_RADIUS + 1];
    float wsum = 0.0f;

    // TODO 2: the weighted sum over the clamped square, as in step 1, with the
    //         weight g(dx) * g(dy) for each neighbour. Summing each row of the
    //         square first saves a multiplication per neighbour.
    float acc = 0.0f;

    // TODO 3: divide by the sum of all the weights of the square (a flat image
    //         must stay flat), and store the result rounded to the nearest byte.
    (void)w;
    (void)wsum;
    (void)acc;
}
