// app/panels/results_views.cpp — builds and draws the views of the last run
// (results_views.hpp): image triplets or single images, matrix heat maps,
// vector plots and scalars, with mismatches from the step's tolerances.
#include "panels/results_views.hpp"

#include "app_state.hpp"
#include "lesson_catalog.hpp"
#include "palette.hpp"
#include "ui_text.hpp"
#include "widgets/buffer_view.hpp"
#include "widgets/gl_texture.hpp"
#include "widgets/widget_text.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>

namespace wb::app {

namespace {

// Where a view's data came from in the run.
enum class Source {
    GpuAndCpu,  // the kernel's output next to the reference's
    GpuOnly,    // an output the reference did not produce (should not happen; shown anyway)
    CpuOnly,    // compile-only: the reference ran, the kernel did not
    Input,      // an input buffer, as given to the kernel
    Missing,    // the run kept no buffer of that name (it stopped early, or a typo in the lesson)
};

const char* source_name(Source s) {
    switch (s) {
    case Source::GpuAndCpu: return "gpu+cpu";
    case Source::GpuOnly: return "gpu";
    case Source::CpuOnly: return "cpu";
    case Source::Input: return "input";
    case Source::Missing: return "missing";
    }
    return "?";
}

const char* kind_name(ViewKind k) {
    switch (k) {
    case ViewKind::Image: return "image";
    case ViewKind::Matrix: return "matrix";
    case ViewKind::Vector: return "vector";
    case ViewKind::Scalar: return "scalar";
    }
    return "?";
}

const ImVec4 kNote = palette::kCaution.vec4();

}  // namespace

// One entry of the step's `views`, with the widgets that draw it. Only the
// members for its kind are used; keeping them side by side is simpler than a
// variant and costs a few empty objects.
struct BuiltView {
    View spec;
    Source source = Source::Missing;
    // Said under the title, in the UI's language: what is missing and why.
    // A printf format of the UI table with the buffer's name; none = Count_.
    UiText note = UiText::Count_;
    std::size_t outline_runs = 0;  // > 0: the check listed only this many stretches of mismatches
    std::size_t sample_step = 0;   // > 0: drawn from a sample, every this-many-th element per side
    std::string whole_size_text;   // the whole buffer's shape, for a sample
    std::string size_text;    // "451x300", "4x4", "1000"
    bool has_data = false;    // something to draw

    // Images: GPU | CPU | difference with one zoom/pan, or one picture alone.
    BufferView gpu, cpu, diff, single;
    ViewState zoom_pan;
    bool triplet = false;
    bool emulated = false;     // the kernels ran on the CPU emulator, not a GPU
    UiText label = UiText::WhoGpu;  // what made the main values (GPU, CPU emulator, CPU reference, input)
    double max_difference = 0;

    MatrixView matrix;
    VectorView vector;

