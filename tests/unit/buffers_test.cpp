// tests/unit/buffers_test.cpp — host buffers: shapes from expressions (and the
// errors a student sees for bad ones), element conversion, every init kind,
// and image init from the PNG in tests/data/images/ (made by
// make_test_images.py there; pixel (x, y) = R 20+40x, G 30+60y, B 7+50x+10y).
//
// The random inits are pinned to exact first values computed by
// tests/tools/buffer_init_values.py, a Python SplitMix64 and the documented
// transforms that shares no code with runtime/data/buffers.cpp; its --check
// mode (ctest tools.buffer_init_values_match_python) fails when the values
// here and the script's disagree. Any change to the generator or its
// transforms fails here before it silently changes lessons.
#include "core/error.hpp"
#include "compare/compare.hpp"
#include "data/buffers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <unistd.h>

namespace {

using wb::Buffer;
using wb::DType;
using wb::ErrorKind;
using wb::HostBuffer;
using wb::InitKind;

const std::filesystem::path kImages = std::filesystem::path(WB_SOURCE_DIR) / "tests/data/images";

Buffer spec(std::string name, DType type, std::vector<std::string> shape, std::string json_path = "buffers[0]") {
    Buffer b;
    b.name = std::move(name);
    b.type = type;
    b.shape = std::move(shape);
    b.json_path = std::move(json_path);
    return b;
}

// Runs `fn`, expects a wb::Error, and returns it for inspection.
template <typename Fn>
wb::Error expect_error(Fn fn) {
    try {
        fn();
    } catch (const wb::Error& e) {
        return e;
    }
    ADD_FAILURE() << "expected a wb::Error";
    return wb::Error(ErrorKind::Internal, "no error thrown");
}

// --- shapes -------------------------------------------------------------------

TEST(BufferShape, EvaluatesEachDimensionOverTheCaseParams) {
    Buffer b = spec("a", DType::F32, {"N", "M*2", "ceil_div(N, 2)"});
    const auto shape = wb::eval_shape(b, {{"N", 3}, {"M", 4}});
    EXPECT_EQ(shape, (std::vector<std::size_t>{3, 8, 2}));

    HostBuffer h = wb::make_buffer(b, {{"N", 3}, {"M", 4}});
    EXPECT_EQ(h.count(), 48u);
    EXPECT_EQ(h.size_bytes(), 48u * 4);
    EXPECT_EQ(h.name, "a");
}

TEST(BufferShape, EmptyShapeIsAScalarOfOneElement) {
    HostBuffer h = wb::make_buffer(spec("s", DType::F64, {}), {});
    EXPECT_TRUE(h.shape.empty());
    EXPECT_EQ(h.count(), 1u);
    EXPECT_EQ(h.size_bytes(), 8u);
    EXPECT_TRUE(h.unflatten(0).empty());
}

TEST(BufferShape, ZeroDimensionIsRefusedWithBufferNameAndJsonPath) {
    Buffer b = spec("x", DType::F32, {"N", "M-4"}, "steps[1].buffers[2]");
    wb::Error e = expect_error([&] { wb::eval_shape(b, {{"N", 3}, {"M", 4}}); });
    EXPECT_EQ(e.kind(), ErrorKind::Expression);
    EXPECT_EQ(e.where().json_path, "steps[1].buffers[2].shape[1]");
    EXPECT_EQ(e.message(), "dimension 1 of buffer 'x' is 0; every dimension must be at least 1");
}

TEST(BufferShape, NegativeDimensionIsRefused) {
    Buffer b = spec("x", DType::F32, {"N-5"});
    wb::Error e = expect_error([&] { wb::eval_shape(b, {{"N", 3}}); });
    EXPECT_EQ(e.where().json_path, "buffers[0].shape[0]");
    EXPECT_NE(e.message().find("is -2"), std::string::npos) << e.message();
}

TEST(BufferShape, UnknownParameterErrorCarriesTheDimensionsJsonPath) {
    Buffer b = spec("x", DType::F32, {"N", "K"}, "steps[1].buffers[2]");
    wb::Error e = expect_error([&] { wb::make_buffer(b, {{"N", 3}}); });
    EXPECT_EQ(e.kind(), ErrorKind::Expression);
    EXPECT_EQ(e.where().json_path, "steps[1].buffers[2].shape[1]");
    EXPECT_NE(e.message().find("unknown parameter 'K'"), std::string::npos) << e.message();
    EXPECT_NE(std::string(e.what()).find("steps[1].buffers[2].shape[1]: "), std::string::npos) << e.what();
}

TEST(BufferShape, FractionalDimensionIsRefused) {
    Buffer b = spec("x", DType::F32, {"N/2"});
    wb::Error e = expect_error([&] { wb::eval_shape(b, {{"N", 5}}); });
    EXPECT_EQ(e.where().json_path, "buffers[0].shape[0]");
    EXPECT_NE(e.message().find("whole number"), std::string::npos) << e.message();
}

TEST(BufferShape, BufferOverFourGibibytesIsRefusedBeforeAllocating) {
    Buffer b = spec("big", DType::F32, {"N", "N"});
    wb::Error e = expect_error([&] { wb::make_buffer(b, {{"N", 100000}}); });  // 40 GB
    EXPECT_EQ(e.kind(), ErrorKind::Expression);
    EXPECT_EQ(e.where().json_path, "buffers[0].shape[1]");
    EXPECT_NE(e.message().find("larger than 4 GiB"), std::string::npos) << e.message();

    // Products that overflow 64 bits are caught too, not wrapped around.
    Buffer huge = spec("huge", DType::U8, {"N", "N", "N", "N"});
    EXPECT_THROW(wb::eval_shape(huge, {{"N", 1e6}}), wb::Error);
}

// --- elements -----------------------------------------------------------------

TEST(BufferElements, IntegerSetRoundsAndSaturates) {
    HostBuffer u8 = wb::make_buffer(spec("u", DType::U8, {"6"}), {});
    const double in[] = {300, -5, 2.5, 2.4, 254.6, std::numeric_limits<double>::quiet_NaN()};
    const double out[] = {255, 0, 3, 2, 255, 0};
    for (int i = 0; i < 6; ++i) u8.set(i, in[i]);
    for (int i = 0; i < 6; ++i) EXPECT_EQ(u8.get(i), out[i]) << "u8 element " << i;

    HostBuffer i32 = wb::make_buffer(spec("i", DType::I32, {"3"}), {});
    i32.set(0, 3e9);
    i32.set(1, -3e9);
    i32.set(2, -2.5);
    EXPECT_EQ(i32.get(0), 2147483647.0);
    EXPECT_EQ(i32.get(1), -2147483648.0);
    EXPECT_EQ(i32.get(2), -3.0);  // half away from zero

    HostBuffer u32 = wb::make_buffer(spec("w", DType::U32, {"2"}), {});
    u32.set(0, -1);
    u32.set(1, 5e9);
    EXPECT_EQ(u32.get(0), 0.0);
    EXPECT_EQ(u32.get(1), 4294967295.0);
}

TEST(BufferElements, FloatsStoreInTheirOwnPrecision) {
    HostBuffer f = wb::make_buffer(spec("f", DType::F32, {"1"}), {});
    f.set(0, 0.1);
    EXPECT_EQ(f.get(0), double(0.1f));
    HostBuffer d = wb::make_buffer(spec("d", DType::F64, {"1"}), {});
    d.set(0, 0.1);
    EXPECT_EQ(d.get(0), 0.1);
}

TEST(BufferElements, UnflattenIsRowMajorOutermostFirst) {
    HostBuffer h = wb::make_buffer(spec("t", DType::U8, {"2", "3", "4"}), {});
    EXPECT_EQ(h.unflatten(0), (std::vector<std::size_t>{0, 0, 0}));
    EXPECT_EQ(h.unflatten(5), (std::vector<std::size_t>{0, 1, 1}));
    EXPECT_EQ(h.unflatten(23), (std::vector<std::size_t>{1, 2, 3}));
}

TEST(BufferElements, AccessPastTheEndThrowsInsteadOfCorruptingMemory) {
    HostBuffer h = wb::make_buffer(spec("t", DType::F32, {"4"}), {});
    EXPECT_THROW(h.get(4), wb::Error);
    EXPECT_THROW(h.set(4, 1.0), wb::Error);
}

// --- init kinds ---------------------------------------------------------------

TEST(BufferInit, DefaultIsZeros) {
    HostBuffer h = wb::make_buffer(spec("z", DType::F32, {"16"}), {});
    for (std::size_t i = 0; i < h.count(); ++i) ASSERT_EQ(h.get(i), 0.0);
}

TEST(BufferInit, ConstantFillsEveryElement) {
    Buffer b = spec("c", DType::I32, {"2", "5"});
    b.init.kind = InitKind::Constant;
    b.init.value = -7;
    HostBuffer h = wb::make_buffer(b, {});
    for (std::size_t i = 0; i < h.count(); ++i) ASSERT_EQ(h.get(i), -7.0);
}

TEST(BufferInit, RampFollowsTheFlatIndex) {
    Buffer b = spec("r", DType::F32, {"2", "3"});
    b.init.kind = InitKind::Ramp;
    b.init.start = 1;
    b.init.step = 0.5;
    HostBuffer h = wb::make_buffer(b, {});
    for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(h.get(i), 1 + 0.5 * i);

    // Integer ramps are rounded and saturated like any other set().
    Buffer u = spec("u", DType::U8, {"5"});
    u.init.kind = InitKind::Ramp;
    u.init.start = 250;
    u.init.step = 2.5;
    HostBuffer hu = wb::make_buffer(u, {});
    const double want[] = {250, 253, 255, 255, 255};  // 252.5 rounds up, then clamps
    for (int i = 0; i < 5; ++i) EXPECT_EQ(hu.get(i), want[i]) << i;
}

TEST(BufferInit, UniformFloatFirstValuesArePinned) {
    Buffer b = spec("a", DType::F32, {"4"});
    b.init.kind = InitKind::Uniform;
    b.init.min = -1;
    b.init.max = 1;
    b.init.seed = 42;
    HostBuffer h = wb::make_buffer(b, {});
    EXPECT_EQ(h.get(0), double(0.4831297695636749f));
    EXPECT_EQ(h.get(1), double(-0.680179238319397f));
    EXPECT_EQ(h.get(2), double(-0.4427977502346039f));
    EXPECT_EQ(h.get(3), double(-0.3116185665130615f));

    b.type = DType::F64;
    HostBuffer d = wb::make_buffer(b, {});
    EXPECT_EQ(d.get(0), 0.4831297575436466);
    EXPECT_EQ(d.get(1), -0.6801792142461598);
    EXPECT_EQ(d.get(2), -0.4427977394897227);
    EXPECT_EQ(d.get(3), -0.31161856695272494);
}

TEST(BufferInit, UniformStaysInRangeAndRepeatsForTheSameSeed) {
    Buffer b = spec("a", DType::F32, {"N"});
    b.init.kind = InitKind::Uniform;
    b.init.min = 2;
    b.init.max = 5;
    b.init.seed = 9;
    HostBuffer h = wb::make_buffer(b, {{"N", 100000}});
    double lo = 1e9, hi = -1e9, sum = 0;
    for (std::size_t i = 0; i < h.count(); ++i) {
        const double v = h.get(i);
        lo = std::min(lo, v), hi = std::max(hi, v), sum += v;
    }
    EXPECT_GE(lo, 2.0);
    EXPECT_LE(hi, 5.0);
    EXPECT_LT(lo, 2.001);  // the whole range is used
    EXPECT_GT(hi, 4.999);
    EXPECT_NEAR(sum / h.count(), 3.5, 0.02);

    EXPECT_EQ(wb::make_buffer(b, {{"N", 100000}}).bytes, h.bytes);
    b.init.seed = 10;
    EXPECT_NE(wb::make_buffer(b, {{"N", 100000}}).bytes, h.bytes);
}

TEST(BufferInit, UniformIntegersCoverBothEndsEvenly) {
    Buffer b = spec("h", DType::U8, {"N"});
    b.init.kind = InitKind::Uniform;
    b.init.min = 0;
    b.init.max = 255;
    b.init.seed = 7;
    HostBuffer h = wb::make_buffer(b, {{"N", 256000}});
    const double first[] = {99, 4, 230, 149, 115, 63, 119, 83};
    for (int i = 0; i < 8; ++i) EXPECT_EQ(h.get(i), first[i]) << i;
    std::vector<int> hist(256);
    for (std::size_t i = 0; i < h.count(); ++i) ++hist[std::size_t(h.get(i))];
    // 1000 expected per value; the ends are not half as likely as the middle.
    EXPECT_GT(hist[0], 850);
    EXPECT_GT(hist[255], 850);
    EXPECT_GT(hist[128], 850);
    EXPECT_LT(hist[0], 1150);
    EXPECT_LT(hist[255], 1150);
}

TEST(BufferInit, UniformWithMinAboveMaxIsALessonError) {
    Buffer b = spec("a", DType::F32, {"4"}, "steps[0].buffers[1]");
    b.init.kind = InitKind::Uniform;
    b.init.min = 1;
    b.init.max = 0;
    wb::Error e = expect_error([&] { wb::make_buffer(b, {}); });
    EXPECT_EQ(e.kind(), ErrorKind::Lesson);
    EXPECT_EQ(e.where().json_path, "steps[0].buffers[1].init");
}

TEST(BufferInit, NormalFirstValuesArePinned) {
    Buffer b = spec("n", DType::F64, {"5"});  // odd: the last pair is half used
    b.init.kind = InitKind::Normal;
    b.init.mean = 10;
    b.init.stddev = 2;
    b.init.seed = 3;
    HostBuffer h = wb::make_buffer(b, {});
    // Box-Muller goes through libm's log/cos/sin; allow their last-bit differences.
    EXPECT_DOUBLE_EQ(h.get(0), 8.717896860947524);
    EXPECT_DOUBLE_EQ(h.get(1), 6.029190011781308);
    EXPECT_DOUBLE_EQ(h.get(2), 11.77496177171281);
    EXPECT_DOUBLE_EQ(h.get(3), 10.87462212833351);
    EXPECT_TRUE(std::isfinite(h.get(4)));
}

TEST(BufferInit, NormalHasTheRequestedMeanAndStddev) {
    Buffer b = spec("n", DType::F32, {"N"});
    b.init.kind = InitKind::Normal;
    b.init.mean = 10;
    b.init.stddev = 2;
    b.init.seed = 123;
    HostBuffer h = wb::make_buffer(b, {{"N", 100000}});
    double sum = 0, sq = 0;
    for (std::size_t i = 0; i < h.count(); ++i) {
        const double v = h.get(i);
        ASSERT_TRUE(std::isfinite(v)) << i;
        sum += v, sq += v * v;
    }
    const double mean = sum / h.count();
    const double sd = std::sqrt(sq / h.count() - mean * mean);
    EXPECT_NEAR(mean, 10.0, 0.05);  // standard error is 0.006
    EXPECT_NEAR(sd, 2.0, 0.05);
    EXPECT_EQ(wb::make_buffer(b, {{"N", 100000}}).bytes, h.bytes);
}

TEST(BufferInit, IdentityPutsOnesOnTheDiagonal) {
    Buffer b = spec("I", DType::F32, {"3", "4"});
    b.init.kind = InitKind::Identity;
    HostBuffer h = wb::make_buffer(b, {});
    for (std::size_t r = 0; r < 3; ++r)
        for (std::size_t c = 0; c < 4; ++c) EXPECT_EQ(h.get(r * 4 + c), r == c ? 1.0 : 0.0) << r << "," << c;
}

TEST(BufferInit, IdentityOnAVectorIsALessonError) {
    Buffer b = spec("v", DType::F32, {"4"}, "steps[2].buffers[0]");
    b.init.kind = InitKind::Identity;
    wb::Error e = expect_error([&] { wb::make_buffer(b, {}); });
    EXPECT_EQ(e.kind(), ErrorKind::Lesson);
    EXPECT_EQ(e.where().json_path, "steps[2].buffers[0].init");
    EXPECT_NE(e.message().find("2-D"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("[4]"), std::string::npos) << e.message();
}

// --- images -------------------------------------------------------------------

Buffer image_spec(DType type, std::vector<std::string> shape, wb::ImageLayout layout, wb::ImageChannels channels,
                  std::string file = "rgb_4x3.png") {
    Buffer b = spec("rgb", type, std::move(shape));
    b.init.kind = InitKind::Image;
    b.init.image = kImages / file;
    b.init.image_name = file;
    b.init.layout = layout;
    b.init.channels = channels;
    return b;
}

double px_r(double x) { return 20 + 40 * x; }
double px_g(double y) { return 30 + 60 * y; }
double px_b(double x, double y) { return 7 + 50 * x + 10 * y; }

TEST(ImageInit, HwcRgbAtTheImagesOwnSizeIsExact) {
    HostBuffer h = wb::make_buffer(
        image_spec(DType::U8, {"3", "4", "3"}, wb::ImageLayout::HWC, wb::ImageChannels::RGB), {});
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 4; ++x) {
            const std::size_t p = (y * 4 + x) * 3;
            EXPECT_EQ(h.get(p + 0), px_r(x)) << x << "," << y;
            EXPECT_EQ(h.get(p + 1), px_g(y)) << x << "," << y;
            EXPECT_EQ(h.get(p + 2), px_b(x, y)) << x << "," << y;
        }
}

TEST(ImageInit, ChwRgbPutsEachChannelInItsOwnPlane) {
    HostBuffer h = wb::make_buffer(
        image_spec(DType::F32, {"3", "3", "4"}, wb::ImageLayout::CHW, wb::ImageChannels::RGB), {});
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 4; ++x) {
            EXPECT_EQ(h.get(0 * 12 + y * 4 + x), px_r(x));
            EXPECT_EQ(h.get(1 * 12 + y * 4 + x), px_g(y));
            EXPECT_EQ(h.get(2 * 12 + y * 4 + x), px_b(x, y));
        }
}

