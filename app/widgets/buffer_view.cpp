// app/widgets/buffer_view.cpp — CPU colouring, GL upload and the zoom/pan/hover views of results.
//
// [SECTION] geometry: which elements make pixel (x, y) in each view mode
// [SECTION] colour: colour maps, to_rgba, differences, masks
// [SECTION] BufferView
// [SECTION] drawing: image box, triplet, colour bar, matrix, vector, scalar
// [SECTION] ColormapRenderer (shader path)
#include "palette.hpp"
#include "widgets/buffer_view.hpp"
#include "widgets/draw_text.hpp"
#include "widgets/widget_text.hpp"

#include "widgets/plot.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace wb::app {

// ---------------------------------------------------------------------------
// [SECTION] geometry
// ---------------------------------------------------------------------------
namespace {

// Element indices of pixel (x, y): 3 for rgb modes, 1 otherwise.
int pixel_elements(ViewMode mode, ImageSize size, int x, int y, std::size_t out[3]) {
    const auto w = static_cast<std::size_t>(size.width), h = static_cast<std::size_t>(size.height);
    const std::size_t p = static_cast<std::size_t>(y) * w + static_cast<std::size_t>(x);
    switch (mode) {
    case ViewMode::ImageHWC:
        for (int c = 0; c < 3; ++c) out[c] = p * 3 + static_cast<std::size_t>(c);
        return 3;
    case ViewMode::ImageCHW:
        for (int c = 0; c < 3; ++c) out[c] = static_cast<std::size_t>(c) * w * h + p;
        return 3;
    default: out[0] = p; return 1;
    }
}

std::string format_value(double v, DType type) {
    char buf[64];
    if (std::isnan(v)) return "NaN";
    if (!dtype_is_float(type)) std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    else std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

}  // namespace

ViewMode resolve_view_mode(const HostBuffer& b, ViewMode requested) {
    if (requested != ViewMode::Auto) return requested;
    if (b.shape.size() == 3 && b.shape[2] == 3) return ViewMode::ImageHWC;
    if (b.shape.size() == 3 && b.shape[0] == 3) return ViewMode::ImageCHW;
    return ViewMode::Heatmap;
}

ImageSize view_size(const HostBuffer& b, ViewMode mode) {
    mode = resolve_view_mode(b, mode);
    const auto& s = b.shape;
    const auto fits = [](std::size_t v) { return v > 0 && v <= static_cast<std::size_t>(1 << 20); };
    ImageSize out;
    switch (mode) {
    case ViewMode::ImageHWC:
        if (s.size() != 3 || s[2] != 3) return {};
        out = {static_cast<int>(s[1]), static_cast<int>(s[0])};
        if (!fits(s[0]) || !fits(s[1])) return {};
        return out;
    case ViewMode::ImageCHW:
        if (s.size() != 3 || s[0] != 3) return {};
        if (!fits(s[1]) || !fits(s[2])) return {};
        return {static_cast<int>(s[2]), static_cast<int>(s[1])};
    default: {
        // Heat maps and gray images: the last dimension across, all others down.
        if (s.empty()) return b.count() == 1 ? ImageSize{1, 1} : ImageSize{};
        std::size_t rows = 1;
        for (std::size_t i = 0; i + 1 < s.size(); ++i) rows *= s[i];
        if (!fits(rows) || !fits(s.back())) return {};
        return {static_cast<int>(s.back()), static_cast<int>(rows)};
    }
    }
}

std::array<std::size_t, 2> whole_xy(const HostBuffer& b, ViewMode mode, int x, int y) {
    const auto ux = static_cast<std::size_t>(std::max(x, 0)), uy = static_cast<std::size_t>(std::max(y, 0));
    if (!b.sample_of || b.shape.empty()) return {ux, uy};
    const std::vector<std::size_t>& step = b.sample_of->step;
    switch (resolve_view_mode(b, mode)) {
    case ViewMode::ImageHWC: return {ux * step[1], uy * step[0]};
    case ViewMode::ImageCHW: return {ux * step[2], uy * step[1]};
    default: {
        // The last dimension across; every other one down, flattened: the
        // row's index in each, scaled, flattened again over the whole's.
        std::size_t rest = uy, row = 0, stride = 1;
        for (std::size_t d = b.shape.size() - 1; d-- > 0;) {
            row += (rest % b.shape[d]) * step[d] * stride;
            rest /= b.shape[d];
            stride *= b.sample_of->shape[d];
        }
        return {ux * step.back(), row};
    }
    }
}

ValueRange finite_range(const HostBuffer& b) {
    ValueRange r{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    const std::size_t n = b.count();
    for (std::size_t i = 0; i < n && i * dtype_size(b.type) < b.bytes.size(); ++i) {
        const double v = b.get(i);
        if (!std::isfinite(v)) continue;
        r.lo = std::min(r.lo, v);
        r.hi = std::max(r.hi, v);
    }
    if (r.lo > r.hi) return {};
    return r;
}

std::string value_text(const HostBuffer& b, ViewMode mode, int x, int y) {
    mode = resolve_view_mode(b, mode);
    const ImageSize size = view_size(b, mode);
    if (x < 0 || y < 0 || x >= size.width || y >= size.height) return {};
    std::size_t idx[3];
    const int n = pixel_elements(mode, size, x, y, idx);
    if (n == 1) return idx[0] < b.count() ? format_value(b.get(idx[0]), b.type) : std::string();
    std::string out = "(";
    for (int c = 0; c < n; ++c) {
        if (c) out += ", ";
        out += idx[c] < b.count() ? format_value(b.get(idx[c]), b.type) : "?";
    }
    return out + ")";
}

// ---------------------------------------------------------------------------
// [SECTION] colour
// ---------------------------------------------------------------------------
namespace {

struct Rgb {
    float r, g, b;
};

Rgb mix(Rgb a, Rgb b, float t) { return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t}; }

uint8_t to_u8(float v) { return static_cast<uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); }

std::array<uint8_t, 4> opaque(Rgb c) { return {to_u8(c.r), to_u8(c.g), to_u8(c.b), 255}; }

void put(std::vector<uint8_t>& out, std::size_t pixel, const std::array<uint8_t, 4>& c) {
    std::copy(c.begin(), c.end(), out.begin() + static_cast<std::ptrdiff_t>(pixel * 4));
}

bool enough_bytes(const HostBuffer& b) { return b.bytes.size() >= b.count() * dtype_size(b.type); }

// The curves the table is made of, t in [0,1]. Only colour_table() calls
// these; everything that shows a colour map reads the table.
Rgb map_curve(ColorMap map, float t) {
    switch (map) {
    case ColorMap::Gray: return {t, t, t};
    case ColorMap::Diverging: {
        const Rgb lo{0.230f, 0.299f, 0.754f}, mid{0.865f, 0.865f, 0.865f}, hi{0.706f, 0.016f, 0.150f};
        return t < 0.5f ? mix(lo, mid, t * 2.0f) : mix(mid, hi, t * 2.0f - 1.0f);
    }
    case ColorMap::Viridis:
    default: {
        static constexpr Rgb kStops[5] = {{0.267f, 0.005f, 0.329f}, {0.231f, 0.322f, 0.545f},
                                          {0.129f, 0.569f, 0.549f}, {0.369f, 0.788f, 0.384f},
                                          {0.992f, 0.906f, 0.145f}};
        const float s = t * 4.0f;
        const int i = std::min(3, static_cast<int>(s));
        return mix(kStops[i], kStops[i + 1], s - static_cast<float>(i));
    }
    }
}

// Blue, not red or yellow, so a within-tolerance difference never looks like a mismatch.
Rgb difference_curve(float t) { return {0.55f * t * t, 0.85f * t, 0.25f * t + 0.75f * std::sqrt(t)}; }

std::array<uint8_t, 4> table_entry(int row, int index) {
    const uint8_t* c = colour_table().data() + (static_cast<std::size_t>(row) * kColourTableSize + index) * 4;
    return {c[0], c[1], c[2], c[3]};
}

}  // namespace

