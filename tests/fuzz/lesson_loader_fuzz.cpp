// tests/fuzz/lesson_loader_fuzz.cpp — libFuzzer target for the lesson loader.
//
// The loader's promise (runtime/lesson/loader.hpp) is that any bytes give a
// lesson or a list of issues: no crash, no hang, no exception escaping, no
// undefined behaviour. This feeds every input to wb::load_lesson_text as the
// text of <tmp>/lessons/fuzz.json, beside a small side file and an assets
// folder, so file references and image inits are exercised too (and stay
// confined to that folder). Built and run by tests/fuzz/run_fuzz.sh with
// -fsanitize=fuzzer,address,undefined; see that script for how.
#include "lesson/loader.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

struct Sandbox {
    fs::path root, lesson, assets;
    Sandbox() {
        root = fs::temp_directory_path() / ("wb_fuzz_" + std::to_string(::getpid()));
        fs::create_directories(root / "lessons" / "fuzz");
        fs::create_directories(root / "assets");
        std::ofstream(root / "lessons" / "fuzz" / "kernel.cu") << "extern \"C\" __global__ void k(float* y) {}\n";
        std::ofstream(root / "lessons" / "fuzz" / "reference.cpp") << "void reference(float* y) {}\n";
        lesson = root / "lessons" / "fuzz.json";
        assets = root / "assets";
        if (const char* png = std::getenv("WB_FUZZ_PNG")) {
            std::error_code ec;
            fs::copy_file(png, assets / "pattern.png", fs::copy_options::overwrite_existing, ec);
        }
    }
    ~Sandbox() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static Sandbox sandbox;
    const std::string text(reinterpret_cast<const char*>(data), size);
    wb::LoadOptions options;
    options.assets_dir = sandbox.assets;
    try {
        wb::LoadResult r = wb::load_lesson_text(text, sandbox.lesson, options);
        // Either a lesson or issues, never both and never neither.
        if (r.ok() == !r.issues.empty()) std::abort();
        for (const wb::LessonIssue& issue : r.issues) (void)issue.to_string();
    } catch (const std::exception&) {
        // The loader must report problems as issues, not throw them.
        std::abort();
    }
    return 0;
}
