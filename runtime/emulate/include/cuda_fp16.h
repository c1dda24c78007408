// runtime/emulate/include/cuda_fp16.h — the toolkit's __half and __half2, for emulated kernels.
//
// __half keeps its IEEE binary16 bits in an unsigned short, as CUDA's does,
// and converts through GCC's _Float16 (correctly rounded to nearest even).
// Arithmetic is done in double and rounded once to half: exact before the
// rounding for +, - and *, so those give the GPU's bits; division and fma
// may differ from it in the last bit in rare cases.
#pragma once
#include "cuda_emu.h"

struct __half_raw {
    unsigned short x;
};
struct __half2_raw {
    unsigned short x, y;
};

namespace wb_emu {
inline unsigned short half_bits(double v)
{
    const _Float16 h = static_cast<_Float16>(v);
    unsigned short x;
    std::memcpy(&x, &h, sizeof x);
    return x;
}
inline unsigned short half_bits(float v)
{
    const _Float16 h = static_cast<_Float16>(v);
    unsigned short x;
    std::memcpy(&x, &h, sizeof x);
    return x;
}
inline float half_value(unsigned short x)
{
    _Float16 h;
    std::memcpy(&h, &x, sizeof x);
    return static_cast<float>(h);
}
}  // namespace wb_emu

struct __attribute__((aligned(2))) __half {
    unsigned short __x;

    __half() = default;
    constexpr __half(const __half_raw& r) : __x(r.x) {}
    __half(float f) : __x(wb_emu::half_bits(f)) {}
    __half(double d) : __x(wb_emu::half_bits(d)) {}
    __half(int v) : __x(wb_emu::half_bits(static_cast<float>(v))) {}
    __half(unsigned int v) : __x(wb_emu::half_bits(static_cast<float>(v))) {}
    __half(short v) : __x(wb_emu::half_bits(static_cast<float>(v))) {}
    __half(unsigned short v) : __x(wb_emu::half_bits(static_cast<float>(v))) {}
    __half(long long v) : __x(wb_emu::half_bits(static_cast<float>(v))) {}
    __half(unsigned long long v) : __x(wb_emu::half_bits(static_cast<float>(v))) {}

    operator float() const { return wb_emu::half_value(__x); }
    operator __half_raw() const { return __half_raw{__x}; }
};

struct __attribute__((aligned(4))) __half2 {
    __half x, y;

    __half2() = default;
    constexpr __half2(const __half& a, const __half& b) : x(a), y(b) {}
    __half2(const __half2_raw& r) : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
    operator __half2_raw() const { return __half2_raw{x.__x, y.__x}; }
};

typedef __half half;
typedef __half2 half2;

