// Step 3 solution: online softmax, one block per row.
// One pass over the row finds its maximum and its sum of exponentials at
// once; a second pass writes y. Launch: grid.x = R, 256 threads per block
// (any multiple of 32 up to 1024 works).
#include <cmath>

#define WARP 32
#define FULL_MASK 0xffffffffu

// A partial result: m is the largest value seen so far, d the sum of
// exp(value - m) over the values seen so far. Nothing seen: m = -INFINITY,
// d = 0.
struct MD {
    float m;
    float d;
};

// The partial result of the values of a and those of b together: the new
// maximum is the larger one, and each sum is rescaled from its own maximum
// to the new one, since exp(v - m_old) * exp(m_old - m_new) = exp(v - m_new).
__device__ MD md_merge(MD a, MD b)
{
    float m = fmaxf(a.m, b.m);
    // Both empty: -INFINITY - (-INFINITY) is NaN, and 0 * NaN is NaN, which
    // would spread into every merge after it. An empty side with a
    // non-empty one is fine: exp(-INFINITY) = 0 and 0 * 0 = 0.
    if (m == -INFINITY) return a;
    MD r;
    r.m = m;
    r.d = a.d * expf(a.m - m) + b.d * expf(b.m - m);
    return r;
}

// Merges the partial results of the 32 lanes of a warp; every lane receives
// the result. Partners compute merge(a, b) and merge(b, a), which are equal
// (max and + do not care about order), so all lanes agree.
__device__ MD warp_merge(MD v)
{
    for (int offset = WARP / 2; offset > 0; offset /= 2) {
        MD other;
        other.m = __shfl_xor_sync(FULL_MASK, v.m, offset);
        other.d = __shfl_xor_sync(FULL_MASK, v.d, offset);
        v = md_merge(v, other);
    }
    return v;
}

extern "C" __global__ void softmax(const float* x, float* y, int R, int C)
{
    __shared__ float scratch_m[WARP];
    __shared__ float scratch_d[WARP];

    int lane = threadIdx.x % WARP;
    int warp = threadIdx.x / WARP;
    int warps = blockDim.x / WARP;

    int row = blockIdx.x;
    const float* xr = x + static_cast<size_t>(row) * C;
    float* yr = y + static_cast<size_t>(row) * C;

    // Pass 1: running maximum and running sum, one exp per element.
    // A new maximum rescales the sum so far by exp(m_old - m_new) and adds
    // exp(v - v) = 1 for itself. On the first element m_old = -INFINITY,
    // so the old (empty) sum is scaled by exp(-INFINITY) = 0.
    MD md;
    md.m = -INFINITY;
    md.d = 0.0f;
    for (int j = threadIdx.x; j < C; j += blockDim.x) {
        float v = xr[j];
        if (v > md.m) {
            md.d = md.d * expf(md.m - v) + 1.0f;
            md.m = v;
        } else {
            md.d += expf(v - md.m);
        }
    }

    // Merge: warps first, then the warp results, as in step 2's block_max.
    md = warp_merge(md);
    if (lane == 0) {
        scratch_m[warp] = md.m;
        scratch_d[warp] = md.d;
    }
    __syncthreads();
    if (lane < warps) {
        md.m = scratch_m[lane];
        md.d = scratch_d[lane];
    } else {
        md.m = -INFINITY;  // an empty partial result
        md.d = 0.0f;
    }
    md = warp_merge(md);

    // Pass 2: the outputs, with the row's maximum and sum.
    float inv = 1.0f / md.d;
    for (int j = threadIdx.x; j < C; j += blockDim.x) {
        yr[j] = expf(xr[j] - md.m) * inv;
    }
}
