// CPU references for lesson 25_compaction_radix_sort. Every output is compared
// exactly: compaction and sorting only move values, they never round them.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

// Step 1: stream compaction. y[0 .. count) = the elements of x with x > t, in
// their order in x; the rest of y stays 0 (the lesson fills y with 0 before
// every run, on the GPU and here alike). count = how many were kept.
void compact_ref(const float* x, float* y, int32_t* count, int32_t n, float t)
{
    int32_t k = 0;
    for (int32_t i = 0; i < n; ++i) {
        if (x[i] > t) y[k++] = x[i];
    }
    for (int32_t i = k; i < n; ++i) y[i] = 0.0f;
    *count = k;
}

// Step 2: a stable split by one bit. First the keys whose bit `bit` is 0, in
// their order in keys, then those whose bit is 1, in their order.
void split_ref(const uint32_t* keys, uint32_t* out, int32_t n, int32_t bit)
{
    int32_t k = 0;
    for (int32_t i = 0; i < n; ++i)
        if (((keys[i] >> bit) & 1u) == 0) out[k++] = keys[i];
    for (int32_t i = 0; i < n; ++i)
        if (((keys[i] >> bit) & 1u) == 1) out[k++] = keys[i];
}

// Step 3: sort (key, value) pairs by key, ascending, stably: pairs with equal
// keys keep their order in the input. The values are the input positions
// 0, 1, 2, ..., so vals_out is the stable argsort of keys, and a sort that
// swaps two equal keys shows it there. std::stable_sort on the positions.
void radix_sort_ref(const uint32_t* keys, const int32_t* vals, uint32_t* keys_out,
                    int32_t* vals_out, int32_t n)
{
    std::vector<int32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [keys](int32_t a, int32_t b) { return keys[a] < keys[b]; });
    for (int32_t i = 0; i < n; ++i) {
        keys_out[i] = keys[order[i]];
        vals_out[i] = vals[order[i]];
    }
}
