// app/widgets/gl_texture.cpp — texture and framebuffer owners over glad's OpenGL 3.3 core functions.
#include "widgets/gl_texture.hpp"

#include <glad/gl.h>

#include <utility>

namespace wb::app {

bool gl_available() { return GLAD_GL_VERSION_3_3 != 0 && glad_glGenTextures != nullptr; }

GlTexture::~GlTexture() { reset(); }

GlTexture::GlTexture(GlTexture&& other) noexcept
    : id_(std::exchange(other.id_, 0)), width_(other.width_), height_(other.height_),
      internal_format_(other.internal_format_) {}

GlTexture& GlTexture::operator=(GlTexture&& other) noexcept {
    if (this != &other) {
        reset();
        id_ = std::exchange(other.id_, 0);
        width_ = other.width_;
        height_ = other.height_;
        internal_format_ = other.internal_format_;
    }
    return *this;
}

void GlTexture::reset() {
    if (id_ != 0 && gl_available()) {
        GLuint id = id_;
        glDeleteTextures(1, &id);
    }
    id_ = 0;
    width_ = height_ = 0;
}

bool GlTexture::ensure(int width, int height, int internal_format) {
    if (!gl_available() || width <= 0 || height <= 0) return false;
    if (id_ == 0) {
        GLuint id = 0;
        glGenTextures(1, &id);
        id_ = id;
        width_ = height_ = 0;
    }
    glBindTexture(GL_TEXTURE_2D, id_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    const bool resize = width != width_ || height != height_ || internal_format != internal_format_;
    width_ = width;
    height_ = height;
    internal_format_ = internal_format;
    return resize;
}

bool GlTexture::upload_rgba8(int width, int height, const uint8_t* rgba) {
    if (!gl_available() || width <= 0 || height <= 0) return false;
    GLint prev = 0;
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &prev);
    const bool resize = ensure(width, height, GL_RGBA8);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    if (resize) glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    else glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(prev));
    return true;
}

bool GlTexture::upload_r32f(int width, int height, const float* values) {
    if (!gl_available() || width <= 0 || height <= 0) return false;
    GLint prev = 0;
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &prev);
    const bool resize = ensure(width, height, GL_R32F);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    if (resize) glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, width, height, 0, GL_RED, GL_FLOAT, values);
    else glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RED, GL_FLOAT, values);
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(prev));
    return true;
}

bool GlTexture::allocate_rgba8(int width, int height) {
    if (!gl_available() || width <= 0 || height <= 0) return false;
    GLint prev = 0;
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &prev);
    if (ensure(width, height, GL_RGBA8))
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(prev));
    return true;
}

GlFramebuffer::~GlFramebuffer() {
    if (id_ != 0 && gl_available()) {
        GLuint id = id_;
        glDeleteFramebuffers(1, &id);
    }
}

std::string GlFramebuffer::attach(const GlTexture& target) {
    if (!gl_available()) return "no OpenGL context";
    if (!target.valid()) return "the target texture was not allocated";
    if (id_ == 0) {
        GLuint id = 0;
        glGenFramebuffers(1, &id);
        id_ = id;
    }
    GLint prev = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &prev);
    glBindFramebuffer(GL_FRAMEBUFFER, id_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target.id(), 0);
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(prev));
    if (status != GL_FRAMEBUFFER_COMPLETE) return "framebuffer incomplete (status " + std::to_string(status) + ")";
    return {};
}

}  // namespace wb::app
