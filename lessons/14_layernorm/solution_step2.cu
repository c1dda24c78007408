// Step 2 solution: layer normalisation in one pass over the statistics, with
// Welford's algorithm; a second pass writes y. FP16 in and out, float inside.
// Launch: grid.x = R, 256 threads per block (a multiple of 32 up to 1024).
#include <cuda_fp16.h>
#include <cmath>

#define WARP 32
#define FULL_MASK 0xffffffffu

// Welford's running statistics of the values seen so far: how many (n),
// their mean, and M2, the sum of squared distances from that mean (so the
// variance is M2 / n). Nothing seen: n = 0, mean = 0, M2 = 0. n is a float:
// counts up to 2^24 are exact in float.
struct Stats {
    float n;
    float mean;
    float M2;
};

// The statistics of the values of a and those of b together (Chan et al.):
//   n    = na + nb
//   mean = (na * mean_a + nb * mean_b) / n
//   M2   = M2_a + M2_b + delta^2 * na * nb / n,   delta = mean_b - mean_a
// Every operation is written so that swapping a and b gives bit-for-bit the
// same floats (a + b == b + a; delta only appears squared), so the two
// partners of a butterfly exchange end with identical statistics.
__device__ Stats merge(Stats a, Stats b)
{
    float n = a.n + b.n;
    if (n == 0.0f) return a;  // both empty: 0 / 0 would be NaN
    float delta = b.mean - a.mean;
    Stats r;
    r.n = n;
    r.mean = (a.n * a.mean + b.n * b.mean) / n;
    r.M2 = (a.M2 + b.M2) + delta * delta * (a.n * b.n) / n;
    return r;
}

// Merges the statistics of the 32 lanes of a warp; every lane gets the result.
__device__ Stats warp_merge(Stats s)
{
    for (int offset = WARP / 2; offset > 0; offset /= 2) {
        Stats o;
        o.n = __shfl_xor_sync(FULL_MASK, s.n, offset);
        o.mean = __shfl_xor_sync(FULL_MASK, s.mean, offset);
        o.M2 = __shfl_xor_sync(FULL_MASK, s.M2, offset);
        s = merge(s, o);
    }
    return s;
}

extern "C" __global__ void layernorm(const __half* x, const __half* gamma, const __half* beta,
                                     __half* y, int R, int C, float eps)
{
    __shared__ float scratch_n[WARP];
    __shared__ float scratch_mean[WARP];
    __shared__ float scratch_M2[WARP];

    int lane = threadIdx.x % WARP;
    int warp = threadIdx.x / WARP;
    int warps = blockDim.x / WARP;

    int row = blockIdx.x;
    const __half* xr = x + static_cast<size_t>(row) * C;
    __half* yr = y + static_cast<size_t>(row) * C;

    // Pass 1: Welford's update, one value at a time. M2 grows by
    // (v - old mean) * (v - new mean): both factors are distances from a
    // mean, small numbers, so no large sums cancel.
    Stats st;
    st.n = 0.0f;
    st.mean = 0.0f;
    st.M2 = 0.0f;
    for (int j = threadIdx.x; j < C; j += blockDim.x) {
        float v = __half2float(xr[j]);
        st.n += 1.0f;
        float delta = v - st.mean;
        st.mean += delta / st.n;
        st.M2 += delta * (v - st.mean);
    }

    // Merge: warps, then the warps' statistics, as in lesson 11.
    st = warp_merge(st);
    if (lane == 0) {
        scratch_n[warp] = st.n;
        scratch_mean[warp] = st.mean;
        scratch_M2[warp] = st.M2;
    }
    __syncthreads();
    if (lane < warps) {
        st.n = scratch_n[lane];
        st.mean = scratch_mean[lane];
        st.M2 = scratch_M2[lane];
    } else {
        st.n = 0.0f;  // empty statistics
        st.mean = 0.0f;
        st.M2 = 0.0f;
    }
    st = warp_merge(st);

    float mean = st.mean;
    float rstd = rsqrtf(st.M2 / st.n + eps);  // st.n == C here

    // Pass 2: normalise, scale, shift, round to half.
    for (int j = threadIdx.x; j < C; j += blockDim.x) {
        float v = (__half2float(xr[j]) - mean) * rstd;
        yr[j] = __float2half(v * __half2float(gamma[j]) + __half2float(beta[j]));
    }
}
