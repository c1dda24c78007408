// app/widgets/gl_texture.hpp — RAII owners for the OpenGL textures and framebuffers the result views draw.
//
// Every GL call in the widgets goes through these few types, so logic paths
// (to_rgba, hover lookups) never touch GL and run in a headless test.
// gl_available() says whether a context with loaded functions exists; views
// draw a plain placeholder when it does not.
#pragma once

#include <cstdint>
#include <string>

namespace wb::app {

// True when glad has loaded OpenGL 3.3 functions (a window made a context).
bool gl_available();

class GlTexture {
public:
    GlTexture() = default;
    ~GlTexture();
    GlTexture(const GlTexture&) = delete;
    GlTexture& operator=(const GlTexture&) = delete;
    GlTexture(GlTexture&& other) noexcept;
    GlTexture& operator=(GlTexture&& other) noexcept;

    // Uploads width x height RGBA8 pixels (row 0 at the top), nearest filtering
    // so a zoomed image shows its pixels as squares. Returns false without GL.
    bool upload_rgba8(int width, int height, const uint8_t* rgba);
    // Uploads one float per pixel (GL_R32F), for the shader colour maps.
    bool upload_r32f(int width, int height, const float* values);
    // Allocates an RGBA8 texture to render into (contents undefined).
    bool allocate_rgba8(int width, int height);

    unsigned id() const { return id_; }
    int width() const { return width_; }
    int height() const { return height_; }
    bool valid() const { return id_ != 0; }
    void reset();

private:
    bool ensure(int width, int height, int internal_format);
    unsigned id_ = 0;
    int width_ = 0, height_ = 0;
    int internal_format_ = 0;
};

// A framebuffer with one colour attachment, for rendering a colour map into a texture.
class GlFramebuffer {
public:
    GlFramebuffer() = default;
    ~GlFramebuffer();
    GlFramebuffer(const GlFramebuffer&) = delete;
    GlFramebuffer& operator=(const GlFramebuffer&) = delete;

    // Attaches `target`; returns an empty string or why the framebuffer is incomplete.
    std::string attach(const GlTexture& target);
    unsigned id() const { return id_; }

private:
    unsigned id_ = 0;
};

}  // namespace wb::app
