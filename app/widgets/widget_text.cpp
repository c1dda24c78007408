// app/widgets/widget_text.cpp — the widgets' words (widget_text.hpp).
#include "widgets/widget_text.hpp"

namespace wb::app {
namespace {
WidgetText g_text;
}  // namespace

const WidgetText& widget_text() { return g_text; }
void set_widget_text(const WidgetText& text) { g_text = text; }

}  // namespace wb::app