const std::vector<uint8_t>& colour_table() {
    static const std::vector<uint8_t> table = [] {
        std::vector<uint8_t> t(static_cast<std::size_t>(kColourTableRows) * kColourTableSize * 4);
        for (int row = 0; row < kColourTableRows; ++row) {
            for (int i = 0; i < kColourTableSize; ++i) {
                const float x = static_cast<float>(i) / static_cast<float>(kColourTableSize - 1);
                const Rgb c = row == kDifferenceRow ? difference_curve(x) : map_curve(static_cast<ColorMap>(row), x);
                put(t, static_cast<std::size_t>(row) * kColourTableSize + static_cast<std::size_t>(i), opaque(c));
            }
        }
        return t;
    }();
    return table;
}

// The same arithmetic as colormap.frag's and difference.frag's index(): float, add a half, truncate.
int colour_index(float t) {
    return static_cast<int>(std::clamp(t, 0.0f, 1.0f) * static_cast<float>(kColourTableSize - 1) + 0.5f);
}

std::array<uint8_t, 4> difference_colour(float t) { return table_entry(kDifferenceRow, colour_index(t)); }

std::array<uint8_t, 4> colormap_rgba(ColorMap map, float t) {
    if (std::isnan(t)) return kNanColour;
    const int row = static_cast<int>(map);
    return table_entry(row >= 0 && row < kDifferenceRow ? row : 0, colour_index(t));
}

std::vector<uint8_t> to_rgba(const HostBuffer& b, ViewMode mode, ColorMap map, float lo, float hi) {
    mode = resolve_view_mode(b, mode);
    const ImageSize size = view_size(b, mode);
    if (size.width == 0 || !enough_bytes(b)) return {};
    const std::size_t pixels = static_cast<std::size_t>(size.width) * static_cast<std::size_t>(size.height);
    if (pixels * (mode == ViewMode::ImageHWC || mode == ViewMode::ImageCHW ? 3 : 1) > b.count()) return {};
    std::vector<uint8_t> out(pixels * 4);
    const float span = hi - lo;
    const auto norm = [&](double v) { return span > 0 ? static_cast<float>((v - lo) / span) : 0.5f; };
    std::size_t idx[3];
    for (int y = 0; y < size.height; ++y) {
        for (int x = 0; x < size.width; ++x) {
            const std::size_t p = static_cast<std::size_t>(y) * static_cast<std::size_t>(size.width) +
                                  static_cast<std::size_t>(x);
            const int n = pixel_elements(mode, size, x, y, idx);
            if (mode == ViewMode::Heatmap) {
                const double v = b.get(idx[0]);
                put(out, p, std::isnan(v) ? kNanColour : colormap_rgba(map, norm(v)));
                continue;
            }
            std::array<uint8_t, 4> c{0, 0, 0, 255};
            bool nan = false;
            for (int k = 0; k < n; ++k) {
                const double v = b.get(idx[k]);
                nan = nan || std::isnan(v);
                c[static_cast<std::size_t>(k)] = to_u8(norm(v));
            }
            if (n == 1) c[1] = c[2] = c[0];
            put(out, p, nan ? kNanColour : c);
        }
    }
    return out;
}

