// app/panel_rect.hpp — a panel's place on the screen: what the layout hands
// each panel (layout.hpp) and the panels draw into (panels/panel.hpp).
#pragma once

#include <imgui.h>

namespace wb::app {

struct PanelRect {
    ImVec2 pos;
    ImVec2 size;
};

}  // namespace wb::app
