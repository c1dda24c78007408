// app/main.cpp — entry point of cuda-workbook, the desktop app.
//
// Parses the command line and hands over to run_app(); anything thrown that
// run_app did not expect is reported here as one line instead of a crash.
//
//   cuda-workbook [--lessons DIR] [--lesson ID] [--lang en|zh]
//   cuda-workbook --frames 20 --screenshot shot.png   (tests: render, save, exit)
//   cuda-workbook --script FILE                       (tests: drive the GUI; script.hpp)
#include "app_options.hpp"
#include "app_run.hpp"

#include "core/error.hpp"

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
    wb::app::ParsedOptions parsed = wb::app::parse_options(argc, argv);
    if (!parsed.help.empty()) {
        std::fputs(parsed.help.c_str(), stdout);
        return 0;
    }
    if (!parsed.error.empty()) {
        std::fprintf(stderr, "cuda-workbook: %s\n", parsed.error.c_str());
        return 2;
    }
    try {
        return wb::app::run_app(parsed.options);
    } catch (const wb::Error& e) {
        std::fprintf(stderr, "cuda-workbook: %s\n", e.describe().c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cuda-workbook: unexpected error: %s\n", e.what());
    }
    return 1;
}
