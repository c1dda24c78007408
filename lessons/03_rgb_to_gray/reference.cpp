// CPU reference for lesson 03_rgb_to_gray: gray = 0.21 R + 0.72 G + 0.07 B.
// The arithmetic is written exactly as in the kernels (float products and
// sums, no fused multiply-add). Step 1 keeps the float; step 2 rounds it to
// the nearest byte. Where the GPU fuses a multiply and an add (FMA), step 1's
// float can differ in its last bits (atol 1e-3 covers it). Step 2 is compiled
// with --fmad=false, so its bytes match these exactly (atol 0): a kernel that
// truncates instead of rounding fails.
#include <cmath>
#include <cstdint>

namespace {

float gray_of(float r, float g, float b)
{
    return 0.21f * r + 0.72f * g + 0.07f * b;
}

}  // namespace

// Step 1: CHW input, three planes of n = H*W bytes; float output.
void rgb_to_gray_chw_ref(const uint8_t* rgb, float* gray, int n)
{
    #pragma omp parallel for schedule(static)  // every core (built with -fopenmp)
    for (int i = 0; i < n; ++i) {
        gray[i] = gray_of(rgb[i], rgb[n + i], rgb[2 * n + i]);
    }
}

// Step 2: HWC input, three interleaved bytes per pixel; byte output, rounded
// to nearest. Over all 2^24 colours v <= 255.0000153, so v + 0.5 < 256 and
// the clamp never fires; it is there as in the kernel, for safety.
void rgb_to_gray_hwc_ref(const uint8_t* rgb, uint8_t* gray, int height, int width)
{
    const int n = height * width;
    #pragma omp parallel for schedule(static)
    for (int p = 0; p < n; ++p) {
        const float v = gray_of(rgb[3 * p + 0], rgb[3 * p + 1], rgb[3 * p + 2]);
        gray[p] = static_cast<uint8_t>(std::fmin(255.0f, v + 0.5f));
    }
}
