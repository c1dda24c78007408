// app/app_options.cpp — reads the desktop app's command line with CLI11 (app_options.hpp).
// --help is generated from the options below; every mistake is one line that
// names the option and what was wrong with the value.
#include "app_options.hpp"

#include "core/option_error.hpp"
#include "core/phrase.hpp"

#include <CLI/CLI.hpp>

#include <charconv>
#include <memory>
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

// A CLI11 check: `ok` says whether the text is a good value; the error is
// CLI11's "--option: " followed by `wants` and the text given.
CLI::Validator wanting(const char* wants, bool (*ok)(const std::string&)) {
    return CLI::Validator(
        [wants, ok](std::string& v) { return ok(v) ? std::string() : std::string(wants) + ", not '" + v + "'"; }, "");
}

constexpr const char* kAbout = "CUDA Workbook: learn CUDA by writing kernels, one lesson at a time.\n";

constexpr const char* kFooter =
    "Your edits are saved a second after typing, and at every orderly exit: the\n"
    "window closed, SIGTERM or SIGINT (Ctrl+C). Exit status: 0 closed, 1 could not\n"
    "start, 2 bad command line, 3 a script command failed, 143 or 130 ended by\n"
    "SIGTERM or SIGINT (128 + the signal's number; the edit was saved first).\n";

// The usage line, the paragraph, the options CLI11 lists, then the footer.
class HelpFormatter : public CLI::Formatter {
public:
    HelpFormatter() { column_width(22); }
    std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override {
        return "Usage: " + name + " [options]\n\n" + app->get_description() + make_groups(app, mode) + "\n" +
               app->get_footer();
    }
};

// The error in the workbook's words (core/option_error.hpp).
std::string in_our_words(const CLI::ParseError& e) {
    return option_error_in_our_words(e.what(), dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr);
}

}  // namespace

ParsedOptions parse_options(int argc, char** argv) {
    ParsedOptions result;
    AppOptions& o = result.options;
    CLI::App app{kAbout, "cuda-workbook"};
    app.formatter(std::make_shared<HelpFormatter>());
    app.footer(kFooter);
    app.set_help_flag("-h,--help", "show this text");
    app.allow_extras();  // an unknown option is said below, in our words
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);

    app.add_option("--lessons", o.lessons_dir,
                   "folder of lesson files (default: $WB_LESSONS_DIR, the\n"
                   "source tree's lessons/, then the installed lessons)")
        ->option_text("DIR");
    app.add_option("--lesson", o.lesson_id, "open the lesson with this id (default: the first one)")->option_text("ID");
    app.add_option("--lang", o.lang, "interface and lesson language (default: from $LANG)")
        ->option_text("en|zh|zh-Hant")
        ->check(wanting("wants en, zh (Simplified Chinese) or zh-Hant (Traditional Chinese)",
                        [](const std::string& v) { return v == "en" || v == "zh" || v == "zh-Hant"; }));
    app.add_option_function<std::string>(
           "--size",
           [&o](const std::string& v) {
               parse_size(v, o.width, o.height);
               o.size_given = true;
           },
           "window size in screen coordinates (default: the size\nit had last time, else 1280x800)")
        ->option_text("WxH")
        ->check(wanting("wants WIDTHxHEIGHT from 200x150 to 16384x16384, e.g. 1280x800", [](const std::string& v) {
            int w = 0, h = 0;
            return parse_size(v, w, h);
        }));
    app.add_option("--frames", o.frames, "render N frames, then exit (for tests)")
        ->option_text("N")
        ->check(wanting("wants a positive number", [](const std::string& v) {
            int n = 0;
            return parse_int(v, n) && n >= 1;
        }));
    app.add_option("--screenshot", o.screenshot_path, "after the last frame, save the window as a PNG\n(needs --frames)")
        ->option_text("FILE");
    app.add_option("--script", o.script_path,
                   "run the commands in FILE, one per frame, then exit\n(for tests; status 3 when a command fails)")
        ->option_text("FILE");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        result.help = app.help();
        return result;
    } catch (const CLI::ParseError& e) {
        result.error = in_our_words(e) + " (try --help)";
        return result;
    }
    if (const auto stray = app.remaining(); !stray.empty()) {
        result.error = (stray[0].rfind('-', 0) == 0 ? "unknown option '" : "unexpected word '") + stray[0] + "' (try --help)";
        return result;
    }
    if (!o.screenshot_path.empty() && o.frames == 0)
        result.error = "--screenshot needs --frames N, so the app knows which frame to save";
    if (o.lang.empty()) o.lang = wb::language_from_environment();  // core/phrase.hpp
    return result;
}

}  // namespace wb::app
