// runtime/data/buffers.hpp — host-side buffers: shapes, initial contents, element access.
//
// A HostBuffer is the CPU copy of one lesson buffer for one test case. The
// pipeline makes one per buffer, fills inputs from the lesson's "init", gives
// them to the CPU reference, uploads them for the kernel, and compares
// outputs element by element. Its bytes are shared until written
// (data/bytes.hpp): copying a HostBuffer does not copy 400 MB.
#pragma once

#include "core/dtype.hpp"
#include "data/bytes.hpp"
#include "lesson/expr.hpp"
#include "lesson/lesson.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace wb {

struct HostBuffer {
    std::string name;
    DType type = DType::F32;
    BufferRole role = BufferRole::Input;
    std::vector<std::size_t> shape;  // outermost first
    Bytes bytes;

    std::size_t count() const;                   // product of shape (1 for a scalar shape [])
    std::size_t size_bytes() const { return bytes.size(); }
    const void* data() const { return bytes.data(); }
    void* mutable_data() { return bytes.mutable_data(); }  // its own copy first, when shared

    double get(std::size_t flat) const;          // element as double
    void set(std::size_t flat, double value);    // converted to the element type (saturating for ints)
    // The same name, type, role and shape, over zero bytes of its own.
    HostBuffer zeroed_like(Bytes::Mapping mapping = Bytes::Mapping::Private) const;
    std::vector<std::size_t> unflatten(std::size_t flat) const;  // multi-dimensional index
};

// "[300,451,3]", for messages.
std::string shape_string(const std::vector<std::size_t>& shape);

// Evaluates the buffer's shape in `vars` (params of the case). Throws
// wb::Error (Expression) with the buffer's JSON path.
std::vector<std::size_t> eval_shape(const Buffer& buffer, const ExprVars& vars);

// Allocates and fills a buffer per the lesson's "init" (outputs get zeros here;
// the pipeline poisons device copies separately). Throws wb::Error on a bad
// image or a shape that does not fit the image layout.
HostBuffer make_buffer(const Buffer& spec, const ExprVars& vars);

// Decodes an image (PNG/JPEG via stb_image) and resamples it bilinearly to
// width x height, in the given layout and channels, as u8 or float (0..255).
void fill_from_image(HostBuffer& out, const BufferInit& init);

// Bytes used to poison outputs before a run. Two patterns are used so a cell
// the kernel never writes is told apart from one that happens to equal a pattern.
constexpr uint8_t kPoisonA = 0xFF;  // NaN for f32/f64, -1 / max for ints
constexpr uint8_t kPoisonB = 0x7F;

}  // namespace wb
