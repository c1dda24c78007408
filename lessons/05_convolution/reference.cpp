// CPU reference for lesson 05_convolution: a 2-D convolution of an H x W f32
// image with a (2R+1) x (2R+1) mask, zero padding (neighbours outside the
// image count as 0), as PyTorch's F.conv2d(img, mask, padding=R) computes it:
//
//   out[y][x] = sum over i, j in [-R, R] of mask[i+R][j+R] * in[y+i][x+j]
//
// (Like F.conv2d and the tutorials, the mask is not flipped: strictly this is
// a cross-correlation.) Sums are accumulated in double and rounded to float
// once, so the reference is more accurate than any float kernel; the lesson's
// tolerance covers the kernel's float rounding.
//
// Loop order: for each output row, each mask tap adds a shifted input row
// into a row of double accumulators. The inner loop runs over x with no
// branch (its range already leaves out the neighbours past the left and right
// edges), so the compiler vectorises it, and the rows are shared among the
// machine's cores (OpenMP), so the CPU side of the comparison is a fair one.
#include <algorithm>
#include <cstddef>
#include <vector>

void conv2d_ref(const float* in, const float* mask, float* out, int H, int W, int R)
{
    const int K = 2 * R + 1;
    #pragma omp parallel
    {
        std::vector<double> acc(static_cast<size_t>(W));  // one output row, per thread
        #pragma omp for schedule(static)
        for (int y = 0; y < H; ++y) {
            std::fill(acc.begin(), acc.end(), 0.0);
            for (int i = -R; i <= R; ++i) {
                const int yy = y + i;
                if (yy < 0 || yy >= H) continue;               // row outside: zeros
                const float* row = in + static_cast<size_t>(yy) * W;
                for (int j = -R; j <= R; ++j) {
                    const double m = mask[(i + R) * K + (j + R)];
                    // x + j must lie in [0, W): columns outside add zeros.
                    const int x_lo = std::max(0, -j);
                    const int x_hi = std::min(W, W - j);
                    for (int x = x_lo; x < x_hi; ++x) {
                        acc[x] += m * row[x + j];
                    }
                }
            }
            float* out_row = out + static_cast<size_t>(y) * W;
            for (int x = 0; x < W; ++x) {
                out_row[x] = static_cast<float>(acc[x]);
            }
        }
    }
}