HostBuffer difference_buffer(const HostBuffer& gpu, const HostBuffer& cpu) {
    HostBuffer d;
    d.name = gpu.name + " |gpu - cpu|";
    d.type = DType::F64;
    d.role = gpu.role;
    d.shape = gpu.shape;
    const std::size_t n = gpu.count();
    d.bytes = wb::Bytes(n * sizeof(double));
    const bool ok = enough_bytes(gpu) && enough_bytes(cpu);
    for (std::size_t i = 0; i < n; ++i) {
        const double v = ok && i < cpu.count() ? std::fabs(gpu.get(i) - cpu.get(i))
                                               : std::numeric_limits<double>::quiet_NaN();
        d.set(i, v);
    }
    return d;
}

std::vector<uint8_t> difference_rgba(const HostBuffer& gpu, const HostBuffer& cpu, ViewMode mode, float hi,
                                     const std::vector<uint8_t>* element_mask) {
    mode = resolve_view_mode(gpu, mode);
    const ImageSize size = view_size(gpu, mode);
    if (size.width == 0 || !enough_bytes(gpu) || !enough_bytes(cpu)) return {};
    const std::size_t pixels = static_cast<std::size_t>(size.width) * static_cast<std::size_t>(size.height);
    std::vector<uint8_t> out(pixels * 4);
    std::size_t idx[3];
    for (int y = 0; y < size.height; ++y) {
        for (int x = 0; x < size.width; ++x) {
            const std::size_t p = static_cast<std::size_t>(y) * static_cast<std::size_t>(size.width) +
                                  static_cast<std::size_t>(x);
            const int n = pixel_elements(mode, size, x, y, idx);
            double worst = 0;
            bool nan = false, masked = false;
            for (int k = 0; k < n; ++k) {
                if (idx[k] >= gpu.count() || idx[k] >= cpu.count()) {
                    nan = true;
                    continue;
                }
                const double a = gpu.get(idx[k]), b = cpu.get(idx[k]);
                nan = nan || std::isnan(a) || std::isnan(b);
                worst = std::max(worst, std::fabs(a - b));
                masked = masked || (element_mask && idx[k] < element_mask->size() && (*element_mask)[idx[k]]);
            }
            if (masked) put(out, p, kMismatchColour);
            else if (nan) put(out, p, kNanColour);
            else put(out, p, difference_colour(hi > 0 ? static_cast<float>(worst / hi) : 0.0f));
        }
    }
    return out;
}

std::vector<float> to_r32f(const HostBuffer& b, ViewMode mode) {
    mode = resolve_view_mode(b, mode);
    const ImageSize size = view_size(b, mode);
    if (size.width == 0 || !enough_bytes(b)) return {};
    std::vector<float> out(static_cast<std::size_t>(size.width) * static_cast<std::size_t>(size.height));
    std::size_t idx[3];
    for (int y = 0; y < size.height; ++y)
        for (int x = 0; x < size.width; ++x) {
            const int n = pixel_elements(mode, size, x, y, idx);
            double sum = 0;
            for (int k = 0; k < n; ++k) sum += idx[k] < b.count() ? b.get(idx[k]) : std::nan("");
            out[static_cast<std::size_t>(y) * static_cast<std::size_t>(size.width) + static_cast<std::size_t>(x)] =
                static_cast<float>(sum / n);
        }
    return out;
}

std::vector<float> sample_series(const HostBuffer& b, std::size_t max_points, std::size_t& stride) {
    const std::size_t n = enough_bytes(b) ? b.count() : 0;
    max_points = std::max<std::size_t>(max_points, 1);
    stride = n <= max_points ? 1 : (n + max_points - 1) / max_points;
    std::vector<float> out;
    out.reserve(n / stride + 1);
    for (std::size_t start = 0; start < n; start += stride) {
        const std::size_t end = std::min(n, start + stride);
        double first = b.get(start), pick = first;
        for (std::size_t i = start + 1; i < end; ++i) {
            const double v = b.get(i);
            if (std::isnan(v) || std::fabs(v - first) > std::fabs(pick - first)) pick = v;
            if (std::isnan(v)) break;
        }
        out.push_back(static_cast<float>(pick));
    }
    return out;
}

// ---------------------------------------------------------------------------
// [SECTION] BufferView
// ---------------------------------------------------------------------------
void BufferView::set(const HostBuffer& buffer, ViewMode mode, ColorMap map, float lo, float hi) {
    buffer_ = buffer;
    mode_ = resolve_view_mode(buffer, mode);
    map_ = map;
    lo_ = lo;
    hi_ = hi;
    size_ = view_size(buffer, mode_);
    rgba_ = to_rgba(buffer, mode_, map, lo, hi);
    if (rgba_.empty()) size_ = {};
    pixel_mismatch_.clear();
    mismatch_count_ = 0;
    difference_ = false;
    diff_gpu_.clear();
    diff_cpu_.clear();
    dirty_ = true;
}