TEST(ImageInit, GrayUsesRoundedLumaWeights) {
    // 0.21 R + 0.72 G + 0.07 B, rounded, worked out by hand for each pixel.
    const double want[3][4] = {{26, 38, 50, 62}, {70, 82, 94, 106}, {114, 126, 138, 150}};
    HostBuffer h = wb::make_buffer(image_spec(DType::U8, {"3", "4"}, wb::ImageLayout::HWC, wb::ImageChannels::Gray), {});
    HostBuffer f = wb::make_buffer(
        image_spec(DType::F32, {"3", "4", "1"}, wb::ImageLayout::HWC, wb::ImageChannels::Gray), {});
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 4; ++x) {
            EXPECT_EQ(h.get(y * 4 + x), want[y][x]) << x << "," << y;
            EXPECT_EQ(f.get(y * 4 + x), want[y][x]) << x << "," << y;
        }
}

TEST(ImageInit, UpsamplingIsBilinearWithHalfPixelCentres) {
    // The test image is linear in x and y, so bilinear resampling reproduces
    // the same linear function at each destination centre, clamped at the edges.
    HostBuffer h = wb::make_buffer(
        image_spec(DType::F64, {"H", "W", "3"}, wb::ImageLayout::HWC, wb::ImageChannels::RGB), {{"H", 6}, {"W", 8}});
    for (int y = 0; y < 6; ++y)
        for (int x = 0; x < 8; ++x) {
            const double sx = std::clamp((x + 0.5) * 4 / 8 - 0.5, 0.0, 3.0);
            const double sy = std::clamp((y + 0.5) * 3 / 6 - 0.5, 0.0, 2.0);
            const std::size_t p = (y * 8 + x) * 3;
            EXPECT_NEAR(h.get(p + 0), px_r(sx), 1e-9) << x << "," << y;
            EXPECT_NEAR(h.get(p + 1), px_g(sy), 1e-9) << x << "," << y;
            EXPECT_NEAR(h.get(p + 2), px_b(sx, sy), 1e-9) << x << "," << y;
        }
    EXPECT_EQ(h.get(3), px_r(0.25));  // (1, 0): a quarter of the way to the next pixel
}

