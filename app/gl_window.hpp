// app/gl_window.hpp — the one GLFW window with its OpenGL 3.3 core context.
//
// Owns GLFW itself (init/terminate) as well as the window, because the app has
// exactly one window and the two lifetimes are the same. Creating it loads our
// GL entry points through glad. Failure (no display, no GL 3.3) comes back as
// a message for the user, never as an exit.
#pragma once

#include <memory>
#include <string>

struct GLFWwindow;

namespace wb::app {

struct WindowSpec {
    std::string title = "CUDA Workbook";
    int width = 1280;   // screen coordinates
    int height = 800;
    bool vsync = true;
};

class GlWindow {
public:
    // nullptr on failure, with `error` saying why in a sentence.
    static std::unique_ptr<GlWindow> create(const WindowSpec& spec, std::string& error);
    ~GlWindow();
    GlWindow(const GlWindow&) = delete;
    GlWindow& operator=(const GlWindow&) = delete;

    GLFWwindow* handle() const { return window_; }
    bool should_close() const;
    void swap_buffers();
    // Pixels per screen coordinate the desktop asks for (1 on a plain display,
    // 2 on a HiDPI one); fonts and style sizes are multiplied by it.
    float content_scale() const;
    void framebuffer_size(int& width, int& height) const;
    void window_size(int& width, int& height) const;
    std::string gl_renderer() const;  // "llvmpipe (LLVM 15.0.6, 256 bits)" and the like
    std::string gl_version() const;

private:
    GlWindow() = default;
    GLFWwindow* window_ = nullptr;
    bool glfw_initialised_ = false;
};

}  // namespace wb::app
