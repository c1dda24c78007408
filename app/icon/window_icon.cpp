// app/icon/window_icon.cpp — decodes the embedded icon PNGs (window_icon.hpp).
#include "icon/window_icon.hpp"

#include <stb_image.h>

#include <cstring>

namespace wb::app {

std::vector<IconImage> window_icons(std::string& error) {
    std::vector<IconImage> out;
    int index = 0;
    for (const EmbeddedPng& png : embedded_icon_pngs()) {
        int w = 0, h = 0, n = 0;
        stbi_uc* pixels = stbi_load_from_memory(png.data, static_cast<int>(png.size), &w, &h, &n, 4);
        if (pixels == nullptr) {
            error = "window icon " + std::to_string(index) + " does not decode: " + stbi_failure_reason();
        } else {
            IconImage img;
            img.width = w;
            img.height = h;
            img.rgba.assign(pixels, pixels + std::size_t(w) * std::size_t(h) * 4);
            stbi_image_free(pixels);
            out.push_back(std::move(img));
        }
        ++index;
    }
    return out;
}

}  // namespace wb::app