TEST(ImageInit, DownsamplingToTwoByOneAveragesNeighbours) {
    HostBuffer h = wb::make_buffer(
        image_spec(DType::U8, {"3", "1", "2"}, wb::ImageLayout::CHW, wb::ImageChannels::RGB), {});
    // Source centres: x = 0.5 and 2.5 (halfway between pixels), y = 1 (the middle row).
    EXPECT_EQ(h.get(0), 40);
    EXPECT_EQ(h.get(1), 120);
    EXPECT_EQ(h.get(2), 90);
    EXPECT_EQ(h.get(3), 90);
    EXPECT_EQ(h.get(4), 42);
    EXPECT_EQ(h.get(5), 142);
}

TEST(ImageInit, ShapeThatDoesNotFitTheLayoutNamesBothAndTheImage) {
    Buffer b = image_spec(DType::U8, {"300", "451"}, wb::ImageLayout::CHW, wb::ImageChannels::RGB);
    b.json_path = "steps[0].buffers[0]";
    wb::Error e = expect_error([&] { wb::make_buffer(b, {}); });
    EXPECT_EQ(e.kind(), ErrorKind::Lesson);
    EXPECT_EQ(e.where().json_path, "steps[0].buffers[0].init");
    EXPECT_NE(e.message().find("buffer 'rgb' has shape [300,451]; layout CHW rgb needs [3,H,W]"), std::string::npos)
        << e.message();
    EXPECT_NE(e.message().find("rgb_4x3.png"), std::string::npos) << e.message();

    Buffer hwc = image_spec(DType::U8, {"3", "4", "4"}, wb::ImageLayout::HWC, wb::ImageChannels::RGB);
    wb::Error e2 = expect_error([&] { wb::make_buffer(hwc, {}); });
    EXPECT_NE(e2.message().find("needs [H,W,3]"), std::string::npos) << e2.message();
}