void BufferView::set_difference(const HostBuffer& gpu, const HostBuffer& cpu, ViewMode mode, float hi,
                                const std::vector<uint8_t>* element_mask) {
    buffer_ = difference_buffer(gpu, cpu);
    mode_ = resolve_view_mode(gpu, mode);
    map_ = ColorMap::Viridis;
    lo_ = 0;
    hi_ = hi;
    size_ = view_size(gpu, mode_);
    rgba_ = difference_rgba(gpu, cpu, mode_, hi, element_mask);
    if (rgba_.empty()) size_ = {};
    pixel_mismatch_.clear();
    mismatch_count_ = 0;
    if (element_mask) set_mismatches(*element_mask);
    difference_ = true;
    // The shader takes both sides as they are (f32 values close to each other
    // subtract exactly); rgb pictures stay on the CPU, where the worst channel
    // counts rather than the mean the one-channel values would give.
    diff_gpu_.clear();
    diff_cpu_.clear();
    if (mode_ == ViewMode::Heatmap || mode_ == ViewMode::ImageGray) {
        diff_gpu_ = to_r32f(gpu, mode_);
        diff_cpu_ = to_r32f(cpu, mode_);
        if (diff_cpu_.size() != diff_gpu_.size()) diff_gpu_.clear(), diff_cpu_.clear();
    }
    dirty_ = true;
}

void BufferView::set_mismatches(const std::vector<uint8_t>& element_mask) {
    pixel_mismatch_.clear();
    mismatch_count_ = 0;
    if (element_mask.empty() || size_.width == 0) return;
    pixel_mismatch_.assign(static_cast<std::size_t>(size_.width) * static_cast<std::size_t>(size_.height), 0);
    std::size_t idx[3];
    for (int y = 0; y < size_.height; ++y)
        for (int x = 0; x < size_.width; ++x) {
            const int n = pixel_elements(mode_, size_, x, y, idx);
            bool bad = false;
            for (int k = 0; k < n; ++k) bad = bad || (idx[k] < element_mask.size() && element_mask[idx[k]]);
            if (bad) {
                pixel_mismatch_[static_cast<std::size_t>(y) * static_cast<std::size_t>(size_.width) +
                                static_cast<std::size_t>(x)] = 1;
                ++mismatch_count_;
            }
        }
}

void BufferView::clear() {
    ColormapRenderer* renderer = renderer_;  // which path to use is not part of what is shown
    *this = BufferView();
    renderer_ = renderer;
}

bool BufferView::mismatch_at(int x, int y) const {
    if (pixel_mismatch_.empty() || x < 0 || y < 0 || x >= size_.width || y >= size_.height) return false;
    return pixel_mismatch_[static_cast<std::size_t>(y) * static_cast<std::size_t>(size_.width) +
                           static_cast<std::size_t>(x)] != 0;
}

void BufferView::use_renderer(ColormapRenderer* renderer) {
    if (renderer_ == renderer) return;
    renderer_ = renderer;
    dirty_ = true;
}

bool BufferView::shader_eligible() const {
    if (rgba_.empty()) return false;
    if (difference_) return !diff_gpu_.empty();
    return mode_ == ViewMode::Heatmap || mode_ == ViewMode::ImageGray;
}

// Uploads the values as R32F and colours them into texture_ with the shaders.
bool BufferView::shade() {
    shader_error_.clear();
    if (renderer_ == nullptr || !renderer_->ready() || !shader_eligible()) return false;
    const int w = size_.width, h = size_.height;
    if (difference_) {
        values_.upload_r32f(w, h, diff_gpu_.data());
        values_b_.upload_r32f(w, h, diff_cpu_.data());
        // The check's own verdict per pixel (atol + rtol*|cpu|), so the
        // picture's red cells are exactly the mismatches the badge counts;
        // the shader's single tolerance is then switched off.
        const GlTexture* mask = nullptr;
        if (!pixel_mismatch_.empty()) {
            const std::vector<float> m(pixel_mismatch_.begin(), pixel_mismatch_.end());
            mask_texture_.upload_r32f(w, h, m.data());
            mask = &mask_texture_;
        }
        shader_error_ = renderer_->render_difference(values_, values_b_, hi_, std::numeric_limits<float>::max(),
                                                     texture_, mask);
    } else {
        const std::vector<float> v = to_r32f(buffer_, mode_);
        if (v.size() != static_cast<std::size_t>(w) * static_cast<std::size_t>(h)) return false;
        values_.upload_r32f(w, h, v.data());
        shader_error_ = renderer_->render(values_, map_, lo_, hi_, texture_);
    }
    return shader_error_.empty();
}

unsigned BufferView::texture() {
    if (rgba_.empty() || !gl_available()) return 0;
    if (dirty_) {
        if (shade()) {
            colouring_ = Colouring::Shaders;
        } else {
            texture_.upload_rgba8(size_.width, size_.height, rgba_.data());
            colouring_ = Colouring::Cpu;
        }
        dirty_ = false;
    }
    return texture_.id();
}

// ---------------------------------------------------------------------------
// [SECTION] drawing
// ---------------------------------------------------------------------------
ImagePlacement place_image(ImageSize image, ImVec2 box_min, ImVec2 box_size, const ViewState& state) {
    ImagePlacement p;
    if (image.width <= 0 || image.height <= 0) return p;
    const float fit = std::min(box_size.x / static_cast<float>(image.width), box_size.y / static_cast<float>(image.height));
    p.scale = std::max(fit * state.zoom, 1e-4f);
    p.origin = {box_min.x + (box_size.x - image.width * p.scale) * 0.5f + state.pan.x,
                box_min.y + (box_size.y - image.height * p.scale) * 0.5f + state.pan.y};
    return p;
}

