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
};

const WidgetText& widget_text();
// The pointers must outlive their use: the app passes string literals.
void set_widget_text(const WidgetText& text);

}  // namespace wb::app
