// tests/app/buffer_view_test.cpp — result views: exact pixels from buffers, colour maps, difference
// marking, hover text, zoom about the mouse, shader files, and headless drawing of every view.
#include "widgets/buffer_view.hpp"

#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace wb::app {
namespace {

HostBuffer make(DType type, std::vector<std::size_t> shape, const std::vector<double>& values) {
    HostBuffer b;
    b.name = "b";
    b.type = type;
    b.shape = std::move(shape);
    b.bytes = wb::Bytes(b.count() * dtype_size(type));
    for (std::size_t i = 0; i < values.size(); ++i) b.set(i, values[i]);
    return b;
}

std::array<uint8_t, 4> pixel(const std::vector<uint8_t>& rgba, std::size_t i) {
    return {rgba[i * 4], rgba[i * 4 + 1], rgba[i * 4 + 2], rgba[i * 4 + 3]};
}

TEST(BufferView, GrayU8ImageGivesExactGrayPixels) {
    const HostBuffer b = make(DType::U8, {2, 2}, {0, 64, 128, 255});
    const auto rgba = to_rgba(b, ViewMode::ImageGray, ColorMap::Viridis, 0, 255);
    ASSERT_EQ(rgba.size(), 16u);
    EXPECT_EQ(pixel(rgba, 0), (std::array<uint8_t, 4>{0, 0, 0, 255}));
    EXPECT_EQ(pixel(rgba, 1), (std::array<uint8_t, 4>{64, 64, 64, 255}));
    EXPECT_EQ(pixel(rgba, 2), (std::array<uint8_t, 4>{128, 128, 128, 255}));
    EXPECT_EQ(pixel(rgba, 3), (std::array<uint8_t, 4>{255, 255, 255, 255}));
}

TEST(BufferView, HwcImageReadsInterleavedChannels) {
    // [H=1, W=2, 3]: red then blue.
    const HostBuffer b = make(DType::U8, {1, 2, 3}, {255, 0, 0, 0, 0, 255});
    EXPECT_EQ(resolve_view_mode(b, ViewMode::Auto), ViewMode::ImageHWC);
    const ImageSize s = view_size(b, ViewMode::Auto);
    EXPECT_EQ(s.width, 2);
    EXPECT_EQ(s.height, 1);
    const auto rgba = to_rgba(b, ViewMode::Auto, ColorMap::Viridis, 0, 255);
    ASSERT_EQ(rgba.size(), 8u);
    EXPECT_EQ(pixel(rgba, 0), (std::array<uint8_t, 4>{255, 0, 0, 255}));
    EXPECT_EQ(pixel(rgba, 1), (std::array<uint8_t, 4>{0, 0, 255, 255}));
}

TEST(BufferView, ChwImageReadsPlanes) {
    // [3, H=1, W=2]: R plane {10, 20}, G plane {30, 40}, B plane {50, 60}; float 0..255 works too.
    const HostBuffer b = make(DType::F32, {3, 1, 2}, {10, 20, 30, 40, 50, 60});
    EXPECT_EQ(resolve_view_mode(b, ViewMode::Auto), ViewMode::ImageCHW);
    const auto rgba = to_rgba(b, ViewMode::Auto, ColorMap::Viridis, 0, 255);
    ASSERT_EQ(rgba.size(), 8u);
    EXPECT_EQ(pixel(rgba, 0), (std::array<uint8_t, 4>{10, 30, 50, 255}));
    EXPECT_EQ(pixel(rgba, 1), (std::array<uint8_t, 4>{20, 40, 60, 255}));
    EXPECT_EQ(value_text(b, ViewMode::Auto, 1, 0), "(20, 40, 60)");
}

TEST(BufferView, HeatMapEndsAreTheColourMapEnds) {
    const HostBuffer b = make(DType::F32, {1, 3}, {-1, 0.5, 2});
    const auto rgba = to_rgba(b, ViewMode::Heatmap, ColorMap::Viridis, -1, 2);
    ASSERT_EQ(rgba.size(), 12u);
    EXPECT_EQ(pixel(rgba, 0), colormap_rgba(ColorMap::Viridis, 0.0f));
    EXPECT_EQ(pixel(rgba, 2), colormap_rgba(ColorMap::Viridis, 1.0f));
    // viridis: dark purple at the low end, yellow at the high end.
    EXPECT_EQ(colormap_rgba(ColorMap::Viridis, 0.0f), (std::array<uint8_t, 4>{68, 1, 84, 255}));
    EXPECT_EQ(colormap_rgba(ColorMap::Viridis, 1.0f), (std::array<uint8_t, 4>{253, 231, 37, 255}));
    // Diverging: blue, near-white in the middle, red.
    const auto mid = colormap_rgba(ColorMap::Diverging, 0.5f);
    EXPECT_EQ(mid[0], mid[1]);
    EXPECT_GT(colormap_rgba(ColorMap::Diverging, 0.0f)[2], 150);
    EXPECT_GT(colormap_rgba(ColorMap::Diverging, 1.0f)[0], 150);
}

TEST(BufferView, NanShowsAsTheNanColour) {
    const HostBuffer b = make(DType::F32, {2}, {std::nan(""), 1});
    const auto rgba = to_rgba(b, ViewMode::Heatmap, ColorMap::Viridis, 0, 1);
    EXPECT_EQ(pixel(rgba, 0), kNanColour);
    EXPECT_EQ(view_size(b, ViewMode::Auto).height, 1);  // a vector is one row
}

TEST(BufferView, WrongShapeForTheModeGivesNoPicture) {
    const HostBuffer b = make(DType::U8, {4, 4}, {});
    EXPECT_TRUE(to_rgba(b, ViewMode::ImageHWC, ColorMap::Gray, 0, 255).empty());
}

TEST(BufferView, DifferenceMarksTheMismatchedCell) {
    const HostBuffer gpu = make(DType::F32, {2, 2}, {1, 2, 3, 4.5});
    const HostBuffer cpu = make(DType::F32, {2, 2}, {1, 2, 3, 4});
    const std::vector<uint8_t> mask{0, 0, 0, 1};  // as the runtime's check says (compare.hpp: mismatch_mask)
    const auto rgba = difference_rgba(gpu, cpu, ViewMode::Heatmap, 1.0f, &mask);
    ASSERT_EQ(rgba.size(), 16u);
    EXPECT_EQ(pixel(rgba, 3), kMismatchColour);
    EXPECT_EQ(pixel(rgba, 0), (std::array<uint8_t, 4>{0, 0, 0, 255}));  // equal: black

    BufferView diff;
    diff.set_difference(gpu, cpu, ViewMode::Heatmap, 1.0f, &mask);
    EXPECT_EQ(diff.mismatch_pixels(), 1u);
    EXPECT_TRUE(diff.mismatch_at(1, 1));
    EXPECT_FALSE(diff.mismatch_at(0, 1));
    EXPECT_EQ(diff.value_text(1, 1), "0.5");
}

TEST(BufferView, ImagePixelMismatchesWhenAnyChannelDoes) {
    const HostBuffer gpu = make(DType::U8, {1, 2, 3}, {1, 2, 3, 4, 5, 9});
    const HostBuffer cpu = make(DType::U8, {1, 2, 3}, {1, 2, 3, 4, 5, 6});
    const std::vector<uint8_t> mask{0, 0, 0, 0, 0, 1};  // the sixth channel value differs
    const auto rgba = difference_rgba(gpu, cpu, ViewMode::Auto, 255.0f, &mask);
    ASSERT_EQ(rgba.size(), 8u);
    EXPECT_NE(pixel(rgba, 0), kMismatchColour);
    EXPECT_EQ(pixel(rgba, 1), kMismatchColour);
}

TEST(BufferView, ZoomKeepsThePointUnderTheMouse) {
    ViewState st;
    const ImageSize img{100, 50};
    const ImVec2 box_min{10, 20}, box{400, 200};
    const ImVec2 mouse{150, 90};
    const ImagePlacement before = place_image(img, box_min, box, st);
    const float ix = (mouse.x - before.origin.x) / before.scale, iy = (mouse.y - before.origin.y) / before.scale;
    zoom_about(st, img, box_min, box, mouse, 2.0f);
    const ImagePlacement after = place_image(img, box_min, box, st);
    EXPECT_FLOAT_EQ(after.scale, before.scale * 2);
    EXPECT_NEAR(after.origin.x + ix * after.scale, mouse.x, 1e-3);
    EXPECT_NEAR(after.origin.y + iy * after.scale, mouse.y, 1e-3);
}

TEST(BufferView, SampledSeriesKeepsASpike) {
    std::vector<double> v(100000, 0.0);
    v[54321] = 7.0;
    const HostBuffer b = make(DType::F32, {v.size()}, v);
    std::size_t stride = 0;
    const auto s = sample_series(b, 1000, stride);
    EXPECT_EQ(stride, 100u);
    EXPECT_EQ(s.size(), 1000u);
    EXPECT_FLOAT_EQ(*std::max_element(s.begin(), s.end()), 7.0f);
}

std::string read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

TEST(BufferView, ShaderFilesExistAndTargetGlsl330Core) {
    for (const char* f : {"colormap.vert", "colormap.frag", "difference.frag"}) {
        const std::string text = read(std::string(WB_SOURCE_DIR) + "/shaders/" + f);
        ASSERT_FALSE(text.empty()) << f;
        EXPECT_EQ(text.rfind("#version 330 core", 0), 0u) << f << " must start with #version 330 core";
    }
    EXPECT_NE(read(std::string(WB_SOURCE_DIR) + "/shaders/colormap.frag").find("u_lo"), std::string::npos);
    EXPECT_NE(read(std::string(WB_SOURCE_DIR) + "/shaders/difference.frag").find("u_tol"), std::string::npos);
}

TEST(BufferView, ShaderLoadWithoutGlReportsInsteadOfCrashing) {
    ColormapRenderer r;
    const std::string log = r.load(std::string(WB_SOURCE_DIR) + "/shaders");
    EXPECT_FALSE(r.ready());
    EXPECT_NE(log.find("no OpenGL context"), std::string::npos) << log;
    ShaderProgram p;
    const std::string missing = p.load("/nonexistent-dir", "a.vert", "b.frag");
    EXPECT_NE(missing.find("cannot open"), std::string::npos) << missing;
}

TEST(BufferView, AllViewsDrawAndHoverHeadless) {
    ImGuiContext* ctx = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = {1280, 800};
    io.IniFilename = nullptr;
    unsigned char* px = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&px, &w, &h);

