// runtime/core/half.hpp — IEEE 754 binary16 ("f16" buffers) on the host.
//
// Kernels see f16 buffers as __half (cuda_fp16.h) and CPU references as
// _Float16; the runtime itself only stores, loads and compares them, so it
// needs the two conversions and nothing else. Conversion from float rounds
// to nearest, ties to even, as __float2half does; overflow gives infinity,
// NaN stays NaN (quiet), and subnormals are kept.
#pragma once

#include <cstdint>
#include <cstring>

namespace wb {

struct Half {
    uint16_t bits = 0;
};

inline float half_to_float(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t mant = h & 0x3FFu;
    uint32_t bits;
    if (exp == 0x1F) {
        bits = sign | 0x7F800000u | (mant << 13);  // infinity or NaN
    } else if (exp != 0) {
        bits = sign | ((exp + 112) << 23) | (mant << 13);  // normal: rebias 15 -> 127
    } else if (mant == 0) {
        bits = sign;  // signed zero
    } else {
        // Subnormal: shift the mantissa up until its leading 1 is the implicit bit.
        int e = -1;
        do {
            mant <<= 1;
            ++e;
        } while ((mant & 0x400u) == 0);
        bits = sign | uint32_t(112 - e) << 23 | ((mant & 0x3FFu) << 13);
    }
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

inline uint16_t float_to_half(float f) {
    uint32_t x;
    std::memcpy(&x, &f, sizeof x);
    const uint16_t sign = uint16_t((x >> 16) & 0x8000u);
    const uint32_t exp = (x >> 23) & 0xFFu;
    uint32_t mant = x & 0x7FFFFFu;
    if (exp == 0xFF) return uint16_t(sign | 0x7C00u | (mant ? 0x200u | (mant >> 13) : 0u));  // inf, NaN
    const int e = int(exp) - 127 + 15;
    if (e >= 0x1F) return uint16_t(sign | 0x7C00u);  // too large: infinity
    if (e <= 0) {
        if (e < -10) return sign;  // below half the smallest subnormal: zero
        mant |= 0x800000u;         // the implicit bit, then shift into subnormal position
        const int shift = 14 - e;
        uint32_t h = mant >> shift;
        const uint32_t rest = mant & ((1u << shift) - 1), halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (h & 1u))) ++h;
        return uint16_t(sign | h);
    }
    uint32_t h = (uint32_t(e) << 10) | (mant >> 13);
    const uint32_t rest = mant & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // may carry into the exponent: still right
    return uint16_t(sign | h);
}

}  // namespace wb
