// app/widgets/widget_text.hpp — the few words the widgets draw themselves
// (hints, table headings, the find bar's label), in the window's language.
//
// The widgets know no languages: the app hands them its words once per
// frame (set_widget_text) from its own table (app/ui_text.cpp). Until then
// they say them in English, which is what the widget tests see.
#pragma once

namespace wb::app {

struct WidgetText {
    const char* zoom_help = "wheel: zoom   drag: pan   double-click: fit";
    const char* no_picture = "(no picture for this shape)";
    const char* mismatch = "mismatch";
    const char* row_column = "row %zu, column %zu";  // the heat map's tooltip
    const char* index = "index";
    const char* first_values = "first %zu of %zu values";
    const char* sampled_values = "a sample of the %zu values, one in %zu; the indices are the whole buffer's";
    const char* find = "Find";
    const char* no_runs = "No runs yet.";
    const char* run = "run";                        // the history plot's x axis
    const char* value = "value";
    const char* values_drawn = "%zu values, drawn 1 in %zu (each bucket's extreme kept)";
    const char* mismatched_pixels = "  %zu mismatched";                       // beside an image triplet's titles
    const char* mismatched_cells = "%zu mismatched cells (outlined when zoomed in)";
    const char* mismatched_cell = "1 mismatched cell (outlined when zoomed in)";
    // The timeline view (timeline_view.hpp).
    const char* timeline_lane = "GPU %d · stream %u";
    const char* timeline_kernel = "kernel";
    const char* timeline_copy = "%s copy";                      // "HtoD copy"
    const char* timeline_start_duration = "start %s, duration %s";
    const char* timeline_bytes_rate = "%s at %.1f GB/s";
    const char* timeline_grid_block = "grid %d×%d×%d, block %d×%d×%d";
    const char* timeline_in_graph = "launched in a CUDA Graph";
    const char* timeline_pageable = "pageable host memory: the driver stages it, so it cannot overlap a kernel";
    const char* timeline_pageable_short = "pageable";
    const char* timeline_past_return = "still running when run() returned";
    const char* timeline_returned = "run() returned";
    const char* timeline_nothing = "run() made no kernel, copy or memset on a GPU.";
};

const WidgetText& widget_text();
// The pointers must outlive their use: the app passes string literals.
void set_widget_text(const WidgetText& text);

}  // namespace wb::app
