// app/widgets/buffer_view.hpp — results as pictures: images, heat maps, difference maps, plots, tables.
//
// The CPU half is pure and tested headless: to_rgba() turns a HostBuffer into
// RGBA8 pixels (an image in HWC / CHW / gray layout, or any 1-D/2-D buffer
// as a heat map through a colour map); difference_rgba() shows |gpu - cpu|
// with mismatched cells in solid red. The GL half uploads those pixels to a
// nearest-filtered texture and draws it with zoom and pan; ColormapRenderer
// is the shader path (shaders/colormap.frag, difference.frag) that colours an
// R32F texture into an FBO on the GPU, for buffers too big to recolour on the
// CPU each time the range changes. The colour maps are defined once, here, as
// colour_table(): the CPU path looks colours up in it and the shaders get it
// as a texture, so the two cannot drift apart. With no GL context the draw functions
// still lay out, hover and report values; they only skip the texture.
#pragma once

#include "data/buffers.hpp"
#include "palette.hpp"
#include "widgets/gl_texture.hpp"
#include "widgets/shader_program.hpp"

#include <imgui.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace wb::app {

// How a buffer's elements become pixels.
enum class ViewMode {
    Auto,       // [H,W,3] -> ImageHWC, [3,H,W] -> ImageCHW, anything else -> Heatmap
    ImageHWC,   // [H,W,3] rgb, values 0..255 (u8 or float)
    ImageCHW,   // [3,H,W] rgb planes
    ImageGray,  // [H,W] one channel
    Heatmap,    // [H,W] (or [N] as one row) through a colour map
};

// The numbers are the maps' rows in colour_table() (colormap.frag's u_map).
enum class ColorMap { Viridis = 0, Diverging = 1, Gray = 2 };

struct ImageSize {
    int width = 0;
    int height = 0;
};

struct ValueRange {
    double lo = 0;
    double hi = 0;
};

// The colour shown for NaN (unwritten, poisoned cells) and for mismatches
// (palette.hpp); the shaders get the same as uniforms.
constexpr std::array<uint8_t, 4> kNanColour = palette::kUnwritten.rgba8();
constexpr std::array<uint8_t, 4> kMismatchColour = palette::kMismatch.rgba8();

// The colour maps' one definition: kColourTableSize colours per map, entry i
// the colour at t = i / (kColourTableSize - 1). Row int(ColorMap) is that map,
// row kDifferenceRow the difference ramp (0 black through blue to pale cyan).
// colormap_rgba() and difference_rgba() look colours up in it; ColormapRenderer
// uploads it as the shaders' u_table, which they read with texelFetch.
constexpr int kColourTableSize = 256;
constexpr int kDifferenceRow = 3;
constexpr int kColourTableRows = 4;
// RGBA8, row-major: kColourTableRows rows of kColourTableSize colours.
const std::vector<uint8_t>& colour_table();
// The entry t in [0,1] (clamped) is shown as: round(t * (kColourTableSize - 1)).
int colour_index(float t);
// The difference ramp's colour for t = |gpu - cpu| / hi (clamped to [0,1]).
std::array<uint8_t, 4> difference_colour(float t);

ViewMode resolve_view_mode(const HostBuffer& buffer, ViewMode requested);
// Pixel size of the buffer in `mode` (Auto resolved); {0,0} when the shape does not fit the mode.
ImageSize view_size(const HostBuffer& buffer, ViewMode mode);
// Smallest and largest finite element ({0,0} when there is none).
ValueRange finite_range(const HostBuffer& buffer);
// t in [0,1] (clamped) -> colour: colour_table()'s entry colour_index(t); NaN -> kNanColour.
std::array<uint8_t, 4> colormap_rgba(ColorMap map, float t);

// Row-major RGBA8, row 0 first. Images map lo..hi to 0..255 per channel (pass
// 0, 255 for ordinary images); heat maps map lo..hi onto the colour map. NaN
// is kNanColour. Returns empty when the shape does not fit the mode.
std::vector<uint8_t> to_rgba(const HostBuffer& buffer, ViewMode mode, ColorMap map, float lo, float hi);

// |gpu - cpu| element-wise, as an F64 buffer of gpu's shape (for hover values).
HostBuffer difference_buffer(const HostBuffer& gpu, const HostBuffer& cpu);

// Difference picture in `mode`'s pixel layout: per pixel the largest channel
// difference through difference_colour (as difference.frag does);
// a pixel any of whose elements is set in `element_mask` is kMismatchColour;
// NaN on either side is kNanColour.
std::vector<uint8_t> difference_rgba(const HostBuffer& gpu, const HostBuffer& cpu, ViewMode mode, float hi,
                                     const std::vector<uint8_t>* element_mask);