TEST(ImageInit, MissingImageIsAnIoErrorNamingTheFile) {
    Buffer b = image_spec(DType::U8, {"3", "4", "3"}, wb::ImageLayout::HWC, wb::ImageChannels::RGB, "no_such_cat.png");
    wb::Error e = expect_error([&] { wb::make_buffer(b, {}); });
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    EXPECT_NE(e.message().find("'no_such_cat.png' not found"), std::string::npos) << e.message();
    EXPECT_EQ(e.where().json_path, "buffers[0].init");
}

TEST(ImageInit, UndecodableImageSaysWhyAndNamesTheFile) {
    char tmpl[] = "/tmp/wb_image_test_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    const std::filesystem::path dir = tmpl;
    const std::filesystem::path bad = dir / "notes.png";
    std::ofstream(bad) << "this is not a picture, just text that happens to end in .png\n";

    Buffer b = image_spec(DType::U8, {"3", "4", "3"}, wb::ImageLayout::HWC, wb::ImageChannels::RGB);
    b.init.image = bad;
    b.init.image_name = "notes.png";
    wb::Error e = expect_error([&] { wb::make_buffer(b, {}); });
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    EXPECT_NE(e.message().find("could not decode image 'notes.png': "), std::string::npos) << e.message();
    std::filesystem::remove_all(dir);
}

}  // namespace