    HostBuffer scalar_main, scalar_cpu;
    bool scalar_mismatch = false;
};

struct ResultsViews {
    std::uint64_t serial = 0;  // AppState::run_serial these were built for
    std::vector<std::unique_ptr<BuiltView>> views;
};

namespace {

const HostBuffer* find_buffer(const std::vector<HostBuffer>& buffers, const std::string& name) {
    for (const HostBuffer& b : buffers)
        if (b.name == name) return &b;
    return nullptr;
}

// The image layout the shape says: [H,W] gray, [H,W,3] HWC, [3,H,W] CHW. A
// shape that fits both ([3,H,3]) follows the lesson's image init when there
// is one. Anything else is drawn as a heat map.
ViewMode image_mode(const HostBuffer& b, const Buffer* declared) {
    const auto& s = b.shape;
    if (s.size() == 2) return ViewMode::ImageGray;
    if (s.size() == 3) {
        const bool hwc = s[2] == 3, chw = s[0] == 3;
        if (hwc && chw && declared && declared->init.kind == InitKind::Image)
            return declared->init.layout == ImageLayout::CHW ? ViewMode::ImageCHW : ViewMode::ImageHWC;
        if (hwc) return ViewMode::ImageHWC;
        if (chw) return ViewMode::ImageCHW;
    }
    return ViewMode::Heatmap;
}

// The brightness range of an image: bytes are 0..255; floats in [0,1] are
// taken as 0..1 images, other floats as 0..255.
ValueRange image_range(const HostBuffer& b) {
    if (b.type == DType::U8) return {0, 255};
    const ValueRange r = finite_range(b);
    if (r.lo >= 0 && r.hi <= 1) return {0, 1};
    return {0, 255};
}

void set_picture(BufferView& view, const HostBuffer& b, ViewMode mode) {
    if (mode == ViewMode::Heatmap) {
        const ValueRange r = finite_range(b);
        view.set(b, mode, ColorMap::Viridis, static_cast<float>(r.lo), static_cast<float>(r.hi));
    } else {
        const ValueRange r = image_range(b);
        view.set(b, mode, ColorMap::Gray, static_cast<float>(r.lo), static_cast<float>(r.hi));
    }
}

// The largest finite |gpu - cpu|, without the F64 copy difference_buffer makes.
double largest_difference(const HostBuffer& gpu, const HostBuffer& cpu) {
    double worst = 0;
    const std::size_t n = std::min(gpu.count(), cpu.count());
    for (std::size_t i = 0; i < n; ++i) {
        const double d = std::fabs(gpu.get(i) - cpu.get(i));
        if (std::isfinite(d)) worst = std::max(worst, d);
    }
    return worst;
}

std::string dims_text(const HostBuffer& b, ViewMode mode) {
    const ImageSize s = view_size(b, mode);
    return std::to_string(s.width) + "x" + std::to_string(s.height);
}

void build_one(BuiltView& v, const RunResult& r, const Step& step) {
    const std::string& name = v.spec.buffer;
    const HostBuffer* gpu = find_buffer(r.gpu_outputs, name);
    const HostBuffer* cpu = find_buffer(r.cpu_outputs, name);
    const HostBuffer* input = find_buffer(r.inputs, name);
    const HostBuffer* main = gpu ? gpu : cpu ? cpu : input;
    if (gpu && cpu) v.source = Source::GpuAndCpu;
    else if (gpu) v.source = Source::GpuOnly;
    else if (cpu) v.source = Source::CpuOnly;
    else if (input) v.source = Source::Input;
    if (!main) {
        v.note = r.status == RunStatus::Passed || r.status == RunStatus::Mismatch || r.status == RunStatus::CompileOnly
                     ? UiText::ViewNoBuffer
                     : UiText::ViewNoBufferStopped;
        return;
    }
    if (v.source == Source::CpuOnly) v.note = UiText::ViewCpuOnly;
    if (v.source == Source::GpuOnly) v.note = UiText::ViewGpuOnly;

    // The check's own verdict per element (the runtime's comparison), so the
    // pictures outline exactly what failed.
    std::vector<uint8_t> mask;
    const bool both = gpu && cpu;
    if (both) {
        for (const CompareResult& c : r.comparisons)
            if (c.buffer == name) {
                mask = mismatch_mask(c, *gpu);
                if (c.mismatch_runs_truncated) v.outline_runs = c.mismatch_runs.size();
            }
    }
    const std::vector<uint8_t>* mask_ptr = mask.empty() ? nullptr : &mask;
    if (main->sample_of) {
        v.sample_step = *std::max_element(main->sample_of->step.begin(), main->sample_of->step.end());
        v.whole_size_text = shape_string(main->sample_of->shape);
    }
    v.label = v.source == Source::CpuOnly ? UiText::WhoCpu
              : v.source == Source::Input ? UiText::BufInput
              : r.emulated                ? UiText::WhoEmulator
                                          : UiText::WhoGpu;
    v.emulated = r.emulated;

    switch (v.spec.kind) {
    case ViewKind::Image: {
        const ViewMode mode = image_mode(*main, step.find_buffer(name));
        v.size_text = main->sample_of ? v.whole_size_text : dims_text(*main, mode);
        if (both) {
            v.triplet = true;
            set_picture(v.gpu, *gpu, mode);
            set_picture(v.cpu, *cpu, mode);
            v.max_difference = largest_difference(*gpu, *cpu);
            // A sample may miss the largest difference; the check saw every element.
            if (gpu->sample_of)
                for (const CompareResult& c : r.comparisons)
                    if (c.buffer == name) v.max_difference = c.max_abs_error;
            double atol = 0;
            for (const CompareSpec& c : step.checks.compare)
                if (c.buffer == name) atol = c.atol;
            // Differences within a few tolerances stay dim; real errors glow.
            const double hi = std::max({v.max_difference, 4 * atol, 1e-12});
            v.diff.set_difference(*gpu, *cpu, mode, static_cast<float>(hi), mask_ptr);
            v.has_data = !v.gpu.empty();
        } else {
            set_picture(v.single, *main, mode);
            v.has_data = !v.single.empty();
        }
        break;
    }
    case ViewKind::Matrix: {
        v.matrix.set(*main, both ? cpu : nullptr, mask_ptr);
        v.size_text = main->sample_of ? v.whole_size_text : dims_text(*main, ViewMode::Heatmap);
        v.has_data = !v.matrix.heat_map().empty();
        break;
    }
    case ViewKind::Vector: {
        v.vector.set(*main, both ? cpu : nullptr, mask_ptr);
        v.size_text = std::to_string(main->full_count());
        v.has_data = main->count() > 0;
        break;
    }
    case ViewKind::Scalar: {
        v.scalar_main = *main;
        v.scalar_main.name = name + (v.source == Source::CpuOnly ? " (CPU)" : v.source == Source::Input ? " (input)" : "");
        if (both) v.scalar_cpu = *cpu;
        v.scalar_mismatch = std::find(mask.begin(), mask.end(), uint8_t{1}) != mask.end();
        v.size_text = "1";
        v.has_data = main->count() > 0;
        break;
    }
    }
}

// `max_h`: the tallest a picture may be, so one fits in the visible area.
void draw_one(BuiltView& v, const std::string& lang, float max_h) {
    const std::string& title = v.spec.title.empty() ? v.spec.buffer : v.spec.title.get(lang);
    const std::string header = title + "  (" + v.spec.buffer + ")###view_" + v.spec.buffer + kind_name(v.spec.kind);
    if (!ImGui::CollapsingHeader(header.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
    ImGui::PushID(v.spec.buffer.c_str());
    if (v.note != UiText::Count_) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(kNote, tr(v.note, lang), v.spec.buffer.c_str());
        ImGui::PopTextWrapPos();
    }
    if (v.outline_runs > 0) ImGui::TextColored(kNote, tr(UiText::MismatchOutlineTruncated, lang), v.outline_runs);
    if (v.sample_step > 0) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled(tr(UiText::ViewSampled, lang), v.sample_step, v.whole_size_text.c_str());
        ImGui::PopTextWrapPos();
    }
    // Labels in the language of this frame.
    v.matrix.set_label(tr(v.label, lang));
    v.vector.set_label(tr(v.label, lang));
    if (v.has_data) {
        switch (v.spec.kind) {
        case ViewKind::Image:
            if (v.triplet) {
                const ImageSize s = v.gpu.size();
                const float spacing = ImGui::GetStyle().ItemSpacing.x;
                const float w = std::max((ImGui::GetContentRegionAvail().x - 2 * spacing) / 3.0f, 40.0f);
                const float h = s.width > 0 ? std::clamp(w * static_cast<float>(s.height) / static_cast<float>(s.width),
                                                         60.0f, max_h)
                                            : 160.0f;
                draw_image_triplet(v.gpu, v.cpu, v.diff, v.zoom_pan, h,
                                   tr(v.emulated ? UiText::WhoEmulator : UiText::WhoGpu, lang));
                ImGui::TextDisabled(tr(UiText::ViewLargestDifference, lang), v.max_difference);
            } else {
                const ImageSize s = v.single.size();
                const float w = std::max(ImGui::GetContentRegionAvail().x, 40.0f);
                const float h = s.width > 0 ? std::clamp(w * static_cast<float>(s.height) / static_cast<float>(s.width),
                                                         60.0f, max_h)
                                            : 160.0f;
                ImGui::TextDisabled("%s, %s", tr(v.source == Source::Input ? UiText::ViewSourceInput : UiText::ViewSourceCpu, lang),
                                    v.size_text.c_str());
                draw_image_view("single", v.single, v.zoom_pan, {w, h});
                ImGui::TextDisabled("%s", widget_text().zoom_help);
            }
            break;
        case ViewKind::Matrix: {
            // The widget's default height is the matrix's shape at full width; a
            // square one would fill the panel and hide its number table.
            const ImageSize s = v.matrix.heat_map().size();
            const float w = std::max(ImGui::GetContentRegionAvail().x - 80.0f, 40.0f);
            const float h = s.width > 0 ? std::clamp(w * static_cast<float>(s.height) / static_cast<float>(s.width),
                                                     60.0f, std::min(max_h, 0.6f * w))
                                        : 120.0f;
            v.matrix.draw("matrix", h);
            break;
        }
        case ViewKind::Vector: v.vector.draw("vector", 16, 140.0f); break;
        case ViewKind::Scalar:
            draw_scalar(v.scalar_main, v.source == Source::GpuAndCpu ? &v.scalar_cpu : nullptr, v.scalar_mismatch);
            break;
        }
    }
    ImGui::PopID();
}

// Loads the colour-map shaders the first time there is a GL context. A
// missing folder or a shader that does not build is said once in the log;
// the views then colour on the CPU, so the student still sees the picture.
void ensure_shaders(AppState& state) {
    if (state.shaders_tried || !gl_available()) return;
    state.shaders_tried = true;
    const FolderSearch& folder = shaders_folder();
    if (!folder.folder) {
        log_line(state, "shaders: " + folder.error + "; heat maps are coloured on the CPU instead", true);
        return;
    }
    auto renderer = std::make_shared<ColormapRenderer>();
    const std::string error = renderer->load(folder.folder->dir);
    if (!error.empty() || !renderer->ready()) {
        log_line(state, "shaders in " + folder.folder->dir.string() + " did not build; heat maps are coloured on the CPU instead:\n" +
                            error,
                 true);
        return;
    }
    state.shaders = std::move(renderer);
}

void use_renderer(BuiltView& v, ColormapRenderer* renderer) {
    for (BufferView* b : {&v.gpu, &v.cpu, &v.diff, &v.single}) b->use_renderer(renderer);
    v.matrix.use_renderer(renderer);
}

}  // namespace

void sync_results_views(AppState& state) {
    if (!state.last_run) {
        state.results_views.reset();
        return;
    }
    ensure_shaders(state);
    if (state.results_views && state.results_views->serial == state.run_serial) return;
    auto built = std::make_shared<ResultsViews>();
    built->serial = state.run_serial;
    const RunResult& r = *state.last_run;
    const Step* step = state.lesson && state.lesson->id == r.lesson_id ? state.lesson->find_step(r.step_id) : nullptr;
    if (step) {
        for (const View& spec : step->views) {
            auto v = std::make_unique<BuiltView>();
            v->spec = spec;
            build_one(*v, r, *step);
            use_renderer(*v, state.shaders.get());
            built->views.push_back(std::move(v));
        }
    }
    state.results_views = std::move(built);
}

void draw_results_views(AppState& state) {
    sync_results_views(state);
    if (!state.results_views) return;
    if (state.results_views->views.empty()) {
        ImGui::TextDisabled("%s", tr(UiText::NoViewsInStep, state.lang));
        return;
    }
    // Pictures fit the visible part of the scrolling area (less a title and a
    // note line), so the first one is seen whole without scrolling.
    const float max_h = std::max(ImGui::GetWindowHeight() - 4.0f * ImGui::GetFrameHeightWithSpacing(), 120.0f);
    for (const auto& v : state.results_views->views) draw_one(*v, state.lang, max_h);
}

ShaderUse shader_use(AppState& state) {
    sync_results_views(state);
    ShaderUse use;
    use.loaded = state.shaders != nullptr;
    if (!state.results_views) return use;
    for (const auto& v : state.results_views->views) {
        const BufferView* pictures[] = {&v->gpu, &v->cpu, &v->diff, &v->single, &v->matrix.heat_map()};
        for (const BufferView* b : pictures) {
            if (!b->shader_eligible()) continue;
            if (b->colouring() == Colouring::Shaders) ++use.shaded;
            else if (b->colouring() == Colouring::Cpu) ++use.cpu;
        }
    }
    return use;
}

std::vector<std::string> describe_results_views(AppState& state) {
    sync_results_views(state);
    std::vector<std::string> lines;
    if (!state.results_views) return lines;
    for (const auto& v : state.results_views->views)
        lines.push_back(std::string(kind_name(v->spec.kind)) + " " + v->spec.buffer + " " + source_name(v->source) +
                        (v->size_text.empty() ? std::string() : " " + v->size_text) +
                        (v->sample_step > 0 ? " sample-every " + std::to_string(v->sample_step) : std::string()));
    return lines;
}

}  // namespace wb::app
