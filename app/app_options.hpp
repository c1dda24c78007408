// app/app_options.hpp — the desktop app's command line.
//
// Besides the everyday options (--lessons, --lesson, --lang) there are test
// hooks: --frames renders a fixed number of frames and exits, and --screenshot
// saves the last one as a PNG, so CI can open the real window under Xvfb and
// check what it drew.
#pragma once

#include <string>

namespace wb::app {

struct AppOptions {
    std::string lessons_dir;      // empty: search the usual places (lesson_catalog.hpp)
    std::string lesson_id;        // empty: the first lesson in the folder
    std::string lang;             // "en" or "zh"; empty: from $LANG
    int frames = 0;               // 0: run until the window is closed
    std::string screenshot_path;  // PNG written after the last frame; needs frames > 0
    std::string script_path;      // --script: drive the GUI from a command file (script.hpp)
    int width = 1280;
    int height = 800;
    bool size_given = false;      // --size: use it instead of the remembered window size
};

struct ParsedOptions {
    AppOptions options;
    std::string help;   // non-empty: --help was given; print this (generated from the options) and exit 0
    std::string error;  // non-empty: a usage mistake, said in one line
};

// Reads argv with CLI11 (libcli11-dev); $LANG decides the language when --lang is absent.
ParsedOptions parse_options(int argc, char** argv);

}  // namespace wb::app
