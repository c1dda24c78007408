// app/panels/inside_views.hpp — the results panel's Resources, PTX and SASS
// tabs: the editor's text as the compiler sees it (runtime/inspect/).
//
// Resources lists ptxas's figures per kernel and the occupancy at the launch
// panel's block and shared memory, with a bar per block size (the current one
// marked), from NVIDIA's occupancy calculator over the GPU's limits or, with
// no GPU, the target architecture's. PTX and SASS list the instructions under
// the student's source lines: the editor's caret line is highlighted there,
// a click on an instruction moves the caret to its line, and a search box
// keeps the lines that contain its text.
#pragma once

namespace wb {
struct RunResult;
}

namespace wb::app {

struct AppState;

void draw_resources_tab(AppState& state);
void draw_ptx_tab(AppState& state);
void draw_sass_tab(AppState& state);
// The Roofline tab (roofline_tab.cpp): this step's runs under the measured roofs.
void draw_roofline_tab(AppState& state);
// The Sweep tab (sweep_tab.cpp): the step across block sizes or a param's values.
void draw_sweep_tab(AppState& state);
// The Timeline tab (timeline_tab.cpp): a host step's run() and what the GPUs did meanwhile.
void draw_timeline_tab(AppState& state);
// The target line of the last run, when it has one (also on the Timings tab).
void draw_target_line(AppState& state, const RunResult& r);

}  // namespace wb::app
