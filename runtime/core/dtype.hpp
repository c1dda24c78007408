// runtime/core/dtype.hpp — element types shared by buffers, params and kernel arguments.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace wb {

enum class DType { U8, I32, U32, F32, F64, F16 };

constexpr std::size_t dtype_size(DType t) {
    switch (t) {
    case DType::U8: return 1;
    case DType::F16: return 2;
    case DType::I32:
    case DType::U32:
    case DType::F32: return 4;
    case DType::F64: return 8;
    }
    return 0;
}

// The element a byte offset from a buffer's start falls in, rounding toward
// minus infinity: byte -1 is in element -1, "before its start".
constexpr long long element_at(long long byte_offset, long long element_size) {
    return byte_offset >= 0 ? byte_offset / element_size : -((-byte_offset + element_size - 1) / element_size);
}

constexpr bool dtype_is_float(DType t) { return t == DType::F16 || t == DType::F32 || t == DType::F64; }

// Lesson-file spelling: "u8", "i32", "u32", "f16", "f32", "f64".
constexpr std::string_view dtype_name(DType t) {
    switch (t) {
    case DType::U8: return "u8";
    case DType::I32: return "i32";
    case DType::U32: return "u32";
    case DType::F16: return "f16";
    case DType::F32: return "f32";
    case DType::F64: return "f64";
    }
    return "?";
}

// C++ spelling used when generating reference wrappers: "uint8_t", "float", ...
// An f16 buffer is GCC's _Float16 in the reference (__half in kernels).
constexpr std::string_view dtype_cpp_name(DType t) {
    switch (t) {
    case DType::U8: return "uint8_t";
    case DType::I32: return "int32_t";
    case DType::U32: return "uint32_t";
    case DType::F16: return "_Float16";
    case DType::F32: return "float";
    case DType::F64: return "double";
    }
    return "?";
}

inline std::optional<DType> parse_dtype(std::string_view s) {
    if (s == "u8") return DType::U8;
    if (s == "i32") return DType::I32;
    if (s == "u32") return DType::U32;
    if (s == "f16") return DType::F16;
    if (s == "f32") return DType::F32;
    if (s == "f64") return DType::F64;
    return std::nullopt;
}

}  // namespace wb
