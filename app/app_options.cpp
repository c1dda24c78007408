// app/app_options.cpp — parses the desktop app's command line (app_options.hpp).
// Hand-rolled: a dozen options do not justify a dependency, and every mistake
// gets a one-line message naming the option.
#include "app_options.hpp"

#include "core/phrase.hpp"

#include <charconv>
#include <cstdlib>
#include <string_view>

namespace wb::app {
namespace {

bool parse_int(std::string_view text, int& out) {
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc{} && ptr == end;
}

// "1280x800" -> width, height.
bool parse_size(std::string_view text, int& width, int& height) {
    auto x = text.find('x');
    if (x == std::string_view::npos) return false;
    return parse_int(text.substr(0, x), width) && parse_int(text.substr(x + 1), height) &&
           width >= 200 && height >= 150 && width <= 16384 && height <= 16384;
}

}  // namespace

std::string usage_text(const char* program) {
    std::string p = program ? program : "cuda-workbook";
    return "usage: " + p + " [options]\n"
           "\n"
           "CUDA Workbook: learn CUDA by writing kernels, one lesson at a time.\n"
           "\n"
           "options:\n"
           "  --lessons DIR       folder of lesson files (default: $WB_LESSONS_DIR, the\n"
           "                      source tree's lessons/, then the installed lessons)\n"
           "  --lesson ID         open the lesson with this id (default: the first one)\n"
           "  --lang en|zh        interface and lesson language (default: from $LANG)\n"
           "  --size WxH          window size in screen coordinates (default: the size\n"
           "                      it had last time, else 1280x800)\n"
           "  --frames N          render N frames, then exit (for tests)\n"
           "  --screenshot FILE   after the last frame, save the window as a PNG\n"
           "                      (needs --frames)\n"
           "  --script FILE       run the commands in FILE, one per frame, then exit\n"
           "                      (for tests; status 3 when a command fails)\n"
           "  --help              show this text\n"
           "\n"
           "Your edits are saved a second after typing, and at every orderly exit: the\n"
           "window closed, SIGTERM or SIGINT (Ctrl+C). Exit status: 0 closed, 1 could not\n"
           "start, 2 bad command line, 3 a script command failed, 143 or 130 ended by\n"
           "SIGTERM or SIGINT (128 + the signal's number; the edit was saved first).\n";
}

ParsedOptions parse_options(int argc, char** argv) {
    ParsedOptions result;
    AppOptions& o = result.options;
    for (int i = 1; i < argc; ++i) {
        std::string_view arg = argv[i];
        // Accept both "--opt value" and "--opt=value".
        std::string_view inline_value;
        bool has_inline = false;
        if (auto eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
            inline_value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
            has_inline = true;
        }
        auto value = [&](std::string_view& out) -> bool {
            if (has_inline) {
                out = inline_value;
                return true;
            }
            if (i + 1 >= argc) {
                result.error = std::string(arg) + " needs a value";
                return false;
            }
            out = argv[++i];
            return true;
        };
        std::string_view v;
        if (arg == "--help" || arg == "-h") {
            o.show_help = true;
        } else if (arg == "--lessons") {
            if (!value(v)) return result;
            o.lessons_dir = v;
        } else if (arg == "--lesson") {
            if (!value(v)) return result;
            o.lesson_id = v;
        } else if (arg == "--lang") {
            if (!value(v)) return result;
            if (v != "en" && v != "zh") {
                result.error = "--lang must be 'en' or 'zh', not '" + std::string(v) + "'";
                return result;
            }
            o.lang = v;
        } else if (arg == "--size") {
            if (!value(v)) return result;
            if (!parse_size(v, o.width, o.height)) {
                result.error = "--size wants WIDTHxHEIGHT, e.g. 1280x800, not '" + std::string(v) + "'";
                return result;
            }
            o.size_given = true;
        } else if (arg == "--frames") {
            if (!value(v)) return result;
            if (!parse_int(v, o.frames) || o.frames < 1) {
                result.error = "--frames wants a positive number, not '" + std::string(v) + "'";
                return result;
            }
        } else if (arg == "--script") {
            if (!value(v)) return result;
            o.script_path = v;
        } else if (arg == "--screenshot") {
            if (!value(v)) return result;
            o.screenshot_path = v;
        } else {
            result.error = "unknown option '" + std::string(argv[i]) + "' (try --help)";
            return result;
        }
    }
    if (!o.screenshot_path.empty() && o.frames == 0)
        result.error = "--screenshot needs --frames N, so the app knows which frame to save";
    if (o.lang.empty()) o.lang = wb::language_from_environment();  // core/phrase.hpp
    return result;
}

}  // namespace wb::app
