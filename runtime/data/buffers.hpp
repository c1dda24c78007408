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
#include <optional>
#include <string>
#include <vector>

namespace wb {

// Where a sampled buffer's elements come from: element (i0, i1, ...) of the
// sample is element (i0*step[0], i1*step[1], ...) of the whole, whose shape
// is `shape`. A front end draws a 10^8-element output from a sample that
// fits a screen, and never receives the whole.
struct SampleOf {
    std::vector<std::size_t> shape;  // the whole buffer's
    std::vector<std::size_t> step;   // per dimension, >= 1
    bool operator==(const SampleOf&) const = default;
};

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
    // Set when this is a sample of a larger buffer (sample_buffer()).
    std::optional<SampleOf> sample_of;
    // The whole buffer's element count and shape (this one's when it is whole).
    std::size_t full_count() const;
    const std::vector<std::size_t>& full_shape() const { return sample_of ? sample_of->shape : shape; }
    // The whole buffer's flat index of this buffer's element `flat`.
    std::size_t full_flat(std::size_t flat) const;

    // The same name, type, role and shape, over zero bytes of its own.
    HostBuffer zeroed_like(Bytes::Mapping mapping = Bytes::Mapping::Private) const;
    std::vector<std::size_t> unflatten(std::size_t flat) const;  // multi-dimensional index
};

// Buffers over kSampleOver elements cross to a front end that draws them as
// a sample of at most that many (RunRequest::sample_over): 2048 x 2048.
constexpr std::size_t kSampleOver = std::size_t(1) << 22;

// `b` whole when it has at most `max_elements` elements; else every k-th
// element along each dimension, k the smallest that fits, except that
// dimensions of 4 or fewer (an image's channels) are kept whole.
HostBuffer sample_buffer(const HostBuffer& b, std::size_t max_elements);

// Stores `value` at `p` as `type`, as HostBuffer::set does (integers rounded
// and saturated), for loops that fill a buffer through one mutable_data().
void store_value(DType type, std::byte* p, double value);

// The buffer named `name` in `v`; null when there is none.
const HostBuffer* find_in(const std::vector<HostBuffer>& v, const std::string& name);
// Its index in `v`; throws wb::Error (Internal) when there is none: the
// loader has checked every name a step uses.
std::size_t buffer_index(const std::vector<HostBuffer>& v, const std::string& name);
// Their sizes, added up.
std::uint64_t bytes_of(const std::vector<HostBuffer>& v);

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