// The whole buffer's column and row of pixel (x, y) in `mode`: (x, y) itself,
// or for a sample (HostBuffer::sample_of) where in the whole it was taken.
std::array<std::size_t, 2> whole_xy(const HostBuffer& buffer, ViewMode mode, int x, int y);

// Text for the element(s) at pixel (x, y): "0.5", or "(12, 34, 56)" for rgb.
std::string value_text(const HostBuffer& buffer, ViewMode mode, int x, int y);

class ColormapRenderer;

// How a view's texture was last coloured: not yet (never drawn, or no GL),
// by the shaders (ColormapRenderer), or on the CPU (to_rgba / difference_rgba).
enum class Colouring { None, Shaders, Cpu };

// One buffer as a picture, with what hovering needs. Keeps its own copy of
// the buffer; uploads to GL lazily, on the first draw after a change. With a
// ready renderer (use_renderer) one-channel pictures (heat maps, gray images,
// differences of those) are coloured by the shaders from R32F values; rgb
// images, and any picture whose shader draw fails, use the CPU's RGBA8.
class BufferView {
public:
    void set(const HostBuffer& buffer, ViewMode mode, ColorMap map, float lo, float hi);
    void set_difference(const HostBuffer& gpu, const HostBuffer& cpu, ViewMode mode, float hi,
                        const std::vector<uint8_t>* element_mask);
    // Cells to outline (element mask as from mismatch_mask); empty clears.
    void set_mismatches(const std::vector<uint8_t>& element_mask);
    void clear();
    // Colours through `renderer` from the next draw on when it is ready; null = CPU only.
    void use_renderer(ColormapRenderer* renderer);
    // True when this picture can go through the shaders (one value per pixel).
    bool shader_eligible() const;
    Colouring colouring() const { return colouring_; }
    // Why the last shader draw failed ("" when it did not or was not tried).
    const std::string& shader_error() const { return shader_error_; }

    bool empty() const { return rgba_.empty(); }
    ImageSize size() const { return size_; }
    ViewMode mode() const { return mode_; }
    ColorMap colour_map() const { return map_; }
    float lo() const { return lo_; }
    float hi() const { return hi_; }
    const HostBuffer& buffer() const { return buffer_; }
    const std::vector<uint8_t>& rgba() const { return rgba_; }
    bool mismatch_at(int x, int y) const;
    std::size_t mismatch_pixels() const { return mismatch_count_; }
    std::string value_text(int x, int y) const { return wb::app::value_text(buffer_, mode_, x, y); }

    // GL texture name for ImGui::Image; 0 without a GL context.
    unsigned texture();

private:
    HostBuffer buffer_;
    ViewMode mode_ = ViewMode::Heatmap;
    ColorMap map_ = ColorMap::Viridis;
    float lo_ = 0, hi_ = 1;
    ImageSize size_;
    std::vector<uint8_t> rgba_;
    std::vector<uint8_t> pixel_mismatch_;
    std::size_t mismatch_count_ = 0;
    GlTexture texture_;
    bool dirty_ = true;
    // The shader path: its inputs and what happened on the last draw.
    bool shade();
    ColormapRenderer* renderer_ = nullptr;
    bool difference_ = false;
    std::vector<float> diff_gpu_, diff_cpu_;  // per-pixel values of a one-channel difference
    GlTexture values_, values_b_, mask_texture_;
    Colouring colouring_ = Colouring::None;
    std::string shader_error_;
};

// Zoom and pan shared by views that show the same pixels.
struct ViewState {
    float zoom = 1.0f;        // 1 = the image fits its box
    ImVec2 pan{0.0f, 0.0f};   // pixels on screen, from the centred position
    bool hovered = false;     // set by the draw calls: a pixel is under the mouse
    int hover_x = -1, hover_y = -1;
};

// Where an image of `image` pixels lands in a box at `box_min` of `box_size`:
// top-left corner and screen pixels per image pixel.
struct ImagePlacement {
    ImVec2 origin;
    float scale = 1.0f;
};
ImagePlacement place_image(ImageSize image, ImVec2 box_min, ImVec2 box_size, const ViewState& state);
// Changes zoom by `factor` keeping the image point under `mouse` where it is.
void zoom_about(ViewState& state, ImageSize image, ImVec2 box_min, ImVec2 box_size, ImVec2 mouse, float factor);

