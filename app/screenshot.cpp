// app/screenshot.cpp — back buffer to PNG (screenshot.hpp). The PNG encoder is
// Debian's libstb: the header is included without STB_IMAGE_WRITE_IMPLEMENTATION
// because the implementation is already compiled into -lstb.
#include "screenshot.hpp"

#include <glad/gl.h>
#include <stb_image_write.h>

#include <cstddef>
#include <vector>

namespace wb::app {

bool save_back_buffer_png(int width, int height, const std::string& path, std::string& error) {
    if (width <= 0 || height <= 0) {
        error = "the window has no pixels to save (" + std::to_string(width) + "x" +
                std::to_string(height) + ")";
        return false;
    }
    const std::size_t row = static_cast<std::size_t>(width) * 3;
    std::vector<unsigned char> pixels(row * static_cast<std::size_t>(height));
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
    if (GLenum gl_error = glGetError(); gl_error != GL_NO_ERROR) {
        error = "glReadPixels failed with GL error " + std::to_string(gl_error);
        return false;
    }
    // GL's rows run bottom-up; PNG's run top-down.
    stbi_flip_vertically_on_write(1);
    int ok = stbi_write_png(path.c_str(), width, height, 3, pixels.data(), static_cast<int>(row));
    stbi_flip_vertically_on_write(0);
    if (ok == 0) {
        error = "could not write " + path;
        return false;
    }
    return true;
}

}  // namespace wb::app
