// bench/fp16_peak_probe.cu — is the measured FP16 ceiling the chip's, or the peak kernel's?
//
// runtime/ceilings/ceilings.cpp measures FP16 with 8 independent __hfma2
// chains per thread. This probe, built with nvcc on the GPU machine
// (scripts/gpu-bench.sh does), times FP32 and half2 FMA chains with 8, 16
// and 32 chains and two block sizes, counting 2 FLOPs per FFMA and 4 per
// HFMA2. If the half2 figures do not move with the chains, the ceiling is
// the chip's rate, not a kernel that leaves it idle.
#include <cuda_fp16.h>
#include <cstdio>
template <int CH>
__global__ void f32(float* out, float seed, int iters) {
    float a[CH];
#pragma unroll
    for (int k = 0; k < CH; ++k) a[k] = seed + threadIdx.x + k;
    const float m = 0.9999999f, c = 1e-7f;
    for (int i = 0; i < iters; ++i)
#pragma unroll
        for (int j = 0; j < 16; ++j)
#pragma unroll
            for (int k = 0; k < CH; ++k) a[k] = fmaf(a[k], m, c);
    float s = 0;
#pragma unroll
    for (int k = 0; k < CH; ++k) s += a[k];
    if (s == -1.f) out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
template <int CH>
__global__ void f16(float* out, float seed, int iters) {
    __half2 a[CH];
#pragma unroll
    for (int k = 0; k < CH; ++k) a[k] = __float2half2_rn(seed + threadIdx.x * 0.001f + k);
    const __half2 m = __float2half2_rn(0.999f), c = __float2half2_rn(0.0001f);
    for (int i = 0; i < iters; ++i)
#pragma unroll
        for (int j = 0; j < 16; ++j)
#pragma unroll
            for (int k = 0; k < CH; ++k) a[k] = __hfma2(a[k], m, c);
    float s = 0;
#pragma unroll
    for (int k = 0; k < CH; ++k) s += __low2float(a[k]) + __high2float(a[k]);
    if (s == -1.f) out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
template <typename K>
double run(K kernel, double flops_per_op, int chains, int threads, int bpsm) {
    int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    int blocks = sms * bpsm * 4;
    float* out; cudaMalloc(&out, blocks * threads * 4);
    int iters = 256;
    kernel<<<blocks, threads>>>(out, 1.0f, iters);
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    float best = 1e9;
    for (int r = 0; r < 5; ++r) {
        cudaEventRecord(a); kernel<<<blocks, threads>>>(out, 1.0f, iters); cudaEventRecord(b); cudaEventSynchronize(b);
        float ms; cudaEventElapsedTime(&ms, a, b); if (ms < best) best = ms;
    }
    cudaFree(out);
    return double(blocks) * threads * iters * 16.0 * chains * flops_per_op / (best * 1e6);
}
int main() {
    printf("f32 x8  %.0f GFLOP/s\n", run(f32<8>, 2.0, 8, 256, 8));
    printf("f32 x16 %.0f GFLOP/s\n", run(f32<16>, 2.0, 16, 256, 8));
    printf("f16 x8  %.0f GFLOP/s\n", run(f16<8>, 4.0, 8, 256, 8));
    printf("f16 x16 %.0f GFLOP/s\n", run(f16<16>, 4.0, 16, 256, 8));
    printf("f16 x16 128thr %.0f GFLOP/s\n", run(f16<16>, 4.0, 16, 128, 16));
    printf("f16 x32 %.0f GFLOP/s\n", run(f16<32>, 4.0, 32, 256, 8));
    cudaError_t e = cudaGetLastError(); printf("err %s\n", cudaGetErrorString(e));
}
