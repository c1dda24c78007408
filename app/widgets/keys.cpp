// app/widgets/keys.cpp — wb::app::Key on ImGui 1.86's GLFW key codes, or on ImGuiKey from 1.87.
#include "widgets/keys.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <array>
#include <utility>

namespace wb::app {
namespace {

constexpr int kFunctionKeys = 12;

int offset(Key key, Key first) { return static_cast<int>(key) - static_cast<int>(first); }
bool in_range(Key key, Key first, Key last) {
    return static_cast<int>(key) >= static_cast<int>(first) && static_cast<int>(key) <= static_cast<int>(last);
}

#if IMGUI_VERSION_NUM >= 18700
// ImGui 1.87 and later: every key has an ImGuiKey.
ImGuiKey native(Key key) {
    if (in_range(key, Key::A, Key::Z)) return static_cast<ImGuiKey>(ImGuiKey_A + offset(key, Key::A));
    if (in_range(key, Key::Digit0, Key::Digit9)) return static_cast<ImGuiKey>(ImGuiKey_0 + offset(key, Key::Digit0));
    if (in_range(key, Key::F1, Key::F12)) return static_cast<ImGuiKey>(ImGuiKey_F1 + offset(key, Key::F1));
    switch (key) {
    case Key::Enter: return ImGuiKey_Enter;
    case Key::KeypadEnter: return ImGuiKey_KeypadEnter;
    case Key::Tab: return ImGuiKey_Tab;
    case Key::Backspace: return ImGuiKey_Backspace;
    case Key::Delete: return ImGuiKey_Delete;
    case Key::Escape: return ImGuiKey_Escape;
    case Key::Left: return ImGuiKey_LeftArrow;
    case Key::Right: return ImGuiKey_RightArrow;
    case Key::Up: return ImGuiKey_UpArrow;
    case Key::Down: return ImGuiKey_DownArrow;
    case Key::PageUp: return ImGuiKey_PageUp;
    case Key::PageDown: return ImGuiKey_PageDown;
    case Key::Home: return ImGuiKey_Home;
    case Key::End: return ImGuiKey_End;
    case Key::Equal: return ImGuiKey_Equal;
    case Key::Minus: return ImGuiKey_Minus;
    case Key::KeypadAdd: return ImGuiKey_KeypadAdd;
    case Key::KeypadSubtract: return ImGuiKey_KeypadSubtract;
    case Key::Keypad0: return ImGuiKey_Keypad0;
    case Key::LeftCtrl: return ImGuiKey_LeftCtrl;
    case Key::LeftShift: return ImGuiKey_LeftShift;
    case Key::LeftAlt: return ImGuiKey_LeftAlt;
    default: return ImGuiKey_None;
    }
}
#else
// ImGui 1.86: the GLFW backend indexes io.KeysDown[] by GLFW key code.
int native(Key key) {
    if (in_range(key, Key::A, Key::Z)) return GLFW_KEY_A + offset(key, Key::A);
    if (in_range(key, Key::Digit0, Key::Digit9)) return GLFW_KEY_0 + offset(key, Key::Digit0);
    if (in_range(key, Key::F1, Key::F12)) return GLFW_KEY_F1 + offset(key, Key::F1);
    switch (key) {
    case Key::Enter: return GLFW_KEY_ENTER;
    case Key::KeypadEnter: return GLFW_KEY_KP_ENTER;
    case Key::Tab: return GLFW_KEY_TAB;
    case Key::Backspace: return GLFW_KEY_BACKSPACE;
    case Key::Delete: return GLFW_KEY_DELETE;
    case Key::Escape: return GLFW_KEY_ESCAPE;
    case Key::Left: return GLFW_KEY_LEFT;
    case Key::Right: return GLFW_KEY_RIGHT;
    case Key::Up: return GLFW_KEY_UP;
    case Key::Down: return GLFW_KEY_DOWN;
    case Key::PageUp: return GLFW_KEY_PAGE_UP;
    case Key::PageDown: return GLFW_KEY_PAGE_DOWN;
    case Key::Home: return GLFW_KEY_HOME;
    case Key::End: return GLFW_KEY_END;
    case Key::Equal: return GLFW_KEY_EQUAL;
    case Key::Minus: return GLFW_KEY_MINUS;
    case Key::KeypadAdd: return GLFW_KEY_KP_ADD;
    case Key::KeypadSubtract: return GLFW_KEY_KP_SUBTRACT;
    case Key::Keypad0: return GLFW_KEY_KP_0;
    case Key::LeftCtrl: return GLFW_KEY_LEFT_CONTROL;
    case Key::LeftShift: return GLFW_KEY_LEFT_SHIFT;
    case Key::LeftAlt: return GLFW_KEY_LEFT_ALT;
    default: return -1;
    }
}
#endif

}  // namespace

bool key_pressed(Key key, bool repeat) { return ImGui::IsKeyPressed(native(key), repeat); }

std::optional<Key> key_from_name(std::string_view name) {
    if (name == "ctrl") return Key::LeftCtrl;
    if (name == "shift") return Key::LeftShift;
    if (name == "alt") return Key::LeftAlt;
    if (name == "enter") return Key::Enter;
    if (name == "tab") return Key::Tab;
    if (name == "escape") return Key::Escape;
    if (name == "backspace") return Key::Backspace;
    if (name == "equal") return Key::Equal;
    if (name == "minus") return Key::Minus;
    if (name.size() == 1 && name[0] >= 'a' && name[0] <= 'z')
        return static_cast<Key>(static_cast<int>(Key::A) + (name[0] - 'a'));
    if (name.size() == 1 && name[0] >= '0' && name[0] <= '9')
        return static_cast<Key>(static_cast<int>(Key::Digit0) + (name[0] - '0'));
    if (name.size() >= 2 && name.size() <= 3 && name[0] == 'f') {
        int n = 0;
        for (char ch : name.substr(1)) {
            if (ch < '0' || ch > '9') return std::nullopt;
            n = n * 10 + (ch - '0');
        }
        if (n >= 1 && n <= kFunctionKeys) return static_cast<Key>(static_cast<int>(Key::F1) + n - 1);
    }
    return std::nullopt;
}

void set_key_down(ImGuiIO& io, Key key, bool down) {
#if IMGUI_VERSION_NUM >= 18700
    io.AddKeyEvent(native(key), down);
#if IMGUI_VERSION_NUM >= 18900
    constexpr ImGuiKey kCtrl = ImGuiMod_Ctrl, kShift = ImGuiMod_Shift, kAlt = ImGuiMod_Alt;
#else
    constexpr ImGuiKey kCtrl = ImGuiKey_ModCtrl, kShift = ImGuiKey_ModShift, kAlt = ImGuiKey_ModAlt;
#endif
    if (key == Key::LeftCtrl) io.AddKeyEvent(kCtrl, down);
    if (key == Key::LeftShift) io.AddKeyEvent(kShift, down);
    if (key == Key::LeftAlt) io.AddKeyEvent(kAlt, down);
#else
    io.KeysDown[native(key)] = down;
    if (key == Key::LeftCtrl) io.KeyCtrl = down;
    if (key == Key::LeftShift) io.KeyShift = down;
    if (key == Key::LeftAlt) io.KeyAlt = down;
#endif
}

void use_backend_key_map(ImGuiIO& io) {
#if IMGUI_VERSION_NUM < 18700
    // As imgui_impl_glfw.cpp 1.86 fills it: ImGui's own widgets read these keys through the map.
    const std::array<std::pair<ImGuiKey, Key>, 20> map{{
        {ImGuiKey_Tab, Key::Tab},         {ImGuiKey_LeftArrow, Key::Left},   {ImGuiKey_RightArrow, Key::Right},
        {ImGuiKey_UpArrow, Key::Up},      {ImGuiKey_DownArrow, Key::Down},   {ImGuiKey_PageUp, Key::PageUp},
        {ImGuiKey_PageDown, Key::PageDown}, {ImGuiKey_Home, Key::Home},      {ImGuiKey_End, Key::End},
        {ImGuiKey_Delete, Key::Delete},   {ImGuiKey_Backspace, Key::Backspace}, {ImGuiKey_Enter, Key::Enter},
        {ImGuiKey_Escape, Key::Escape},   {ImGuiKey_KeyPadEnter, Key::KeypadEnter}, {ImGuiKey_A, Key::A},
        {ImGuiKey_C, Key::C},             {ImGuiKey_V, Key::V},              {ImGuiKey_X, Key::X},
        {ImGuiKey_Y, Key::Y},             {ImGuiKey_Z, Key::Z},
    }};
    for (const auto& [imgui_key, key] : map) io.KeyMap[imgui_key] = native(key);
#else
    (void)io;
#endif
}

}  // namespace wb::app
