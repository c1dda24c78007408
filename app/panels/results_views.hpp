// app/panels/results_views.hpp — the pictures, plots and tables of the
// results panel: one per entry of the step's `views`, built from the last
// RunResult with the widgets of app/widgets/buffer_view.hpp.
//
// Widgets copy the buffers they show, so the views are built once per run
// (when AppState::run_serial changes), never per frame. A view finds its
// buffer among the GPU outputs, the CPU reference's outputs and the inputs:
// GPU and CPU together give side-by-side images, outlined mismatches and two
// plotted series; the reference alone (compile-only, no GPU) or an input alone
// gives a single picture, heat map or series, and says which it is.
#pragma once

#include <string>
#include <vector>

namespace wb::app {

struct AppState;

// Rebuilds state.results_views when the last run changed (or drops it when
// there is no run). Cheap when nothing changed; the panel calls it every frame.
void sync_results_views(AppState& state);

// Draws every view of the last run (sync first). Lays out to the current
// content width: images scale to fit it.
void draw_results_views(AppState& state);

// What was built, one line per view: "image gray cpu 451x300", "matrix C
// gpu+cpu 4x4", "vector c input 1000", "scalar s missing"; a view drawn from a
// sample ends "sample-every K" ("vector c cpu 20000000 sample-every 5"). For scripts and tests.
std::vector<std::string> describe_results_views(AppState& state);

// Which path coloured the one-channel pictures (heat maps, gray images,
// differences) drawn so far: the shaders in shaders/, or the CPU fallback
// when they did not load. Pictures not yet drawn count in neither.
struct ShaderUse {
    bool loaded = false;  // the shaders built and are in use
    int shaded = 0;       // pictures coloured by the shaders
    int cpu = 0;          // pictures that could have been, coloured on the CPU
};
ShaderUse shader_use(AppState& state);

}  // namespace wb::app
