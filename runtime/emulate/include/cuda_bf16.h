// runtime/emulate/include/cuda_bf16.h — the toolkit's __nv_bfloat16, for emulated kernels.
//
// The 16 high bits of a float, rounded to nearest even from float (NaN stays
// NaN). Arithmetic is float arithmetic rounded once to bfloat16, as the GPU's
// for +, - and * (the float result of two bfloat16 values is exact for *).
#pragma once
#include "cuda_emu.h"

struct __nv_bfloat16_raw {
    unsigned short x;
};

namespace wb_emu {
inline unsigned short bf16_bits(float f)
{
    unsigned int u;
    std::memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<unsigned short>((u >> 16) | 0x40u);  // quiet NaN
    u += 0x7fffu + ((u >> 16) & 1u);
    return static_cast<unsigned short>(u >> 16);
}
inline float bf16_value(unsigned short x)
{
    const unsigned int u = static_cast<unsigned int>(x) << 16;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}
}  // namespace wb_emu

struct __attribute__((aligned(2))) __nv_bfloat16 {
    unsigned short __x;

    __nv_bfloat16() = default;
    constexpr __nv_bfloat16(const __nv_bfloat16_raw& r) : __x(r.x) {}
    __nv_bfloat16(float f) : __x(wb_emu::bf16_bits(f)) {}
    __nv_bfloat16(double d) : __x(wb_emu::bf16_bits(static_cast<float>(d))) {}
    __nv_bfloat16(int v) : __x(wb_emu::bf16_bits(static_cast<float>(v))) {}
    __nv_bfloat16(unsigned int v) : __x(wb_emu::bf16_bits(static_cast<float>(v))) {}

    operator float() const { return wb_emu::bf16_value(__x); }
    operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }
};

struct __attribute__((aligned(4))) __nv_bfloat162 {
    __nv_bfloat16 x, y;

    __nv_bfloat162() = default;
    constexpr __nv_bfloat162(const __nv_bfloat16& a, const __nv_bfloat16& b) : x(a), y(b) {}
};

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
inline float __bfloat162float(__nv_bfloat16 h) { return static_cast<float>(h); }
inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return __nv_bfloat162(a, b); }
inline __nv_bfloat162 __float22bfloat162_rn(float2 f) { return __nv_bfloat162(f.x, f.y); }
inline float2 __bfloat1622float2(__nv_bfloat162 h) { return make_float2(h.x, h.y); }
inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h) { return h.x; }
inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h) { return h.y; }
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short s) { return __nv_bfloat16_raw{s}; }

inline __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b) { return static_cast<float>(a) + static_cast<float>(b); }
inline __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b) { return static_cast<float>(a) - static_cast<float>(b); }
inline __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b) { return static_cast<float>(a) * static_cast<float>(b); }
inline __nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b) { return static_cast<float>(a) / static_cast<float>(b); }
inline __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) { return fmaf(a, b, c); }
inline __nv_bfloat16 __hneg(__nv_bfloat16 a) { return __nv_bfloat16_raw{static_cast<unsigned short>(a.__x ^ 0x8000u)}; }
inline __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b) { return fmaxf(a, b); }
inline __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b) { return fminf(a, b); }
inline __nv_bfloat162 __hadd2(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(__hadd(a.x, b.x), __hadd(a.y, b.y)); }
inline __nv_bfloat162 __hmul2(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(__hmul(a.x, b.x), __hmul(a.y, b.y)); }
inline __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c)
{
    return __nv_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}

inline __nv_bfloat16 operator+(const __nv_bfloat16& a, const __nv_bfloat16& b) { return __hadd(a, b); }
inline __nv_bfloat16 operator-(const __nv_bfloat16& a, const __nv_bfloat16& b) { return __hsub(a, b); }
inline __nv_bfloat16 operator*(const __nv_bfloat16& a, const __nv_bfloat16& b) { return __hmul(a, b); }
inline __nv_bfloat16 operator/(const __nv_bfloat16& a, const __nv_bfloat16& b) { return __hdiv(a, b); }
inline __nv_bfloat16& operator+=(__nv_bfloat16& a, const __nv_bfloat16& b) { return a = __hadd(a, b); }
inline __nv_bfloat16& operator*=(__nv_bfloat16& a, const __nv_bfloat16& b) { return a = __hmul(a, b); }
inline __nv_bfloat16 operator-(const __nv_bfloat16& a) { return __hneg(a); }
inline bool operator<(const __nv_bfloat16& a, const __nv_bfloat16& b) { return static_cast<float>(a) < static_cast<float>(b); }
inline bool operator>(const __nv_bfloat16& a, const __nv_bfloat16& b) { return static_cast<float>(a) > static_cast<float>(b); }

inline __nv_bfloat16 atomicAdd(__nv_bfloat16* address, __nv_bfloat16 val)
{
    return wb_emu::atomic_update(address, [val](__nv_bfloat16 old) { return __hadd(old, val); });
}
