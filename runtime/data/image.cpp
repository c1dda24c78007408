// runtime/data/image.cpp — "init": {"kind": "image"}: decode a picture and
// resample it into a buffer of the lesson's shape.
//
// stb_image is compiled into this one translation unit (STB_IMAGE_STATIC), so
// the program does not need libstb at run time. Only PNG, JPEG and BMP are
// enabled: TGA has no signature, and stb would "decode" a text file as one.
// The image is always decoded as 8-bit RGB; gray is made from it with integer
// weights 0.21 R + 0.72 G + 0.07 B (rounded), so a gray u8 buffer holds what
// any image tool would show. Resampling is bilinear with pixel centres at
// +0.5, which leaves an image of the same size unchanged, value for value.
#include "data/buffers.hpp"

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "core/fs.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STBI_NO_STDIO  // the file is read by wb::read_file, which caps its size and names it in errors
#include <stb_image.h>
#pragma GCC diagnostic pop

namespace wb {

namespace {

// Decoded pixels above this (about 8k x 8k) are refused before allocating;
// lesson images are small, and a huge one is a mistake.
constexpr long long kMaxImagePixels = 64ll << 20;

struct StbiFree {
    void operator()(stbi_uc* p) const { stbi_image_free(p); }
};
using StbiPixels = std::unique_ptr<stbi_uc, StbiFree>;

// Where destination pixel i samples the source: two neighbours and the weight
// of the second. Half-pixel centres: dst centre (i + 0.5) maps to src
// (i + 0.5) * src / dst, then back to a pixel index by subtracting 0.5.
struct Tap {
    int i0 = 0, i1 = 0;
    double w1 = 0;
};

std::vector<Tap> make_taps(int src, std::size_t dst) {
    std::vector<Tap> taps(dst);
    const double scale = double(src) / double(dst);
    for (std::size_t i = 0; i < dst; ++i) {
        double s = (double(i) + 0.5) * scale - 0.5;
        s = std::clamp(s, 0.0, double(src - 1));
        Tap t;
        t.i0 = int(std::floor(s));
        t.i1 = std::min(t.i0 + 1, src - 1);
        t.w1 = s - t.i0;
        taps[i] = t;
    }
    return taps;
}

}  // namespace

void fill_from_image(HostBuffer& out, const BufferInit& init) {
    const std::string label = init.image_name.empty() ? init.image.filename().string() : init.image_name;
    const bool gray = init.channels == ImageChannels::Gray;
    const bool chw = init.layout == ImageLayout::CHW;
    const auto& shape = out.shape;

    // Height and width from the buffer's shape, per layout. Gray also accepts an
    // explicit channel dimension of 1 ([H,W,1] or [1,H,W]).
    std::size_t height = 0, width = 0;
    std::string needs;
    if (gray) {
        if (shape.size() == 2) {
            height = shape[0], width = shape[1];
        } else if (shape.size() == 3 && !chw && shape[2] == 1) {
            height = shape[0], width = shape[1];
        } else if (shape.size() == 3 && chw && shape[0] == 1) {
            height = shape[1], width = shape[2];
        }
        needs = chw ? "[H,W] or [1,H,W]" : "[H,W] or [H,W,1]";
    } else if (shape.size() == 3 && !chw && shape[2] == 3) {
        height = shape[0], width = shape[1];
    } else if (shape.size() == 3 && chw && shape[0] == 3) {
        height = shape[1], width = shape[2];
    }
    if (!gray) needs = chw ? "[3,H,W]" : "[H,W,3]";
    if (height == 0 || width == 0)
        throw Error(ErrorKind::Lesson,
                    "buffer '" + out.name + "' has shape " + shape_string(shape) + "; layout " +
                        (chw ? "CHW " : "HWC ") + (gray ? "gray" : "rgb") + " needs " + needs +
                        " (image '" + label + "')",
                    {}, "change the buffer's shape or the init's \"layout\"/\"channels\"");
    if (out.bytes.size() != out.count() * dtype_size(out.type))
        throw Error(ErrorKind::Internal, "buffer '" + out.name + "' is not allocated for its shape");

    std::error_code ec;
    if (!std::filesystem::is_regular_file(init.image, ec))
        throw Error(ErrorKind::Io, "image '" + label + "' not found (looked for " + init.image.string() + ")", {},
                    "image files live in the assets/ folder");
    const std::string file = read_file(init.image);

    int w = 0, h = 0, n = 0;
    if (!stbi_info_from_memory(reinterpret_cast<const stbi_uc*>(file.data()), int(file.size()), &w, &h, &n))
        throw Error(ErrorKind::Io, "could not decode image '" + label + "': " + stbi_failure_reason(), {},
                    "use a PNG, JPEG or BMP file");
    if (w <= 0 || h <= 0 || (long long)w * h > kMaxImagePixels)
        throw Error(ErrorKind::Io, "image '" + label + "' is " + std::to_string(w) + "x" + std::to_string(h) +
                                       " pixels; the limit is " + std::to_string(kMaxImagePixels) + " pixels");
    StbiPixels pixels(
        stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(file.data()), int(file.size()), &w, &h, &n, 3));
    if (!pixels)
        throw Error(ErrorKind::Io, "could not decode image '" + label + "': " + stbi_failure_reason(), {},
                    "use a PNG, JPEG or BMP file");

    // Source planes as doubles, one per output channel.
    const std::size_t src_pixels = std::size_t(w) * std::size_t(h);
    const int planes = gray ? 1 : 3;
    std::vector<double> src(src_pixels * planes);
    const stbi_uc* px = pixels.get();
    for (std::size_t i = 0; i < src_pixels; ++i) {
        const int r = px[3 * i], g = px[3 * i + 1], b = px[3 * i + 2];
        if (gray) {
            src[i] = double((21 * r + 72 * g + 7 * b + 50) / 100);  // rounded, in integers: exact everywhere
        } else {
            src[i] = r;
            src[src_pixels + i] = g;
            src[2 * src_pixels + i] = b;
        }
    }

    const std::vector<Tap> xs = make_taps(w, width);
    const std::vector<Tap> ys = make_taps(h, height);
    std::byte* base = out.bytes.mutable_data();
    const std::size_t size = dtype_size(out.type);
    for (int c = 0; c < planes; ++c) {
        const double* plane = src.data() + std::size_t(c) * src_pixels;
        parallel_for(height, [&](std::size_t, std::size_t y_begin, std::size_t y_end) {
            for (std::size_t y = y_begin; y < y_end; ++y) {
                const Tap ty = ys[y];
                const double* row0 = plane + std::size_t(ty.i0) * w;
                const double* row1 = plane + std::size_t(ty.i1) * w;
                for (std::size_t x = 0; x < width; ++x) {
                    const Tap tx = xs[x];
                    const double top = (1 - tx.w1) * row0[tx.i0] + tx.w1 * row0[tx.i1];
                    const double bottom = (1 - tx.w1) * row1[tx.i0] + tx.w1 * row1[tx.i1];
                    const double v = (1 - ty.w1) * top + ty.w1 * bottom;
                    std::size_t flat;
                    if (gray)
                        flat = y * width + x;  // the optional channel dimension of 1 does not move anything
                    else if (chw)
                        flat = (std::size_t(c) * height + y) * width + x;
                    else
                        flat = (y * width + x) * 3 + std::size_t(c);
                    store_value(out.type, base + flat * size, v);  // u8: rounded; floats: 0..255 as computed
                }
            }
        }, width);
    }
}

}  // namespace wb