void zoom_about(ViewState& state, ImageSize image, ImVec2 box_min, ImVec2 box_size, ImVec2 mouse, float factor) {
    const ImagePlacement before = place_image(image, box_min, box_size, state);
    const float ix = (mouse.x - before.origin.x) / before.scale, iy = (mouse.y - before.origin.y) / before.scale;
    state.zoom = std::clamp(state.zoom * factor, 0.1f, 512.0f);
    const ImagePlacement after = place_image(image, box_min, box_size, state);
    // Shift the pan so image point (ix, iy) is under the mouse again.
    state.pan.x += mouse.x - (after.origin.x + ix * after.scale);
    state.pan.y += mouse.y - (after.origin.y + iy * after.scale);
}

namespace {

ImTextureID tex_id(unsigned id) { return reinterpret_cast<ImTextureID>(static_cast<intptr_t>(id)); }

// The box a view draws in: the image (or a placeholder), mismatch outlines,
// the hovered pixel outlined. Handles wheel zoom, drag pan, double-click reset.
// Returns true when a pixel of this view is under the mouse (state.hover_*).
bool image_box(const char* id, BufferView& view, ViewState& state, ImVec2 size, bool outline_mismatches) {
    ImGui::PushID(id);
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##canvas", size, ImGuiButtonFlags_MouseButtonLeft);
    const bool hovered = ImGui::IsItemHovered();
    ImGuiIO& io = ImGui::GetIO();
    const ImageSize img = view.size();
    if (hovered && io.MouseWheel != 0 && img.width > 0)
        zoom_about(state, img, p0, size, io.MousePos, std::pow(1.2f, io.MouseWheel));
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0.0f)) {
        state.pan.x += io.MouseDelta.x;
        state.pan.y += io.MouseDelta.y;
    }
    if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
        state.zoom = 1.0f;
        state.pan = {0, 0};
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p1{p0.x + size.x, p0.y + size.y};
    dl->AddRectFilled(p0, p1, ImGui::GetColorU32(ImGuiCol_FrameBg));
    bool over_pixel = false;
    if (img.width > 0) {
        const ImagePlacement pl = place_image(img, p0, size, state);
        const ImVec2 q0 = pl.origin, q1{pl.origin.x + img.width * pl.scale, pl.origin.y + img.height * pl.scale};
        dl->PushClipRect(p0, p1, true);
        if (const unsigned tex = view.texture()) dl->AddImage(tex_id(tex), q0, q1);
        else dl->AddRect(q0, q1, ImGui::GetColorU32(ImGuiCol_Border));  // no GL: the outline stands in
        // Mismatched cells: outlined when a cell is big enough to see, limited to the visible ones.
        if (outline_mismatches && view.mismatch_pixels() > 0 && pl.scale >= 3.0f) {
            const int x0 = std::max(0, static_cast<int>((p0.x - q0.x) / pl.scale));
            const int y0 = std::max(0, static_cast<int>((p0.y - q0.y) / pl.scale));
            const int x1 = std::min(img.width, static_cast<int>((p1.x - q0.x) / pl.scale) + 1);
            const int y1 = std::min(img.height, static_cast<int>((p1.y - q0.y) / pl.scale) + 1);
            int drawn = 0;
            for (int y = y0; y < y1 && drawn < 20000; ++y)
                for (int x = x0; x < x1 && drawn < 20000; ++x)
                    if (view.mismatch_at(x, y)) {
                        dl->AddRect({q0.x + x * pl.scale, q0.y + y * pl.scale},
                                    {q0.x + (x + 1) * pl.scale, q0.y + (y + 1) * pl.scale},
                                    palette::kMismatch.u32(), 0.0f, 0, std::clamp(pl.scale * 0.12f, 1.0f, 3.0f));
                        ++drawn;
                    }
        }
        if (hovered) {
            const int hx = static_cast<int>(std::floor((io.MousePos.x - q0.x) / pl.scale));
            const int hy = static_cast<int>(std::floor((io.MousePos.y - q0.y) / pl.scale));
            if (hx >= 0 && hy >= 0 && hx < img.width && hy < img.height) {
                state.hovered = true;
                state.hover_x = hx;
                state.hover_y = hy;
                over_pixel = true;
            }
        }
        // The shared hovered pixel is marked in every view of the state.
        if (state.hovered && state.hover_x >= 0 && state.hover_x < img.width && state.hover_y < img.height) {
            const ImVec2 c0{q0.x + state.hover_x * pl.scale, q0.y + state.hover_y * pl.scale};
            dl->AddRect(c0, {c0.x + std::max(pl.scale, 3.0f), c0.y + std::max(pl.scale, 3.0f)},
                        palette::kHoveredPixel.u32(), 0.0f, 0, 1.5f);
        }
        dl->PopClipRect();
    } else {
        const char* msg = widget_text().no_picture;
        const ImVec2 ts = ImGui::CalcTextSize(msg);
        draw_text(dl, {p0.x + (size.x - ts.x) * 0.5f, p0.y + (size.y - ts.y) * 0.5f},
                    ImGui::GetColorU32(ImGuiCol_TextDisabled), msg);
    }
    ImGui::PopID();
    return over_pixel;
}

}  // namespace

bool draw_image_view(const char* id, BufferView& view, ViewState& state, ImVec2 size) {
    state.hovered = false;
    const bool over = image_box(id, view, state, size, true);
    if (over) {
        ImGui::BeginTooltip();
        const auto xy = whole_xy(view.buffer(), view.mode(), state.hover_x, state.hover_y);
        ImGui::Text("x %zu, y %zu", xy[0], xy[1]);
        ImGui::TextUnformatted(view.value_text(state.hover_x, state.hover_y).c_str());
        ImGui::EndTooltip();
    }
    return over;
}