    std::vector<double> img(8 * 8 * 3);
    for (std::size_t i = 0; i < img.size(); ++i) img[i] = static_cast<double>(i % 256);
    const HostBuffer g = make(DType::U8, {8, 8, 3}, img);
    HostBuffer c = g;
    c.set(5, 0);
    std::vector<uint8_t> mask(g.count(), 0);
    mask[5] = 1;
    BufferView gv, cv, dv;
    gv.set(g, ViewMode::Auto, ColorMap::Gray, 0, 255);
    cv.set(c, ViewMode::Auto, ColorMap::Gray, 0, 255);
    dv.set_difference(g, c, ViewMode::Auto, 255, &mask);
    ViewState shared;
    MatrixView mv;
    const HostBuffer m = make(DType::F32, {4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
    mv.set(m, &m, nullptr);
    VectorView vv;
    vv.set(make(DType::F32, {10}, {1, 2, 3}), nullptr, nullptr);

    for (int frame = 0; frame < 4; ++frame) {
        io.DeltaTime = 1.0f / 60.0f;
        io.MousePos = {120, 120};  // over the first image box
        ImGui::NewFrame();
        ImGui::SetNextWindowPos({0, 0});
        ImGui::SetNextWindowSize({1200, 780});
        ImGui::Begin("results");
        draw_image_triplet(gv, cv, dv, shared, 200);
        mv.draw("matrix");
        vv.draw("vector");
        draw_scalar(m, &m, false);
        ImGui::End();
        ImGui::Render();
    }
    EXPECT_TRUE(shared.hovered);  // the mouse is over a pixel of the GPU image
    EXPECT_GE(shared.hover_x, 0);
    EXPECT_TRUE(mv.shows_table());
    EXPECT_EQ(gv.texture(), 0u);  // no GL context: no texture, and no crash
    ImGui::DestroyContext(ctx);
}

}  // namespace
}  // namespace wb::app

