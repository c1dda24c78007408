// CPU reference for lesson 02_rgb_to_gray: gray = 0.21 R + 0.72 G + 0.07 B,
// rounded to nearest. The arithmetic is written exactly as in the kernels
// (float products and sums, then the same rounding rule), so results agree
// except where the GPU fuses a multiply and add (FMA) and a value lands on a
// .5 boundary; the lesson's atol of 1 on this u8 output allows for that.
#include <cmath>
#include <cstdint>

namespace {

uint8_t gray_of(float r, float g, float b)
{
    float v = 0.21f * r + 0.72f * g + 0.07f * b;
    return static_cast<uint8_t>(std::fmin(255.0f, v + 0.5f));
}

}  // namespace

// Step 1: CHW input, three planes of n = H*W bytes.
void rgb_to_gray_chw_ref(const uint8_t* rgb, uint8_t* gray, int n)
{
    #pragma omp parallel for schedule(static)  // every core (built with -fopenmp)
    for (int i = 0; i < n; ++i) {
        gray[i] = gray_of(rgb[i], rgb[n + i], rgb[2 * n + i]);
    }
}

// Step 2: HWC input, three interleaved bytes per pixel.
void rgb_to_gray_hwc_ref(const uint8_t* rgb, uint8_t* gray, int height, int width)
{
    const int n = height * width;
    #pragma omp parallel for schedule(static)
    for (int p = 0; p < n; ++p) {
        gray[p] = gray_of(rgb[3 * p + 0], rgb[3 * p + 1], rgb[3 * p + 2]);
    }
}
