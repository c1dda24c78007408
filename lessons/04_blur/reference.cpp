// CPU reference for lesson 04_blur: box blur, Gaussian blur and sharpen of a
// gray image (H rows of W bytes, row-major), with clamped edges: a neighbour
// outside the image reads the nearest pixel on the edge, its row clamped to
// 0..H-1 and its column to 0..W-1 separately.
//
// The box blur and the sharpen work in integers, so any correct kernel gives
// exactly these bytes. The Gaussian blur works in floats, in the same order as
// the lesson's solution; the lesson allows a difference of 1 there (see step 2).
#include <cstdint>
#include <cmath>
#include <vector>

namespace {

inline int clamp_index(int v, int lo, int hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

}  // namespace

// Step 1: the mean of the (2r+1) x (2r+1) square around each pixel, rounded
// to nearest. The count is odd, so the mean is never exactly halfway.
void box_blur_ref(const uint8_t* in, uint8_t* out, int height, int width, int radius)
{
    const int count = (2 * radius + 1) * (2 * radius + 1);
    #pragma omp parallel for schedule(static)
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            int sum = 0;
            for (int dy = -radius; dy <= radius; ++dy) {
                const uint8_t* row = in + static_cast<std::size_t>(clamp_index(y + dy, 0, height - 1)) * width;
                for (int dx = -radius; dx <= radius; ++dx) {
                    sum += row[clamp_index(x + dx, 0, width - 1)];
                }
            }
            out[static_cast<std::size_t>(y) * width + x] = static_cast<uint8_t>((sum + count / 2) / count);
        }
    }
}

// Step 2: weights g(dx) * g(dy), g(d) = exp(-d^2 / (2 sigma^2)) for
// d = -radius..radius, divided by their sum (the square of the sum of g).
// Each row of the square is summed first (row = sum of g(dx) * pixel), then
// the rows (acc = sum of g(dy) * row), as in the solution. The row sums of
// one output row are kept for all x at once (x innermost), which gives every
// pixel exactly the same additions in the same order, only faster.
void gaussian_blur_ref(const uint8_t* in, uint8_t* out, int height, int width, float sigma, int radius)
{
    std::vector<float> w(2 * radius + 1);
    float wsum = 0.0f;
    for (int d = -radius; d <= radius; ++d) {
        w[d + radius] = std::exp(-static_cast<float>(d * d) / (2.0f * sigma * sigma));
        wsum += w[d + radius];
    }
    const float norm = wsum * wsum;

    #pragma omp parallel
    {
        std::vector<float> padded(width + 2 * radius), row(width), acc(width);
        #pragma omp for schedule(static)
        for (int y = 0; y < height; ++y) {
            for (int x = 0; x < width; ++x) acc[x] = 0.0f;
            for (int dy = -radius; dy <= radius; ++dy) {
                const uint8_t* src = in + static_cast<std::size_t>(clamp_index(y + dy, 0, height - 1)) * width;
                // padded[x + radius + dx] is the pixel at column clamp(x + dx).
                for (int i = 0; i < width + 2 * radius; ++i) {
                    padded[i] = static_cast<float>(src[clamp_index(i - radius, 0, width - 1)]);
                }
                for (int x = 0; x < width; ++x) row[x] = 0.0f;
                for (int dx = -radius; dx <= radius; ++dx) {
                    const float wx = w[dx + radius];
                    const float* p = padded.data() + radius + dx;
                    for (int x = 0; x < width; ++x) row[x] += wx * p[x];
                }
                const float wy = w[dy + radius];
                for (int x = 0; x < width; ++x) acc[x] += wy * row[x];
            }
            uint8_t* dst = out + static_cast<std::size_t>(y) * width;
            for (int x = 0; x < width; ++x) {
                const float v = acc[x] / norm;
                dst[x] = static_cast<uint8_t>(v + 0.5f);
            }
        }
    }
}

// Step 3: the sharpen mask of the tutorial,
//   -1 -1 -1
//   -1  9 -1
//   -1 -1 -1
// in integers, the result clamped to 0..255.
void sharpen_ref(const uint8_t* in, uint8_t* out, int height, int width)
{
    #pragma omp parallel for schedule(static)
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            int sum = 0;
            for (int dy = -1; dy <= 1; ++dy) {
                const uint8_t* row = in + static_cast<std::size_t>(clamp_index(y + dy, 0, height - 1)) * width;
                for (int dx = -1; dx <= 1; ++dx) {
                    const int weight = (dx == 0 && dy == 0) ? 9 : -1;
                    sum += weight * row[clamp_index(x + dx, 0, width - 1)];
                }
            }
            out[static_cast<std::size_t>(y) * width + x] = static_cast<uint8_t>(clamp_index(sum, 0, 255));
        }
    }
}
