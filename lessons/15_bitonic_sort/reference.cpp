// CPU reference for lesson 15_bitonic_sort: out is in with every segment of
// SEG = 1024 keys sorted ascending, each segment on its own. The last segment
// holds the n % SEG keys left over when n is not a multiple of SEG (all n
// keys when n < SEG). std::sort per segment; the segments are independent,
// so they are shared among the machine's cores (built with -fopenmp).
// Keys are integers, so the kernel's result must match exactly.
#include <algorithm>
#include <cstdint>

void bitonic_sort_ref(const int32_t* in, int32_t* out, int32_t n)
{
    const int32_t SEG = 1024;
    const int32_t segments = (n + SEG - 1) / SEG;
    #pragma omp parallel for schedule(static)
    for (int32_t s = 0; s < segments; ++s) {
        const int32_t begin = s * SEG;
        const int32_t end = std::min(begin + SEG, n);
        std::copy(in + begin, in + end, out + begin);
        std::sort(out + begin, out + end);
    }
}
