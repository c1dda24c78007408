// app/gl_window.cpp — GLFW window and GL context (gl_window.hpp).
#include "gl_window.hpp"

#include "icon/window_icon.hpp"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cstdio>
#include <vector>

namespace wb::app {
namespace {

// GLFW reports the reason for a failure through this callback only; keep the
// latest one so create() can pass it on ("X11: The DISPLAY environment
// variable is missing" is far more useful than "glfwInit failed").
std::string g_last_glfw_error;

void on_glfw_error(int code, const char* description) {
    g_last_glfw_error = description ? description : "unknown GLFW error";
    (void)code;
}

std::string take_glfw_error() {
    std::string message = g_last_glfw_error.empty() ? "no reason given" : g_last_glfw_error;
    g_last_glfw_error.clear();
    return message;
}

}  // namespace

std::unique_ptr<GlWindow> GlWindow::create(const WindowSpec& spec, std::string& error) {
    std::unique_ptr<GlWindow> self(new GlWindow());
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) {
        error = "cannot start the windowing system (GLFW): " + take_glfw_error() +
                ". Is there a display? Under CI, run through xvfb-run.";
        return nullptr;
    }
    self->glfw_initialised_ = true;

    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    // Let the desktop's scale decide the window's pixel size on HiDPI screens.
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    self->window_ = glfwCreateWindow(spec.width, spec.height, spec.title.c_str(), nullptr, nullptr);
    if (self->window_ == nullptr) {
        error = "cannot open a window with an OpenGL 3.3 core context: " + take_glfw_error() +
                ". The graphics driver must support OpenGL 3.3.";
        return nullptr;
    }
    // The icon in every size, so the desktop picks the one it draws. A window
    // without it still works: the reason goes to stderr.
    std::string icon_error;
    std::vector<IconImage> icons = window_icons(icon_error);
    if (!icon_error.empty()) std::fprintf(stderr, "cuda-workbook: %s\n", icon_error.c_str());
    std::vector<GLFWimage> images;
    for (IconImage& icon : icons) images.push_back(GLFWimage{icon.width, icon.height, icon.rgba.data()});
    if (!images.empty()) glfwSetWindowIcon(self->window_, static_cast<int>(images.size()), images.data());
    glfwMakeContextCurrent(self->window_);
    if (gladLoadGL(glfwGetProcAddress) == 0) {
        error = "the OpenGL context was made but its functions could not be loaded (glad)";
        return nullptr;
    }
    glfwSwapInterval(spec.vsync ? 1 : 0);
    return self;
}

GlWindow::~GlWindow() {
    if (window_ != nullptr) glfwDestroyWindow(window_);
    if (glfw_initialised_) glfwTerminate();
}

bool GlWindow::should_close() const { return glfwWindowShouldClose(window_) != 0; }

void GlWindow::swap_buffers() { glfwSwapBuffers(window_); }

float GlWindow::content_scale() const {
    float x = 1.0f, y = 1.0f;
    glfwGetWindowContentScale(window_, &x, &y);
    return x > 0.0f ? x : 1.0f;
}

void GlWindow::framebuffer_size(int& width, int& height) const {
    glfwGetFramebufferSize(window_, &width, &height);
}

void GlWindow::window_size(int& width, int& height) const {
    glfwGetWindowSize(window_, &width, &height);
}

std::string GlWindow::gl_renderer() const {
    const GLubyte* s = glGetString(GL_RENDERER);
    return s ? reinterpret_cast<const char*>(s) : "unknown";
}

std::string GlWindow::gl_version() const {
    const GLubyte* s = glGetString(GL_VERSION);
    return s ? reinterpret_cast<const char*>(s) : "unknown";
}

}  // namespace wb::app