namespace {

HostBuffer ramp(DType type, std::vector<std::size_t> shape) {
    HostBuffer b;
    b.name = "b";
    b.type = type;
    b.shape = std::move(shape);
    b.bytes = wb::Bytes(b.count() * wb::dtype_size(type));
    for (std::size_t i = 0; i < b.count(); ++i) b.set(i, double(i % 1000003));
    return b;
}

}  // namespace

TEST(SampleBuffer, ABufferThatFitsComesBackWhole) {
    HostBuffer b = ramp(DType::F32, {1000});
    HostBuffer s = wb::sample_buffer(b, 1000);
    EXPECT_FALSE(s.sample_of);
    EXPECT_TRUE(s.bytes.shares_block_with(b.bytes));
    EXPECT_EQ(s.full_flat(7), 7u);
    EXPECT_EQ(s.full_count(), 1000u);
}

TEST(SampleBuffer, AVectorIsEveryKthElementWithTheSmallestKThatFits) {
    HostBuffer b = ramp(DType::F32, {10000001});
    HostBuffer s = wb::sample_buffer(b, 4000000);
    ASSERT_TRUE(s.sample_of);
    EXPECT_EQ(s.sample_of->step, (std::vector<std::size_t>{3}));  // 2 would give 5,000,001 elements
    EXPECT_EQ(s.shape, (std::vector<std::size_t>{3333334}));
    EXPECT_EQ(s.full_shape(), b.shape);
    EXPECT_EQ(s.full_count(), 10000001u);
    for (std::size_t i : {std::size_t(0), std::size_t(1), std::size_t(12345), s.count() - 1}) {
        EXPECT_EQ(s.full_flat(i), 3 * i);
        EXPECT_EQ(s.get(i), b.get(3 * i)) << i;
    }
}

