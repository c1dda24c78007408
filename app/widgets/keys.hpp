// app/widgets/keys.hpp — the keys the workbook reads, named once for every Dear ImGui it builds
// against.
//
// Dear ImGui 1.86 (Debian 12) names only a few keys: its GLFW backend writes io.KeysDown[] by
// GLFW key code, and code asks ImGui::IsKeyPressed(GLFW_KEY_S). From 1.87 on (1.90.1 on Debian 13
// and Ubuntu 24.04) every key is an ImGuiKey, the backend feeds io.AddKeyEvent(), and the old
// arrays are no longer filled. Panels, widgets and the test script ask for a wb::app::Key; this
// file alone knows which ImGui it was compiled against.
#pragma once

#include <optional>
#include <string_view>

struct ImGuiIO;

namespace wb::app {

enum class Key {
    Enter, KeypadEnter, Tab, Backspace, Delete, Escape,
    Left, Right, Up, Down, PageUp, PageDown, Home, End,
    Equal, Minus, KeypadAdd, KeypadSubtract, Keypad0,
    LeftCtrl, LeftShift, LeftAlt,
    A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X, Y, Z,
    Digit0, Digit1, Digit2, Digit3, Digit4, Digit5, Digit6, Digit7, Digit8, Digit9,
    F1, F2, F3, F4, F5, F6, F7, F8, F9, F10, F11, F12,
};

// Whether the key went down this frame (and, with repeat, whether it repeated).
bool key_pressed(Key key, bool repeat = true);

// A key by the name the test script uses: "ctrl", "shift", "alt", "enter", "tab", "escape",
// "backspace", "equal", "minus", "a".."z", "0".."9", "f1".."f12". Empty for any other name.
std::optional<Key> key_from_name(std::string_view name);

// Holds a key down or lets it go, as the GLFW backend would: the test script and the headless
// widget tests drive the app through this. LeftCtrl, LeftShift and LeftAlt also set the modifier.
void set_key_down(ImGuiIO& io, Key key, bool down);

// A headless context (no backend) set up as the GLFW backend sets up the app's: on ImGui 1.86,
// the key map its own widgets read; on later versions, nothing is needed.
void use_backend_key_map(ImGuiIO& io);

}  // namespace wb::app
