// runtime/driver/driver_library.hpp — where the NVIDIA driver's own libraries are looked for.
//
// libcuda.so.1 and libnvidia-ml.so.1 come with the driver, not with the CUDA Toolkit, and are
// opened with dlopen (never linked), so the workbook starts without them. They are looked for in
// this order, and the first that loads is used:
//   1. $WB_CUDA_DRIVER_DIR/<name>, when set: a driver outside the loader's search path;
//   2. <name> through the dynamic loader's own search (LD_LIBRARY_PATH, then ld.so.cache): a
//      native Linux driver, and WSL2 where /etc/ld.so.conf.d/ld.wsl.conf lists /usr/lib/wsl/lib;
//   3. /usr/lib/wsl/lib/<name>: WSL2's driver, which the Windows driver provides there, for WSL2
//      systems whose loader cache misses it (a distribution imported without ld.wsl.conf).
#pragma once

#include <string>
#include <vector>

namespace wb {

// WSL2's folder for the Windows driver's Linux libraries.
inline constexpr const char* kWslDriverDir = "/usr/lib/wsl/lib";

// The paths tried for `soname`, in order. `override_dir` is $WB_CUDA_DRIVER_DIR (empty or null
// when unset); `wsl_dir` is kWslDriverDir except in tests.
std::vector<std::string> driver_library_candidates(const std::string& soname, const char* override_dir,
                                                   const std::string& wsl_dir = kWslDriverDir);

struct DriverLibrary {
    void* handle = nullptr;  // from dlopen, RTLD_NOW | RTLD_LOCAL; null when none loaded
    std::string path;        // the file that loaded, as the loader resolved it
    std::string tried;       // when none loaded: each candidate and dlerror()'s reason, "; "-separated
};

// Opens the first candidate that loads. The handle is the caller's to keep or dlclose.
DriverLibrary open_driver_library(const std::vector<std::string>& candidates);

// open_driver_library(driver_library_candidates(soname, getenv("WB_CUDA_DRIVER_DIR"))).
DriverLibrary open_driver_library(const std::string& soname);

}  // namespace wb
