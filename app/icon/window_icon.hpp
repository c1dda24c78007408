// app/icon/window_icon.hpp — the window's icon, in the sizes desktops ask for.
//
// The PNGs are rendered from assets/icon/cuda-workbook.svg at build time by
// librsvg's rsvg-convert and compiled into the program (embed_icons.cmake).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace wb::app {

struct EmbeddedPng {
    const unsigned char* data;
    std::size_t size;
};

// The PNG files, smallest first (generated).
std::vector<EmbeddedPng> embedded_icon_pngs();

struct IconImage {
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgba;  // width * height * 4, rows top to bottom
};

// The icons decoded; a PNG that does not decode is left out and named in `error`.
std::vector<IconImage> window_icons(std::string& error);

}  // namespace wb::app
