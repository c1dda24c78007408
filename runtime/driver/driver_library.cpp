// runtime/driver/driver_library.cpp — the driver libraries' lookup order (driver_library.hpp).
#include "driver/driver_library.hpp"

#include <cstdlib>
#include <dlfcn.h>
#include <link.h>

namespace wb {

std::vector<std::string> driver_library_candidates(const std::string& soname, const char* override_dir,
                                                   const std::string& wsl_dir) {
    std::vector<std::string> out;
    if (override_dir && *override_dir) out.push_back(std::string(override_dir) + "/" + soname);
    out.push_back(soname);
    if (!wsl_dir.empty()) out.push_back(wsl_dir + "/" + soname);
    return out;
}

DriverLibrary open_driver_library(const std::vector<std::string>& candidates) {
    DriverLibrary lib;
    for (const std::string& c : candidates) {
        dlerror();
        void* h = ::dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            const char* why = dlerror();
            lib.tried += (lib.tried.empty() ? "" : "; ") + c + ": " + (why ? why : "not loaded");
            continue;
        }
        lib.handle = h;
        lib.path = c;
        link_map* map = nullptr;
        if (dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name) lib.path = map->l_name;
        lib.tried.clear();
        return lib;
    }
    return lib;
}

DriverLibrary open_driver_library(const std::string& soname) {
    return open_driver_library(driver_library_candidates(soname, std::getenv("WB_CUDA_DRIVER_DIR")));
}

}  // namespace wb