// Conversions. Every rounding mode is to-nearest here except the integer _rz ones.
inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline __half __float2half_rz(float f) { return __half(f); }
inline __half __float2half_rd(float f) { return __half(f); }
inline __half __float2half_ru(float f) { return __half(f); }
inline __half __double2half(double d) { return __half(d); }
inline float __half2float(__half h) { return static_cast<float>(h); }
inline __half2 __float2half2_rn(float f) { return __half2(__half(f), __half(f)); }
inline __half2 __floats2half2_rn(float a, float b) { return __half2(__half(a), __half(b)); }
inline __half2 __float22half2_rn(float2 f) { return __half2(__half(f.x), __half(f.y)); }
inline float2 __half22float2(__half2 h) { return make_float2(h.x, h.y); }
inline __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
inline __half2 make_half2(__half a, __half b) { return __half2(a, b); }
inline __half2 __half2half2(__half a) { return __half2(a, a); }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline float __low2float(__half2 h) { return h.x; }
inline float __high2float(__half2 h) { return h.y; }
inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
inline __half2 __low2half2(__half2 a) { return __half2(a.x, a.x); }
inline __half2 __high2half2(__half2 a) { return __half2(a.y, a.y); }
inline __half2 __lowhigh2highlow(__half2 a) { return __half2(a.y, a.x); }
inline short __half_as_short(__half h) { return static_cast<short>(h.__x); }
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline __half __short_as_half(short s) { return __half_raw{static_cast<unsigned short>(s)}; }
inline __half __ushort_as_half(unsigned short s) { return __half_raw{s}; }
inline __half __int2half_rn(int v) { return __half(v); }
inline __half __uint2half_rn(unsigned int v) { return __half(v); }
inline __half __short2half_rn(short v) { return __half(v); }
inline __half __ushort2half_rn(unsigned short v) { return __half(v); }
inline __half __ll2half_rn(long long v) { return __half(v); }
inline __half __ull2half_rn(unsigned long long v) { return __half(v); }
inline int __half2int_rn(__half h) { return __float2int_rn(h); }
inline int __half2int_rz(__half h) { return __float2int_rz(h); }
inline int __half2int_rd(__half h) { return __float2int_rd(h); }
inline int __half2int_ru(__half h) { return __float2int_ru(h); }
inline unsigned int __half2uint_rn(__half h) { return __float2uint_rn(h); }
inline unsigned int __half2uint_rz(__half h) { return __float2uint_rz(h); }
inline long long __half2ll_rz(__half h) { return __float2ll_rz(h); }
inline unsigned long long __half2ull_rz(__half h) { return __float2ull_rz(h); }
inline short __half2short_rz(__half h)
{
    const int v = __float2int_rz(h);
    return static_cast<short>(v < SHRT_MIN ? SHRT_MIN : v > SHRT_MAX ? SHRT_MAX : v);
}
inline unsigned short __half2ushort_rz(__half h)
{
    const unsigned int v = __float2uint_rz(h);
    return static_cast<unsigned short>(v > USHRT_MAX ? USHRT_MAX : v);
}

// Arithmetic: exact in double, then one rounding to half.
namespace wb_emu {
inline __half half_of(double v) { return __half(v); }
inline double wide(__half h) { return static_cast<float>(h); }
inline __half saturate(__half h)
{
    const float v = h;
    return __half(v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f);
}
}  // namespace wb_emu

inline __half __hadd(__half a, __half b) { return wb_emu::half_of(wb_emu::wide(a) + wb_emu::wide(b)); }
inline __half __hsub(__half a, __half b) { return wb_emu::half_of(wb_emu::wide(a) - wb_emu::wide(b)); }
inline __half __hmul(__half a, __half b) { return wb_emu::half_of(wb_emu::wide(a) * wb_emu::wide(b)); }
inline __half __hdiv(__half a, __half b) { return wb_emu::half_of(wb_emu::wide(a) / wb_emu::wide(b)); }
inline __half __hfma(__half a, __half b, __half c)
{
    return wb_emu::half_of(::fma(wb_emu::wide(a), wb_emu::wide(b), wb_emu::wide(c)));
}
inline __half __hadd_rn(__half a, __half b) { return __hadd(a, b); }
inline __half __hsub_rn(__half a, __half b) { return __hsub(a, b); }
inline __half __hmul_rn(__half a, __half b) { return __hmul(a, b); }
inline __half __hadd_sat(__half a, __half b) { return wb_emu::saturate(__hadd(a, b)); }
inline __half __hsub_sat(__half a, __half b) { return wb_emu::saturate(__hsub(a, b)); }
inline __half __hmul_sat(__half a, __half b) { return wb_emu::saturate(__hmul(a, b)); }
inline __half __hfma_sat(__half a, __half b, __half c) { return wb_emu::saturate(__hfma(a, b, c)); }
inline __half __hneg(__half a) { return __half_raw{static_cast<unsigned short>(a.__x ^ 0x8000u)}; }
inline __half __habs(__half a) { return __half_raw{static_cast<unsigned short>(a.__x & 0x7fffu)}; }
inline bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
inline int __hisinf(__half a) { return a.__x == 0x7c00u ? 1 : a.__x == 0xfc00u ? -1 : 0; }
inline __half __hmax(__half a, __half b) { return fmaxf(a, b); }
inline __half __hmin(__half a, __half b) { return fminf(a, b); }
inline __half __hmax_nan(__half a, __half b) { return __hisnan(a) ? a : __hisnan(b) ? b : __hmax(a, b); }
inline __half __hmin_nan(__half a, __half b) { return __hisnan(a) ? a : __hisnan(b) ? b : __hmin(a, b); }

