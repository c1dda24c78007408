// CPU reference for lesson 18_cuda_graphs: REPEATS passes of NSTAGES stages
// over every element. Stage k is one round of an integer hash: xor-shift,
// multiply by an odd constant that depends on k, add k. Every step is
// one-to-one and exact in 32-bit unsigned arithmetic, so the GPU must match
// bit for bit, and a stage left out, run twice or run out of order changes
// the answer.
#include <cstdint>

static inline uint32_t stage_round(uint32_t h, uint32_t k)
{
    h ^= h >> 16;
    h *= 0x7feb352du + 2u * k;  // odd for every k
    h += k;
    return h;
}

void stages_ref(const uint32_t* x, uint32_t* y, int n, int nstages, int repeats)
{
    #pragma omp parallel for schedule(static)
    for (int i = 0; i < n; ++i) {
        uint32_t h = x[i];
        for (int r = 0; r < repeats; ++r)
            for (int k = 0; k < nstages; ++k) h = stage_round(h, (uint32_t)k);
        y[i] = h;
    }
}