TEST(SampleBuffer, AnImageKeepsItsChannelsFirstOrLast) {
    HostBuffer hwc = ramp(DType::U8, {3000, 4000, 3});
    HostBuffer s = wb::sample_buffer(hwc, 1 << 20);
    ASSERT_TRUE(s.sample_of);
    const std::size_t k = s.sample_of->step[0];
    EXPECT_EQ(s.sample_of->step, (std::vector<std::size_t>{k, k, 1}));
    EXPECT_EQ(s.shape[2], 3u);
    EXPECT_LE(s.count(), std::size_t(1) << 20);
    // Pixel (x 5, y 7), green: row 7k, column 5k of the whole.
    const std::size_t flat = (7 * s.shape[1] + 5) * 3 + 1;
    EXPECT_EQ(s.full_flat(flat), (7 * k * 4000 + 5 * k) * 3 + 1);
    EXPECT_EQ(s.get(flat), hwc.get(s.full_flat(flat)));

    HostBuffer chw = ramp(DType::F32, {3, 3000, 4000});
    HostBuffer c = wb::sample_buffer(chw, 1 << 20);
    ASSERT_TRUE(c.sample_of);
    EXPECT_EQ(c.sample_of->step[0], 1u);
    EXPECT_EQ(c.shape[0], 3u);
}

