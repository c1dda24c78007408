// runtime/data/buffers.cpp — host buffers: element access, shapes from expressions,
// and the initial contents a lesson asks for (zero, constant, ramp, uniform,
// normal, identity, image).
//
// Random inits must give the same bytes on every machine, because a student's
// result, the CPU reference and any saved expectation all depend on them. So
// element i's draws are SplitMix64 of (seed, i), a counter-based generator
// fixed by its few lines here, and the transforms to uniform/normal values
// are written here rather than taken from std::*_distribution, whose
// algorithms differ between standard libraries. Being counter-based, a large
// buffer is filled on every core and still gets the same bytes.
// Image decoding and resampling live in image.cpp.
#include "data/buffers.hpp"

#include "core/error.hpp"
#include "core/half.hpp"
#include "core/parallel.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace wb {

namespace {

// A single buffer larger than this is almost certainly a typo in a shape
// ("N*N" where "N" was meant) and would take the machine down before the GPU
// ever saw it.
constexpr std::size_t kMaxBufferBytes = std::size_t(4) << 30;  // 4 GiB

template <typename T>
T load(const std::byte* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

template <typename T>
void store(std::byte* p, T v) {
    std::memcpy(p, &v, sizeof(T));
}

// Draw number `k` of the stream `seed`: SplitMix64's output for that step
// (Steele, Lea and Flood 2014; the state after k+1 increments of the golden gamma).
std::uint64_t draw(std::uint64_t seed, std::uint64_t k) {
    std::uint64_t z = seed + (k + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Rounds half away from zero and clamps into [lo, hi]; NaN becomes 0, so a
// stray NaN in an integer init is visible as zeros rather than undefined.
double to_int_range(double value, double lo, double hi) {
    if (std::isnan(value)) return 0;
    double r = std::round(value);
    if (r < lo) return lo;
    if (r > hi) return hi;
    return r;
}

// A double in [0, 1) from the top 53 bits of one 64-bit draw: every value is
// a multiple of 2^-53, exactly representable, the same everywhere.
double unit_open_high(uint64_t draw) { return double(draw >> 11) * 0x1.0p-53; }
// (0, 1]: for the logarithm in Box-Muller, which must not see 0.
double unit_open_low(uint64_t draw) { return double((draw >> 11) + 1) * 0x1.0p-53; }

}  // namespace

void store_value(DType type, std::byte* p, double value) {
    switch (type) {
    case DType::U8: store<uint8_t>(p, uint8_t(to_int_range(value, 0, 255))); break;
    case DType::I32: store<int32_t>(p, int32_t(to_int_range(value, -2147483648.0, 2147483647.0))); break;
    case DType::U32: store<uint32_t>(p, uint32_t(to_int_range(value, 0, 4294967295.0))); break;
    case DType::F16: store<uint16_t>(p, float_to_half(float(value))); break;
    case DType::F32: store<float>(p, float(value)); break;
    case DType::F64: store<double>(p, value); break;
    }
}

namespace {

// Sets every element i to value(i), on every core.
template <typename Value>
void fill_each(HostBuffer& buf, Value&& value) {
    std::byte* base = static_cast<std::byte*>(buf.mutable_data());
    const std::size_t size = dtype_size(buf.type);
    const DType type = buf.type;
    parallel_for(buf.count(), [&](std::size_t, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) store_value(type, base + i * size, value(i));
    });
}

Location init_location(const Buffer& spec) { return Location{{}, spec.json_path + ".init", 0, 0}; }

void fill_uniform(HostBuffer& buf, const Buffer& spec) {
    const BufferInit& init = spec.init;
    if (!(init.min <= init.max))
        throw Error(ErrorKind::Lesson,
                    "uniform init of buffer '" + spec.name + "' has min " + std::to_string(init.min) +
                        " greater than max " + std::to_string(init.max),
                    init_location(spec));
    const std::uint64_t seed = init.seed;
    if (dtype_is_float(buf.type)) {
        const double min = init.min, span = init.max - init.min;
        fill_each(buf, [=](std::size_t i) { return min + span * unit_open_high(draw(seed, i)); });
        return;
    }
    // Integers: every whole number in [ceil(min), floor(max)] equally likely,
    // so {"min": 0, "max": 255} on a u8 buffer gives 0 and 255 as often as 128.
    const double lo = std::ceil(init.min), hi = std::floor(init.max);
    if (hi < lo)
        throw Error(ErrorKind::Lesson,
                    "uniform init of integer buffer '" + spec.name + "' has no whole number between min " +
                        std::to_string(init.min) + " and max " + std::to_string(init.max),
                    init_location(spec));
    const double values = hi - lo + 1;
    fill_each(buf, [=](std::size_t i) {
        const double v = lo + std::floor(unit_open_high(draw(seed, i)) * values);
        return v > hi ? hi : v;
    });
}

void fill_normal(HostBuffer& buf, const Buffer& spec) {
    const BufferInit& init = spec.init;
    if (!(init.stddev >= 0))
        throw Error(ErrorKind::Lesson,
                    "normal init of buffer '" + spec.name + "' has a negative stddev " + std::to_string(init.stddev),
                    init_location(spec));
    const std::uint64_t seed = init.seed;
    const double mean = init.mean, stddev = init.stddev;
    constexpr double kTwoPi = 6.283185307179586476925286766559;
    // Box-Muller: draws 2k and 2k+1 give elements 2k (cos) and 2k+1 (sin),
    // two independent standard normals.
    fill_each(buf, [=](std::size_t i) {
        const std::size_t pair = i & ~std::size_t(1);
        const double u1 = unit_open_low(draw(seed, pair));
        const double u2 = unit_open_high(draw(seed, pair + 1));
        const double r = std::sqrt(-2.0 * std::log(u1));
        const double theta = kTwoPi * u2;
        return mean + stddev * r * ((i & 1) ? std::sin(theta) : std::cos(theta));
    });
}

}  // namespace

std::string shape_string(const std::vector<std::size_t>& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ",";
        s += std::to_string(shape[i]);
    }
    return s + "]";
}

std::size_t HostBuffer::count() const {
    std::size_t n = 1;
    for (std::size_t d : shape) n *= d;
    return n;
}

double HostBuffer::get(std::size_t flat) const {
    const std::size_t size = dtype_size(type);
    if ((flat + 1) * size > bytes.size())
        throw Error(ErrorKind::Internal, "element " + std::to_string(flat) + " of buffer '" + name +
                                             "' is past its end (" + std::to_string(bytes.size() / size) +
                                             " elements)");
    const std::byte* p = bytes.data() + flat * size;
    switch (type) {
    case DType::U8: return load<uint8_t>(p);
    case DType::I32: return load<int32_t>(p);
    case DType::U32: return load<uint32_t>(p);
    case DType::F16: return half_to_float(load<uint16_t>(p));
    case DType::F32: return load<float>(p);
    case DType::F64: return load<double>(p);
    }
    return 0;
}

void HostBuffer::set(std::size_t flat, double value) {
    const std::size_t size = dtype_size(type);
    if ((flat + 1) * size > bytes.size())
        throw Error(ErrorKind::Internal, "element " + std::to_string(flat) + " of buffer '" + name +
                                             "' is past its end (" + std::to_string(bytes.size() / size) +
                                             " elements)");
    store_value(type, bytes.mutable_data() + flat * size, value);
}

std::size_t HostBuffer::full_count() const {
    if (!sample_of) return count();
    std::size_t n = 1;
    for (std::size_t d : sample_of->shape) n *= d;
    return n;
}

std::size_t HostBuffer::full_flat(std::size_t flat) const {
    if (!sample_of) return flat;
    const std::vector<std::size_t> index = unflatten(flat);
    std::size_t full = 0;
    for (std::size_t d = 0; d < index.size(); ++d) full = full * sample_of->shape[d] + index[d] * sample_of->step[d];
    return full;
}

HostBuffer sample_buffer(const HostBuffer& b, std::size_t max_elements) {
    const std::size_t n = b.count();
    if (n <= max_elements || max_elements == 0 || b.shape.empty() || b.sample_of) return b;
    const std::size_t dims = b.shape.size();
    // Short dimensions (an image's channels, first or last) are kept whole.
    auto kept = [&](std::size_t d) { return dims >= 2 && b.shape[d] <= 4; };
    std::size_t stepped = 0;
    for (std::size_t d = 0; d < dims; ++d) stepped += kept(d) ? 0 : 1;
    auto sampled_count = [&](std::size_t k) {
        std::size_t c = 1;
        for (std::size_t d = 0; d < dims; ++d) c *= kept(d) ? b.shape[d] : (b.shape[d] + k - 1) / k;
        return c;
    };
    // The smallest k that fits: a guess from the element ratio, then up.
    std::size_t k = std::max<std::size_t>(
        1, std::size_t(std::floor(std::pow(double(n) / double(max_elements), 1.0 / double(std::max<std::size_t>(stepped, 1))))));
    while (k > 1 && sampled_count(k - 1) <= max_elements) --k;
    while (sampled_count(k) > max_elements && k < n) ++k;

    HostBuffer out;
    out.name = b.name;
    out.type = b.type;
    out.role = b.role;
    SampleOf of{b.shape, std::vector<std::size_t>(dims, 1)};
    for (std::size_t d = 0; d < dims; ++d) {
        if (!kept(d)) of.step[d] = k;
        out.shape.push_back((b.shape[d] + of.step[d] - 1) / of.step[d]);
    }
    out.bytes = Bytes(out.count() * dtype_size(b.type));
    out.sample_of = std::move(of);
    const std::size_t size = dtype_size(b.type);
    const auto* src = static_cast<const std::byte*>(b.data());
    std::byte* dst = out.bytes.mutable_data();
    const SampleOf& from = *out.sample_of;
    parallel_for(out.count(), [&](std::size_t, std::size_t begin, std::size_t end) {
        if (begin == end) return;
        std::vector<std::size_t> index = out.unflatten(begin);  // then counted up, last dimension fastest
        for (std::size_t i = begin; i < end; ++i) {
            std::size_t full = 0;
            for (std::size_t d = 0; d < dims; ++d) full = full * from.shape[d] + index[d] * from.step[d];
            std::memcpy(dst + i * size, src + full * size, size);
            for (std::size_t d = dims; d-- > 0;) {
                if (++index[d] < out.shape[d]) break;
                index[d] = 0;
            }
        }
    });
    return out;
}

HostBuffer HostBuffer::zeroed_like(Bytes::Mapping mapping) const {
    HostBuffer out;
    out.name = name;
    out.type = type;
    out.role = role;
    out.shape = shape;
    out.bytes = Bytes(size_bytes(), mapping);
    out.sample_of = sample_of;
    return out;
}

std::vector<std::size_t> HostBuffer::unflatten(std::size_t flat) const {
    std::vector<std::size_t> index(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        const std::size_t extent = shape[d] ? shape[d] : 1;
        index[d] = flat % extent;
        flat /= extent;
    }
    return index;
}

std::vector<std::size_t> eval_shape(const Buffer& buffer, const ExprVars& vars) {
    std::vector<std::size_t> shape;
    shape.reserve(buffer.shape.size());
    const std::size_t elem = dtype_size(buffer.type);
    std::size_t total = elem;
    for (std::size_t i = 0; i < buffer.shape.size(); ++i) {
        const Location where{{}, buffer.json_path + ".shape[" + std::to_string(i) + "]", 0, 0};
        long long dim = 0;
        try {
            // Bounds are checked below so the message can name the buffer.
            dim = eval_int_expr(buffer.shape[i], vars, -(1ll << 53), 1ll << 53);
        } catch (const Error& e) {
            throw Error(ErrorKind::Expression, e.message(), where, e.hint(), e.code());
        }
        if (dim < 1)
            throw Error(ErrorKind::Expression,
                        "dimension " + std::to_string(i) + " of buffer '" + buffer.name + "' is " +
                            std::to_string(dim) + "; every dimension must be at least 1",
                        where,
                        buffer.shape[i] == std::to_string(dim)
                            ? std::string()
                            : "check the case's params: '" + buffer.shape[i] + "' evaluated to " + std::to_string(dim));
        if (std::size_t(dim) > kMaxBufferBytes / total)
            throw Error(ErrorKind::Expression,
                        "buffer '" + buffer.name + "' would be larger than 4 GiB (dimension " + std::to_string(i) +
                            " is " + std::to_string(dim) + ")",
                        where, "a shape like N*N where N was meant is the usual cause");
        total *= std::size_t(dim);
        shape.push_back(std::size_t(dim));
    }
    return shape;
}

HostBuffer make_buffer(const Buffer& spec, const ExprVars& vars) {
    HostBuffer buf;
    buf.name = spec.name;
    buf.type = spec.type;
    buf.role = spec.role;
    buf.shape = eval_shape(spec, vars);
    buf.bytes = Bytes(buf.count() * dtype_size(spec.type));

    const BufferInit& init = spec.init;
    switch (init.kind) {
    case InitKind::Zero: break;
    case InitKind::Constant: {
        const double value = init.value;
        if (value != 0 || std::signbit(value)) fill_each(buf, [=](std::size_t) { return value; });
        break;
    }
    case InitKind::Ramp: {
        const double start = init.start, step = init.step;
        fill_each(buf, [=](std::size_t i) { return start + double(i) * step; });
        break;
    }
    case InitKind::Uniform: fill_uniform(buf, spec); break;
    case InitKind::Normal: fill_normal(buf, spec); break;
    case InitKind::Identity: {
        if (buf.shape.size() != 2)
            throw Error(ErrorKind::Lesson,
                        "identity init needs a 2-D buffer, but '" + spec.name + "' has shape " +
                            shape_string(buf.shape),
                        init_location(spec));
        // Ones where row == column; a non-square matrix gets ones on its leading diagonal.
        const std::size_t rows = buf.shape[0], cols = buf.shape[1];
        for (std::size_t r = 0; r < rows && r < cols; ++r) buf.set(r * cols + r, 1.0);
        break;
    }
    case InitKind::Image:
        try {
            fill_from_image(buf, init);
        } catch (const Error& e) {
            // fill_from_image names the image; add where in the lesson it was asked for.
            Location where = e.where();
            if (where.json_path.empty()) where.json_path = spec.json_path + ".init";
            throw Error(e.kind(), e.message(), where, e.hint(), e.code());
        }
        break;
    }
    return buf;
}

const HostBuffer* find_in(const std::vector<HostBuffer>& v, const std::string& name) {
    for (const auto& h : v)
        if (h.name == name) return &h;
    return nullptr;
}

std::size_t buffer_index(const std::vector<HostBuffer>& v, const std::string& name) {
    for (std::size_t i = 0; i < v.size(); ++i)
        if (v[i].name == name) return i;
    throw Error(ErrorKind::Internal, "no buffer '" + name + "'");
}

std::uint64_t bytes_of(const std::vector<HostBuffer>& v) {
    std::uint64_t bytes = 0;
    for (const auto& h : v) bytes += h.size_bytes();
    return bytes;
}

}  // namespace wb