inline bool __heq(__half a, __half b) { return static_cast<float>(a) == static_cast<float>(b); }
inline bool __hne(__half a, __half b) { return !__hisnan(a) && !__hisnan(b) && !__heq(a, b); }
inline bool __hgt(__half a, __half b) { return static_cast<float>(a) > static_cast<float>(b); }
inline bool __hlt(__half a, __half b) { return static_cast<float>(a) < static_cast<float>(b); }
inline bool __hge(__half a, __half b) { return static_cast<float>(a) >= static_cast<float>(b); }
inline bool __hle(__half a, __half b) { return static_cast<float>(a) <= static_cast<float>(b); }
inline bool __hequ(__half a, __half b) { return __hisnan(a) || __hisnan(b) || __heq(a, b); }
inline bool __hneu(__half a, __half b) { return !__heq(a, b); }
inline bool __hgtu(__half a, __half b) { return !__hle(a, b); }
inline bool __hltu(__half a, __half b) { return !__hge(a, b); }
inline bool __hgeu(__half a, __half b) { return !__hlt(a, b); }
inline bool __hleu(__half a, __half b) { return !__hgt(a, b); }

// The same, lane by lane, on __half2.
#define WB_EMU_HALF2_BINARY(name2, name)                                                      \
    inline __half2 name2(__half2 a, __half2 b) { return __half2(name(a.x, b.x), name(a.y, b.y)); }
WB_EMU_HALF2_BINARY(__hadd2, __hadd)
WB_EMU_HALF2_BINARY(__hsub2, __hsub)
WB_EMU_HALF2_BINARY(__hmul2, __hmul)
WB_EMU_HALF2_BINARY(__h2div, __hdiv)
WB_EMU_HALF2_BINARY(__hadd2_sat, __hadd_sat)
WB_EMU_HALF2_BINARY(__hsub2_sat, __hsub_sat)
WB_EMU_HALF2_BINARY(__hmul2_sat, __hmul_sat)
WB_EMU_HALF2_BINARY(__hmax2, __hmax)
WB_EMU_HALF2_BINARY(__hmin2, __hmin)
#undef WB_EMU_HALF2_BINARY
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)); }
inline __half2 __hfma2_sat(__half2 a, __half2 b, __half2 c)
{
    return __half2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y));
}
inline __half2 __hneg2(__half2 a) { return __half2(__hneg(a.x), __hneg(a.y)); }
inline __half2 __habs2(__half2 a) { return __half2(__habs(a.x), __habs(a.y)); }
#define WB_EMU_HALF2_COMPARE(name2, bname2, name)                                                          \
    inline __half2 name2(__half2 a, __half2 b)                                                            \
    {                                                                                                     \
        return __half2(__half(name(a.x, b.x) ? 1.0f : 0.0f), __half(name(a.y, b.y) ? 1.0f : 0.0f));       \
    }                                                                                                     \
    inline bool bname2(__half2 a, __half2 b) { return name(a.x, b.x) && name(a.y, b.y); }
WB_EMU_HALF2_COMPARE(__heq2, __hbeq2, __heq)
WB_EMU_HALF2_COMPARE(__hne2, __hbne2, __hne)
WB_EMU_HALF2_COMPARE(__hgt2, __hbgt2, __hgt)
WB_EMU_HALF2_COMPARE(__hlt2, __hblt2, __hlt)
WB_EMU_HALF2_COMPARE(__hge2, __hbge2, __hge)
WB_EMU_HALF2_COMPARE(__hle2, __hble2, __hle)
WB_EMU_HALF2_COMPARE(__hneu2, __hbneu2, __hneu)
#undef WB_EMU_HALF2_COMPARE

// Math functions: computed in float and rounded to half.
#define WB_EMU_HALF_MATH(hname, h2name, expr)                                      \
    inline __half hname(__half h) { const float x = h; return __half(expr); }     \
    inline __half2 h2name(__half2 h) { return __half2(hname(h.x), hname(h.y)); }
