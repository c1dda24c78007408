// app/screenshot.hpp — saves the current GL back buffer as a PNG.
//
// Used by the --screenshot test hook: call it after the frame is rendered and
// before the buffers are swapped, while the back buffer still holds the frame.
#pragma once

#include <string>

namespace wb::app {

// Reads width x height pixels of the back buffer and writes them as an RGB
// PNG at `path`. Returns false with `error` set when reading or writing fails.
bool save_back_buffer_png(int width, int height, const std::string& path, std::string& error);

}  // namespace wb::app
