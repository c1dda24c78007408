// CPU reference for lesson 08_histogram: how many bytes of x have each of the
// 256 values. `bins` starts from the lesson's fill (0), like the kernel's copy,
// so the reference adds into it too.
//
// Each OpenMP thread counts its share of x into 256 counters of its own, then
// adds them into bins one thread at a time: the CPU version of step 2's idea.
void histogram_ref(const uint8_t* x, int32_t* bins, int32_t n)
{
#pragma omp parallel
    {
        int32_t local[256] = {0};
#pragma omp for nowait
        for (int32_t i = 0; i < n; ++i) {
            local[x[i]] += 1;
        }
#pragma omp critical
        for (int b = 0; b < 256; ++b) {
            bins[b] += local[b];
        }
    }
}