WB_EMU_HALF_MATH(hsqrt, h2sqrt, sqrtf(x))
WB_EMU_HALF_MATH(hrsqrt, h2rsqrt, 1.0f / sqrtf(x))
WB_EMU_HALF_MATH(hrcp, h2rcp, 1.0f / x)
WB_EMU_HALF_MATH(hexp, h2exp, expf(x))
WB_EMU_HALF_MATH(hexp2, h2exp2, exp2f(x))
WB_EMU_HALF_MATH(hexp10, h2exp10, exp10f(x))
WB_EMU_HALF_MATH(hlog, h2log, logf(x))
WB_EMU_HALF_MATH(hlog2, h2log2, log2f(x))
WB_EMU_HALF_MATH(hlog10, h2log10, log10f(x))
WB_EMU_HALF_MATH(hsin, h2sin, sinf(x))
WB_EMU_HALF_MATH(hcos, h2cos, cosf(x))
WB_EMU_HALF_MATH(htanh, h2tanh, tanhf(x))
WB_EMU_HALF_MATH(hfloor, h2floor, floorf(x))
WB_EMU_HALF_MATH(hceil, h2ceil, ceilf(x))
WB_EMU_HALF_MATH(htrunc, h2trunc, truncf(x))
WB_EMU_HALF_MATH(hrint, h2rint, nearbyintf(x))
#undef WB_EMU_HALF_MATH

inline __half operator+(const __half& a, const __half& b) { return __hadd(a, b); }
inline __half operator-(const __half& a, const __half& b) { return __hsub(a, b); }
inline __half operator*(const __half& a, const __half& b) { return __hmul(a, b); }
inline __half operator/(const __half& a, const __half& b) { return __hdiv(a, b); }
inline __half& operator+=(__half& a, const __half& b) { return a = __hadd(a, b); }
inline __half& operator-=(__half& a, const __half& b) { return a = __hsub(a, b); }
inline __half& operator*=(__half& a, const __half& b) { return a = __hmul(a, b); }
inline __half& operator/=(__half& a, const __half& b) { return a = __hdiv(a, b); }
inline __half operator+(const __half& a) { return a; }
inline __half operator-(const __half& a) { return __hneg(a); }
inline bool operator==(const __half& a, const __half& b) { return __heq(a, b); }
inline bool operator!=(const __half& a, const __half& b) { return __hneu(a, b); }
inline bool operator<(const __half& a, const __half& b) { return __hlt(a, b); }
inline bool operator>(const __half& a, const __half& b) { return __hgt(a, b); }
inline bool operator<=(const __half& a, const __half& b) { return __hle(a, b); }
inline bool operator>=(const __half& a, const __half& b) { return __hge(a, b); }
inline __half2 operator+(const __half2& a, const __half2& b) { return __hadd2(a, b); }
inline __half2 operator-(const __half2& a, const __half2& b) { return __hsub2(a, b); }
inline __half2 operator*(const __half2& a, const __half2& b) { return __hmul2(a, b); }
inline __half2 operator/(const __half2& a, const __half2& b) { return __h2div(a, b); }
inline __half2& operator+=(__half2& a, const __half2& b) { return a = __hadd2(a, b); }
inline __half2& operator-=(__half2& a, const __half2& b) { return a = __hsub2(a, b); }
inline __half2& operator*=(__half2& a, const __half2& b) { return a = __hmul2(a, b); }
inline __half2& operator/=(__half2& a, const __half2& b) { return a = __h2div(a, b); }
inline __half2 operator-(const __half2& a) { return __hneg2(a); }
inline bool operator==(const __half2& a, const __half2& b) { return __hbeq2(a, b); }
inline bool operator!=(const __half2& a, const __half2& b) { return __hbneu2(a, b); }

// Atomics: a compare-and-swap on the 2 or 4 bytes.
inline __half atomicAdd(__half* address, __half val)
{
    return wb_emu::atomic_update(address, [val](__half old) { return __hadd(old, val); });
}
inline __half2 atomicAdd(__half2* address, __half2 val)
{
    return wb_emu::atomic_update(address, [val](__half2 old) { return __hadd2(old, val); });
}
inline __half atomicAdd_block(__half* address, __half val) { return atomicAdd(address, val); }
inline __half2 atomicAdd_block(__half2* address, __half2 val) { return atomicAdd(address, val); }

// Shuffles work on __half and __half2 through cuda_emu.h's templates.