// --- Real OpenGL, when a display exists (ctest under xvfb-run; Mesa's software GL is enough) ---
#include <dlfcn.h>
#include <glad/gl.h>

namespace wb::app {
namespace {

// GLFW is opened with dlopen so this test needs no link change: wb_app_tests
// links only the widgets. The window is hidden; only its context is used.
class HiddenGlContext {
public:
    HiddenGlContext() {
        if (!std::getenv("DISPLAY")) {
            why_ = "no DISPLAY (run under xvfb-run for the GL tests)";
            return;
        }
        lib_ = dlopen("libglfw.so.3", RTLD_NOW | RTLD_LOCAL);
        if (!lib_) {
            why_ = "libglfw.so.3 not found";
            return;
        }
        const auto sym = [&](const char* n) { return dlsym(lib_, n); };
        auto init = reinterpret_cast<int (*)()>(sym("glfwInit"));
        auto hint = reinterpret_cast<void (*)(int, int)>(sym("glfwWindowHint"));
        auto create = reinterpret_cast<void* (*)(int, int, const char*, void*, void*)>(sym("glfwCreateWindow"));
        auto make_current = reinterpret_cast<void (*)(void*)>(sym("glfwMakeContextCurrent"));
        get_proc_ = reinterpret_cast<GLADloadfunc>(sym("glfwGetProcAddress"));
        destroy_ = reinterpret_cast<void (*)(void*)>(sym("glfwDestroyWindow"));
        terminate_ = reinterpret_cast<void (*)()>(sym("glfwTerminate"));
        if (!init || !hint || !create || !make_current || !get_proc_ || !init()) {
            why_ = "glfwInit failed";
            return;
        }
        hint(0x00020004 /*GLFW_VISIBLE*/, 0);
        hint(0x00022002 /*GLFW_CONTEXT_VERSION_MAJOR*/, 3);
        hint(0x00022003 /*GLFW_CONTEXT_VERSION_MINOR*/, 3);
        hint(0x00022008 /*GLFW_OPENGL_PROFILE*/, 0x00032001 /*CORE*/);
        window_ = create(64, 64, "gl test", nullptr, nullptr);
        if (!window_) {
            why_ = "no OpenGL 3.3 core context";
            return;
        }
        make_current(window_);
        if (!gladLoadGL(get_proc_)) why_ = "glad could not load GL";
    }
    ~HiddenGlContext() {
        if (window_) destroy_(window_);
        if (terminate_) terminate_();
        // gladLoaderUnloadGL is not needed: the pointers stay valid until exit,
        // but no later test may use them without a context, so clear the version flag.
        GLAD_GL_VERSION_3_3 = 0;
        // libglfw stays loaded: unloading it and initialising it again in the
        // same process failed now and then under Xvfb ("glfwInit failed").
    }
    const std::string& why_not() const { return why_; }

private:
    void* lib_ = nullptr;
    void* window_ = nullptr;
    GLADloadfunc get_proc_ = nullptr;
    void (*destroy_)(void*) = nullptr;
    void (*terminate_)() = nullptr;
    std::string why_;
};

// One context for every GL test in the process, made on first use.
HiddenGlContext& shared_gl_context() {
    static HiddenGlContext gl;
    return gl;
}

std::vector<uint8_t> read_texture(const GlTexture& t) {
    std::vector<uint8_t> px(static_cast<std::size_t>(t.width() * t.height() * 4));
    glBindTexture(GL_TEXTURE_2D, t.id());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    return px;
}

// The shaders hold no colours: every entry of every map, and of the difference
// ramp, comes out of the GPU exactly as the CPU path gives it (colour_table()).
// A ramp of the values 0..255 with lo 0 and hi 255 lands one pixel on each entry.
TEST(BufferViewGl, ShadersColourEveryTableEntryLikeTheCpuPath) {
    HiddenGlContext& gl = shared_gl_context();
    if (!gl.why_not().empty()) GTEST_SKIP() << gl.why_not();
    ColormapRenderer r;
    const std::string log = r.load(std::string(WB_SOURCE_DIR) + "/shaders");
    ASSERT_EQ(log, "");
    ASSERT_TRUE(r.ready());

    const int n = kColourTableSize;
    std::vector<float> ramp(static_cast<std::size_t>(n) + 1);
    for (int i = 0; i < n; ++i) ramp[static_cast<std::size_t>(i)] = static_cast<float>(i);
    ramp[static_cast<std::size_t>(n)] = std::nanf("");
    GlTexture in;
    ASSERT_TRUE(in.upload_r32f(n + 1, 1, ramp.data()));
    for (ColorMap map : {ColorMap::Viridis, ColorMap::Diverging, ColorMap::Gray}) {
        GlTexture out;
        ASSERT_EQ(r.render(in, map, 0.0f, static_cast<float>(n - 1), out), "");
        const auto px = read_texture(out);
        int wrong = 0;
        for (int i = 0; i < n; ++i) {
            const float t = static_cast<float>(i) / static_cast<float>(n - 1);
            ASSERT_EQ(colour_index(t), i);
            const std::array<uint8_t, 4> cpu = colormap_rgba(map, t);
            EXPECT_EQ(pixel(px, static_cast<std::size_t>(i)), cpu) << "map " << static_cast<int>(map) << " entry " << i;
            wrong += pixel(px, static_cast<std::size_t>(i)) == cpu ? 0 : 1;
            // The CPU's colour is the table's entry, which is what was uploaded.
            const std::size_t at = (static_cast<std::size_t>(map) * static_cast<std::size_t>(n) + static_cast<std::size_t>(i)) * 4;
            EXPECT_EQ(cpu, (std::array<uint8_t, 4>{colour_table()[at], colour_table()[at + 1], colour_table()[at + 2],
                                                   colour_table()[at + 3]}));
        }
        EXPECT_EQ(wrong, 0);
        EXPECT_EQ(pixel(px, static_cast<std::size_t>(n)), kNanColour);
    }

    // The difference shader: |ramp - 0| over hi 255 walks the difference row; a
    // difference over the tolerance and NaN are the palette's colours.
    std::vector<float> zeros(ramp.size(), 0.0f);
    GlTexture ta, tb, diff;
    ASSERT_TRUE(ta.upload_r32f(n + 1, 1, ramp.data()));
    ASSERT_TRUE(tb.upload_r32f(n + 1, 1, zeros.data()));
    ASSERT_EQ(r.render_difference(ta, tb, static_cast<float>(n - 1), 1e30f, diff), "");
    const auto d = read_texture(diff);
    for (int i = 0; i < n; ++i)
        EXPECT_EQ(pixel(d, static_cast<std::size_t>(i)), difference_colour(static_cast<float>(i) / static_cast<float>(n - 1)))
            << "difference entry " << i;
    EXPECT_EQ(pixel(d, static_cast<std::size_t>(n)), kNanColour);
    EXPECT_EQ(pixel(d, 0), (std::array<uint8_t, 4>{0, 0, 0, 255})) << "no difference is black";
    GlTexture over;
    ASSERT_EQ(r.render_difference(ta, tb, static_cast<float>(n - 1), 100.0f, over), "");
    const auto o = read_texture(over);
    EXPECT_EQ(pixel(o, 100), difference_colour(100.0f / static_cast<float>(n - 1)));
    EXPECT_EQ(pixel(o, 101), kMismatchColour) << "101 > tolerance 100";
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST(BufferViewGl, BrokenShaderGivesItsLogNotACrash) {
    HiddenGlContext& gl = shared_gl_context();
    if (!gl.why_not().empty()) GTEST_SKIP() << gl.why_not();
    ShaderProgram p;
    const std::string log = p.build("#version 330 core\nvoid main() { gl_Position = vec4(0); }\n", "ok.vert",
                                    "#version 330 core\nvoid main() { this is not glsl }\n", "broken.frag");
    EXPECT_FALSE(p.valid());
    EXPECT_NE(log.find("broken.frag: compile failed"), std::string::npos) << log;
}

// A picture drawn from a sample says where in the whole buffer each pixel was taken.
TEST(BufferView, APixelOfASampleNamesItsPlaceInTheWholeBuffer) {
    HostBuffer whole = make(DType::U8, {3000, 4000, 3}, {});
    HostBuffer s = wb::sample_buffer(whole, 1 << 20);
    ASSERT_TRUE(s.sample_of);
    const std::size_t k = s.sample_of->step[0];
    EXPECT_EQ(whole_xy(s, ViewMode::ImageHWC, 5, 7), (std::array<std::size_t, 2>{5 * k, 7 * k}));
    EXPECT_EQ(whole_xy(whole, ViewMode::ImageHWC, 5, 7), (std::array<std::size_t, 2>{5, 7}));

    HostBuffer m = make(DType::F32, {2000, 3000}, {});
    HostBuffer ms = wb::sample_buffer(m, 1 << 18);
    ASSERT_TRUE(ms.sample_of);
    const std::size_t j = ms.sample_of->step[0];
    EXPECT_EQ(whole_xy(ms, ViewMode::Heatmap, 3, 2), (std::array<std::size_t, 2>{3 * j, 2 * j}));
}

}  // namespace
}  // namespace wb::app