void draw_image_triplet(BufferView& gpu, BufferView& cpu, BufferView& diff, ViewState& shared, float height,
                        const char* ran_on) {
    ImGui::PushID("image_triplet");
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const float w = std::max((ImGui::GetContentRegionAvail().x - 2 * spacing) / 3.0f, 40.0f);
    const ImageSize img = gpu.size();
    float h = height;
    if (h <= 0) h = img.width > 0 ? std::clamp(w * img.height / static_cast<float>(img.width), 80.0f, 480.0f) : 160.0f;
    // Titles above each box.
    const std::string difference = std::string("|") + ran_on + " - CPU|";
    const char* titles[3] = {ran_on, "CPU", difference.c_str()};
    const float x0 = ImGui::GetCursorPosX();
    for (int i = 0; i < 3; ++i) {
        if (i) ImGui::SameLine(x0 + static_cast<float>(i) * (w + spacing));
        ImGui::TextUnformatted(titles[i]);
    }
    if (diff.mismatch_pixels() > 0) {
        ImGui::SameLine();
        ImGui::TextColored(palette::kMismatchText.vec4(), widget_text().mismatched_pixels, diff.mismatch_pixels());
    }
    shared.hovered = false;
    BufferView* views[3] = {&gpu, &cpu, &diff};
    bool over = false;
    for (int i = 0; i < 3; ++i) {
        if (i) ImGui::SameLine(0, spacing);
        over = image_box(titles[i], *views[i], shared, {w, h}, i == 2) || over;
    }
    if (over) {
        ImGui::BeginTooltip();
        const auto xy = whole_xy(views[0]->buffer(), views[0]->mode(), shared.hover_x, shared.hover_y);
        ImGui::Text("x %zu, y %zu", xy[0], xy[1]);
        for (int i = 0; i < 3; ++i) {
            const std::string v = views[i]->value_text(shared.hover_x, shared.hover_y);
            const bool bad = diff.mismatch_at(shared.hover_x, shared.hover_y);
            if (i == 2 && bad) ImGui::TextColored(palette::kMismatchText.vec4(), "%s: %s (%s)", titles[i], v.c_str(), widget_text().mismatch);
            else ImGui::Text("%s: %s", titles[i], v.c_str());
        }
        ImGui::EndTooltip();
    }
    ImGui::TextDisabled("%s", widget_text().zoom_help);
    ImGui::PopID();
}

void draw_colour_bar(ColorMap map, float lo, float hi, ImVec2 size) {
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    char hi_s[32], lo_s[32];
    std::snprintf(hi_s, sizeof hi_s, "%.4g", static_cast<double>(hi));
    std::snprintf(lo_s, sizeof lo_s, "%.4g", static_cast<double>(lo));
    const float bar_w = std::min(size.x, 16.0f);
    constexpr int kSteps = 64;
    for (int i = 0; i < kSteps; ++i) {
        const auto c = colormap_rgba(map, 1.0f - (i + 0.5f) / kSteps);  // hi at the top
        const float y0 = p0.y + size.y * i / kSteps, y1 = p0.y + size.y * (i + 1) / kSteps + 0.5f;
        dl->AddRectFilled({p0.x, y0}, {p0.x + bar_w, y1}, IM_COL32(c[0], c[1], c[2], 255));
    }
    dl->AddRect(p0, {p0.x + bar_w, p0.y + size.y}, ImGui::GetColorU32(ImGuiCol_Border));
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    draw_text(dl, {p0.x + bar_w + 4, p0.y}, text, hi_s);
    draw_text(dl, {p0.x + bar_w + 4, p0.y + size.y - ImGui::GetTextLineHeight()}, text, lo_s);
    ImGui::Dummy(size);
}

void MatrixView::set(const HostBuffer& gpu, const HostBuffer* cpu, const std::vector<uint8_t>* element_mask,
                     ColorMap map) {
    // One range for both sides so equal colours mean equal values.
    ValueRange r = finite_range(gpu);
    if (cpu) {
        const ValueRange c = finite_range(*cpu);
        r = {std::min(r.lo, c.lo), std::max(r.hi, c.hi)};
    }
    heat_.set(gpu, ViewMode::Heatmap, map, static_cast<float>(r.lo), static_cast<float>(r.hi));
    has_cpu_ = cpu != nullptr;
    cpu_ = cpu ? *cpu : HostBuffer{};
    mask_ = element_mask ? *element_mask : std::vector<uint8_t>{};
    heat_.set_mismatches(mask_);
}

bool MatrixView::shows_table() const {
    const ImageSize s = heat_.size();
    return s.width > 0 && s.width <= 16 && s.height <= 16;
}