// GPU | CPU | difference side by side with one zoom/pan (wheel zooms, drag
// pans, double-click resets); hovering any shows pixel coordinates and all
// three values. `height` 0 = a square-ish default. `ran_on` names the first
// ("GPU", or "CPU emulator" when the kernel was emulated).
void draw_image_triplet(BufferView& gpu, BufferView& cpu, BufferView& diff, ViewState& shared, float height = 0.0f,
                        const char* ran_on = "GPU");

// One view in a box with zoom/pan, hover and mismatch outlines; returns true while hovered.
bool draw_image_view(const char* id, BufferView& view, ViewState& state, ImVec2 size);

// A vertical colour bar with lo/hi labels.
void draw_colour_bar(ColorMap map, float lo, float hi, ImVec2 size);

// Matrix result: heat map + colour bar + hover (GPU and CPU value) + mismatched
// cells outlined; matrices up to 16x16 also as a number table with mismatches in red.
class MatrixView {
public:
    void set(const HostBuffer& gpu, const HostBuffer* cpu, const std::vector<uint8_t>* element_mask,
             ColorMap map = ColorMap::Viridis);
    void draw(const char* id, float height = 0.0f);
    const BufferView& heat_map() const { return heat_; }
    void use_renderer(ColormapRenderer* renderer) { heat_.use_renderer(renderer); }
    bool shows_table() const;
    // What the main buffer is called in hover text ("GPU"; "CPU" when only the reference ran).
    void set_label(std::string label) { label_ = std::move(label); }

private:
    BufferView heat_;
    std::string label_ = "GPU";
    HostBuffer cpu_;
    bool has_cpu_ = false;
    std::vector<uint8_t> mask_;
    ViewState state_;
};

// Vector result: GPU and CPU as a line plot (sampled to at most a few
// thousand points, keeping each bucket's extremes) + a table of the first values.
class VectorView {
public:
    void set(const HostBuffer& gpu, const HostBuffer* cpu, const std::vector<uint8_t>* element_mask);
    void draw(const char* id, int table_rows = 32, float plot_height = 160.0f);
    const std::vector<float>& gpu_series() const { return gpu_series_; }
    std::size_t stride() const { return stride_; }
    // Name of the main series in the legend and table ("GPU"; "CPU" when only the reference ran).
    void set_label(std::string label) { label_ = std::move(label); }

private:
    HostBuffer gpu_, cpu_;
    std::string label_ = "GPU";
    bool has_cpu_ = false;
    std::vector<uint8_t> mask_;
    std::vector<float> gpu_series_, cpu_series_;
    std::size_t stride_ = 1;
};

// At most about `max_points` values standing for the whole buffer: every
// element when it fits, else per bucket of `stride` elements the one farthest
// from the bucket's first value (so a spike is never sampled away).
std::vector<float> sample_series(const HostBuffer& buffer, std::size_t max_points, std::size_t& stride);

// Scalar result inline: "name = 42 (CPU 42)", red when mismatched.
void draw_scalar(const HostBuffer& gpu, const HostBuffer* cpu, bool mismatched);

// The shader path: colours R32F textures on the GPU into an RGBA8 target
// through an FBO, once per change of a view (not per frame). load() compiles shaders/colormap.vert + colormap.frag and
// difference.frag from `shader_dir` and uploads colour_table(); its return is "" or the logs to show.
class ColormapRenderer {
public:
    std::string load(const std::filesystem::path& shader_dir);
    bool ready() const { return colormap_.valid() && difference_.valid() && table_.valid(); }
    // Renders values (R32F) into `target` (allocated to the values' size). Returns "" or why not.
    std::string render(const GlTexture& values, ColorMap map, float lo, float hi, GlTexture& target);
    // Cells above `tol`, and pixels set (> 0.5) in the optional R32F `mismatch_mask`, are red.
    std::string render_difference(const GlTexture& a, const GlTexture& b, float hi, float tol, GlTexture& target,
                                  const GlTexture* mismatch_mask = nullptr);
    ~ColormapRenderer();

private:
    std::string draw_into(GlTexture& target, int width, int height);
    void bind_table(const ShaderProgram& program);  // u_table on texture unit 3, and u_nan_colour
    ShaderProgram colormap_, difference_;
    GlTexture table_;  // colour_table(), the shaders' u_table
    GlFramebuffer fbo_;
    unsigned vao_ = 0;
};

// Values of a buffer as floats in `mode`'s pixel grid (one channel: images use
// the mean of their channels) — what ColormapRenderer uploads as R32F.
std::vector<float> to_r32f(const HostBuffer& buffer, ViewMode mode);

}  // namespace wb::app
