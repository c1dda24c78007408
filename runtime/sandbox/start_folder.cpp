// runtime/sandbox/start_folder.cpp — the worker leaves its working folder
// for an empty, removed one, and keeps the one it started in to resolve the
// relative paths its requests name (sandbox.hpp: leave_working_folder,
// from_start_folder). Apart from the rest of the sandbox, so the wire codec,
// which resolves a request's lesson path, needs nothing else of it.
#include "sandbox/sandbox.hpp"

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include <unistd.h>

namespace fs = std::filesystem;

namespace wb {

namespace {
fs::path g_start_folder;  // set once, before the worker reads its first request
}  // namespace

void leave_working_folder() {
    std::error_code ec;
    const fs::path start = fs::current_path(ec);
    if (ec) return;
    for (const char* var : {"CUDA_HOME", "CUDA_PATH", "WB_CUDA_DRIVER_DIR"})
        if (const char* v = std::getenv(var); v && *v && !fs::path(v).is_absolute())
            ::setenv(var, (start / v).lexically_normal().c_str(), 1);
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp && fs::path(tmp).is_absolute() ? tmp : "/tmp") + "/wb-worker-XXXXXX";
    if (!::mkdtemp(pattern.data())) return;
    if (::chdir(pattern.c_str()) != 0) {
        ::rmdir(pattern.c_str());
        return;
    }
    ::rmdir(pattern.c_str());
    g_start_folder = start;
}

fs::path from_start_folder(const fs::path& p) {
    if (p.empty() || p.is_absolute() || g_start_folder.empty()) return p;
    return (g_start_folder / p).lexically_normal();
}

}  // namespace wb
