// runtime/lesson/launch_args.hpp — a launch's argument list, made from the
// lesson's args ("buffer", "param" or an expression) for one set of params.
//
// The form is the one cuLaunchKernel, the CPU emulator and the reference
// trampoline all take: an array of pointers, each to the argument's value.
#pragma once

#include "core/error.hpp"
#include "core/half.hpp"
#include "core/dtype.hpp"
#include "lesson/expr.hpp"
#include "lesson/lesson.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace wb {

// Storage for one argument list, in the form cuLaunchKernel and the reference
// trampoline both take: an array of pointers, each to the argument's value.
struct ArgPack {
    std::vector<std::array<unsigned char, 8>> values;
    std::vector<void*> pointers;

    void add_raw(const void* p, std::size_t n) {
        std::array<unsigned char, 8> v{};
        std::memcpy(v.data(), p, n);
        values.push_back(v);
    }
    void add_scalar(DType t, double x) {
        switch (t) {
        case DType::U8: { uint8_t v = uint8_t(x); add_raw(&v, 1); break; }
        case DType::I32: { int32_t v = int32_t(x); add_raw(&v, 4); break; }
        case DType::U32: { uint32_t v = uint32_t(x); add_raw(&v, 4); break; }
        case DType::F16: { uint16_t v = float_to_half(float(x)); add_raw(&v, 2); break; }
        case DType::F32: { float v = float(x); add_raw(&v, 4); break; }
        case DType::F64: { double v = x; add_raw(&v, 8); break; }
        }
    }
    void** finish() {
        pointers.clear();
        for (auto& v : values) pointers.push_back(v.data());
        return pointers.data();
    }
};

// Builds an argument list; `buffer_address(name)` gives the address to pass for a buffer.
template <class BufferAddress>
ArgPack pack_args(const std::vector<Arg>& args, const std::map<std::string, double>& params, BufferAddress&& buffer_address) {
    ArgPack pack;
    ExprVars vars(params.begin(), params.end());
    for (const auto& a : args) {
        switch (a.kind) {
        case Arg::Kind::Buffer: {
            auto addr = buffer_address(a.name);
            pack.add_raw(&addr, sizeof addr);
            break;
        }
        case Arg::Kind::Param: pack.add_scalar(a.type, params.at(a.name)); break;
        case Arg::Kind::Expr: {
            double v;
            try { v = eval_expr(a.name, vars); }
            catch (const Error& e) { throw Error(ErrorKind::Expression, e.message(), {"", a.json_path}); }
            pack.add_scalar(a.type, v);
            break;
        }
        }
    }
    pack.finish();
    return pack;
}

}  // namespace wb
