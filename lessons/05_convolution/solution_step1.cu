// Step 1 solution: 2-D convolution, one thread per output pixel, the mask read
// from global memory. Zero padding: neighbours outside the image count as 0.
// in and out are H x W, row-major: pixel (row y, column x) is in[y * W + x].
// mask is (2R+1) x (2R+1), row-major; its centre, mask[R][R], weighs the
// output pixel's own input pixel.
extern "C" __global__ void conv2d(const float* in, const float* mask, float* out,
                                  int H, int W, int R)
{
    // x runs along a row (the columns), y down the image (the rows): the 32
    // threads of a warp (one row of a 32 x 8 block) read neighbouring floats.
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;

    // The grid is rounded up to whole blocks in both directions: threads past
    // the right or bottom edge have no pixel. Without this test, a thread
    // with x >= W would store into out[y * W + x], which is a pixel of the
    // next row that another thread owns, and a thread with y >= H would store
    // past the end of out.
    if (x >= W || y >= H) {
        return;
    }

    int K = 2 * R + 1;
    float sum = 0.0f;
    for (int i = -R; i <= R; ++i) {
        int yy = y + i;
        if (yy < 0 || yy >= H) continue;          // a row above or below the image: zeros
        for (int j = -R; j <= R; ++j) {
            int xx = x + j;
            if (xx < 0 || xx >= W) continue;      // left or right of the image: zeros
            sum += mask[(i + R) * K + (j + R)] * in[yy * W + xx];
        }
    }
    out[y * W + x] = sum;
}