void MatrixView::draw(const char* id, float height) {
    ImGui::PushID(id);
    const ImageSize s = heat_.size();
    const float bar_w = 70.0f;
    const float w = std::max(ImGui::GetContentRegionAvail().x - bar_w - ImGui::GetStyle().ItemSpacing.x, 40.0f);
    const float h = height > 0 ? height : (s.width > 0 ? std::clamp(w * s.height / s.width, 60.0f, 420.0f) : 120.0f);
    state_.hovered = false;
    const bool over = image_box("heat", heat_, state_, {w, h}, true);
    ImGui::SameLine();
    draw_colour_bar(heat_.colour_map(), heat_.lo(), heat_.hi(), {bar_w, h});
    if (over) {
        const int x = state_.hover_x, y = state_.hover_y;
        ImGui::BeginTooltip();
        const auto xy = whole_xy(heat_.buffer(), ViewMode::Heatmap, x, y);
        ImGui::Text(widget_text().row_column, xy[1], xy[0]);
        ImGui::Text("%s: %s", label_.c_str(), heat_.value_text(x, y).c_str());
        if (has_cpu_) ImGui::Text("CPU: %s", wb::app::value_text(cpu_, ViewMode::Heatmap, x, y).c_str());
        if (heat_.mismatch_at(x, y)) ImGui::TextColored(palette::kMismatchText.vec4(), "%s", widget_text().mismatch);
        ImGui::EndTooltip();
    }
    if (heat_.mismatch_pixels() > 0)
        ImGui::TextColored(palette::kMismatchText.vec4(), heat_.mismatch_pixels() == 1 ? widget_text().mismatched_cell
                                                                                   : widget_text().mismatched_cells,
                           heat_.mismatch_pixels());
    if (shows_table() &&
        ImGui::BeginTable("numbers", s.width + 1,
                          ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("");
        for (int x = 0; x < s.width; ++x) ImGui::TableSetupColumn(std::to_string(x).c_str());
        ImGui::TableHeadersRow();
        for (int y = 0; y < s.height; ++y) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::TextDisabled("%d", y);
            for (int x = 0; x < s.width; ++x) {
                ImGui::TableSetColumnIndex(x + 1);
                const std::string v = heat_.value_text(x, y);
                if (heat_.mismatch_at(x, y)) {
                    ImGui::TextColored(palette::kMismatchText.vec4(), "%s", v.c_str());
                    if (ImGui::IsItemHovered() && has_cpu_)
                        ImGui::SetTooltip("CPU: %s", wb::app::value_text(cpu_, ViewMode::Heatmap, x, y).c_str());
                } else {
                    ImGui::TextUnformatted(v.c_str());
                }
            }
        }
        ImGui::EndTable();
    }
    ImGui::PopID();
}

void VectorView::set(const HostBuffer& gpu, const HostBuffer* cpu, const std::vector<uint8_t>* element_mask) {
    gpu_ = gpu;
    has_cpu_ = cpu != nullptr;
    cpu_ = cpu ? *cpu : HostBuffer{};
    mask_ = element_mask ? *element_mask : std::vector<uint8_t>{};
    constexpr std::size_t kMaxPoints = 4096;
    gpu_series_ = sample_series(gpu_, kMaxPoints, stride_);
    std::size_t cpu_stride = 1;
    cpu_series_ = has_cpu_ ? sample_series(cpu_, kMaxPoints, cpu_stride) : std::vector<float>{};
}

void VectorView::draw(const char* id, int table_rows, float plot_height) {
    ImGui::PushID(id);
    PlotOptions o;
    o.label = label_.c_str();
    const std::size_t whole_step = gpu_.sample_of && !gpu_.sample_of->step.empty() ? gpu_.sample_of->step[0] : 1;
    o.x_scale = static_cast<double>(stride_ * whole_step);
    if (has_cpu_) o.extra.push_back({cpu_series_.data(), static_cast<int>(cpu_series_.size()), 0, "CPU"});
    draw_line_plot("plot", gpu_series_.data(), static_cast<int>(gpu_series_.size()), {0, plot_height}, o);
    if (stride_ > 1) ImGui::TextDisabled(widget_text().values_drawn, gpu_.count(), stride_);
    if (gpu_.sample_of) ImGui::TextDisabled(widget_text().sampled_values, gpu_.full_count(), whole_step);
    const std::size_t rows = std::min<std::size_t>(gpu_.count(), static_cast<std::size_t>(std::max(table_rows, 0)));
    if (rows > 0 && ImGui::BeginTable("values", has_cpu_ ? 4 : 2,
                                      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn(widget_text().index);
        ImGui::TableSetupColumn(label_.c_str());
        if (has_cpu_) {
            ImGui::TableSetupColumn("CPU");
            ImGui::TableSetupColumn("|diff|");
        }
        ImGui::TableHeadersRow();
        for (std::size_t i = 0; i < rows; ++i) {
            ImGui::TableNextRow();
            const bool bad = i < mask_.size() && mask_[i];
            const ImVec4 red = palette::kMismatchText.vec4();
            ImGui::TableSetColumnIndex(0);
            ImGui::Text("%zu", gpu_.full_flat(i));
            ImGui::TableSetColumnIndex(1);
            const std::string g = format_value(gpu_.get(i), gpu_.type);
            if (bad) ImGui::TextColored(red, "%s", g.c_str());
            else ImGui::TextUnformatted(g.c_str());
            if (has_cpu_ && i < cpu_.count()) {
                ImGui::TableSetColumnIndex(2);
                ImGui::TextUnformatted(format_value(cpu_.get(i), cpu_.type).c_str());
                ImGui::TableSetColumnIndex(3);
                const std::string d = format_value(std::fabs(gpu_.get(i) - cpu_.get(i)), DType::F64);
                if (bad) ImGui::TextColored(red, "%s", d.c_str());
                else ImGui::TextUnformatted(d.c_str());
            }
        }
        ImGui::EndTable();
    }
    if (gpu_.count() > rows) ImGui::TextDisabled(widget_text().first_values, rows, gpu_.full_count());
    ImGui::PopID();
}

void draw_scalar(const HostBuffer& gpu, const HostBuffer* cpu, bool mismatched) {
    const std::string g = gpu.count() > 0 && enough_bytes(gpu) ? format_value(gpu.get(0), gpu.type) : "?";
    std::string line = gpu.name + " = " + g;
    if (cpu && cpu->count() > 0 && enough_bytes(*cpu)) line += "   (CPU " + format_value(cpu->get(0), cpu->type) + ")";
    if (mismatched) ImGui::TextColored(palette::kMismatchText.vec4(), "%s  %s", line.c_str(), widget_text().mismatch);
    else ImGui::TextUnformatted(line.c_str());
}

// ---------------------------------------------------------------------------
// [SECTION] ColormapRenderer
// ---------------------------------------------------------------------------
ColormapRenderer::~ColormapRenderer() {
    if (vao_ != 0 && gl_available()) {
        GLuint v = vao_;
        glDeleteVertexArrays(1, &v);
    }
}

std::string ColormapRenderer::load(const std::filesystem::path& shader_dir) {
    std::string log = colormap_.load(shader_dir, "colormap.vert", "colormap.frag");
    const std::string log2 = difference_.load(shader_dir, "colormap.vert", "difference.frag");
    if (!log2.empty()) log += (log.empty() ? "" : "\n") + log2;
    if (log.empty() && vao_ == 0 && gl_available()) {
        // Core profile draws need a bound VAO even with no attributes.
        GLuint v = 0;
        glGenVertexArrays(1, &v);
        vao_ = v;
    }
    if (log.empty() && !table_.upload_rgba8(kColourTableSize, kColourTableRows, colour_table().data()))
        log = "cannot upload the colour-map table";
    return log;
}

std::string ColormapRenderer::draw_into(GlTexture& target, int width, int height) {
    if (!target.allocate_rgba8(width, height)) return "cannot allocate the target texture";
    if (std::string e = fbo_.attach(target); !e.empty()) return e;
    // Save what ImGui's backend and others may rely on mid-frame.
    GLint prev_fbo = 0, prev_program = 0, prev_vao = 0, prev_viewport[4] = {0, 0, 0, 0}, prev_active = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &prev_fbo);
    glGetIntegerv(GL_CURRENT_PROGRAM, &prev_program);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &prev_vao);
    glGetIntegerv(GL_VIEWPORT, prev_viewport);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &prev_active);
    const GLboolean blend = glIsEnabled(GL_BLEND), scissor = glIsEnabled(GL_SCISSOR_TEST);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_.id());
    glViewport(0, 0, width, height);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
    glBindVertexArray(vao_);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(static_cast<GLuint>(prev_vao));
    glUseProgram(static_cast<GLuint>(prev_program));
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(prev_fbo));
    glViewport(prev_viewport[0], prev_viewport[1], prev_viewport[2], prev_viewport[3]);
    glActiveTexture(static_cast<GLenum>(prev_active));
    if (blend) glEnable(GL_BLEND);
    if (scissor) glEnable(GL_SCISSOR_TEST);
    return {};
}