TEST(SampleBuffer, ACellIsOutlinedWhenAnyElementItStandsForFailed) {
    HostBuffer whole = ramp(DType::F32, {1000, 1000});
    HostBuffer s = wb::sample_buffer(whole, 100000);  // every 4th row and column: 250 x 250
    ASSERT_TRUE(s.sample_of);
    ASSERT_EQ(s.sample_of->step, (std::vector<std::size_t>{4, 4}));
    wb::CompareResult r;
    r.count = whole.count();
    r.mismatch_runs = {{1001 * 7, 1}, {998 * 1000 + 995, 10}};  // (7, 7) alone; row 998 from 995 into row 999
    const std::vector<std::uint8_t> mask = wb::mismatch_mask(r, s);
    ASSERT_EQ(mask.size(), s.count());
    std::vector<std::size_t> marked;
    for (std::size_t i = 0; i < mask.size(); ++i)
        if (mask[i]) marked.push_back(i);
    // (7, 7) is in cell (1, 1); row 998 columns 995..999 are cells (249, 248) and (249, 249);
    // row 999 columns 0..4 are cells (249, 0) and (249, 1).
    EXPECT_EQ(marked, (std::vector<std::size_t>{251, 249 * 250 + 0, 249 * 250 + 1, 249 * 250 + 248, 249 * 250 + 249}));
    EXPECT_EQ(wb::mismatch_mask(r, whole), wb::mismatch_mask(r, whole.count()));
}
