// CPU reference for lesson 09_transpose: out (W x H) = the transpose of in (H x W).
// Both are row-major: in[r][c] is in[r*W + c], out[c][r] is out[c*H + r].
// Pure data movement, so the kernel's result must match it exactly.
// The loops walk 32 x 32 blocks so that both the reads and the writes stay
// in cache, and the block rows are shared among the machine's cores (the
// reference is built with -fopenmp). For 1 x N and N x 1 there is a single
// block row or a single block column; that is fine at these sizes.
#include <algorithm>
#include <cstddef>
#include <cstdint>

void transpose_ref(const float* in, float* out, int32_t H, int32_t W)
{
    const int32_t B = 32;
    #pragma omp parallel for schedule(static)
    for (int32_t r0 = 0; r0 < H; r0 += B) {
        const int32_t r1 = std::min(r0 + B, H);
        for (int32_t c0 = 0; c0 < W; c0 += B) {
            const int32_t c1 = std::min(c0 + B, W);
            for (int32_t r = r0; r < r1; ++r) {
                for (int32_t c = c0; c < c1; ++c) {
                    out[static_cast<size_t>(c) * H + r] = in[static_cast<size_t>(r) * W + c];
                }
            }
        }
    }
}