namespace {

void set_colour(const ShaderProgram& p, const char* name, const std::array<uint8_t, 4>& c) {
    glUniform4f(p.uniform(name), c[0] / 255.0f, c[1] / 255.0f, c[2] / 255.0f, c[3] / 255.0f);
}

}  // namespace

void ColormapRenderer::bind_table(const ShaderProgram& p) {
    glActiveTexture(GL_TEXTURE3);
    glBindTexture(GL_TEXTURE_2D, table_.id());
    glUniform1i(p.uniform("u_table"), 3);
    set_colour(p, "u_nan_colour", kNanColour);
}

std::string ColormapRenderer::render(const GlTexture& values, ColorMap map, float lo, float hi, GlTexture& target) {
    if (!gl_available()) return "no OpenGL context";
    if (!colormap_.valid() || !table_.valid()) return "the colour-map shader is not loaded";
    if (!values.valid()) return "no values texture";
    glUseProgram(colormap_.id());
    bind_table(colormap_);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, values.id());
    glUniform1i(colormap_.uniform("u_values"), 0);
    glUniform1f(colormap_.uniform("u_lo"), lo);
    glUniform1f(colormap_.uniform("u_hi"), hi);
    glUniform1i(colormap_.uniform("u_map"), static_cast<int>(map));
    return draw_into(target, values.width(), values.height());
}

std::string ColormapRenderer::render_difference(const GlTexture& a, const GlTexture& b, float hi, float tol,
                                                GlTexture& target, const GlTexture* mismatch_mask) {
    if (!gl_available()) return "no OpenGL context";
    if (!difference_.valid() || !table_.valid()) return "the difference shader is not loaded";
    if (!a.valid() || !b.valid()) return "no values texture";
    glUseProgram(difference_.id());
    bind_table(difference_);
    glUniform1i(difference_.uniform("u_row"), kDifferenceRow);
    set_colour(difference_, "u_mismatch_colour", kMismatchColour);
    const bool use_mask = mismatch_mask != nullptr && mismatch_mask->valid();
    if (use_mask) {
        glActiveTexture(GL_TEXTURE2);
        glBindTexture(GL_TEXTURE_2D, mismatch_mask->id());
    }
    glUniform1i(difference_.uniform("u_mask"), 2);
    glUniform1i(difference_.uniform("u_use_mask"), use_mask ? 1 : 0);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, b.id());
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, a.id());
    glUniform1i(difference_.uniform("u_a"), 0);
    glUniform1i(difference_.uniform("u_b"), 1);
    glUniform1f(difference_.uniform("u_hi"), hi);
    glUniform1f(difference_.uniform("u_tol"), tol);
    return draw_into(target, a.width(), a.height());
}

}  // namespace wb::app
