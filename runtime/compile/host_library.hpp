// runtime/compile/host_library.hpp — a shared library built by a host-side
// compiler from one translation unit, and cached.
//
// The one builder the CPU reference (reference/), the CPU emulator's kernels
// (emulate/build) and host steps (host/host_build, through nvcc) share: the
// compiler and its version, the flags and the text are the cache key.
#pragma once

#include "core/disk_cache.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace wb {

// A shared library built by the host compiler from one translation unit.
struct HostLibrary {
    bool ok = false;
    std::string log;                   // the compiler's whole output
    std::filesystem::path library;     // the .so, when ok
    std::vector<std::string> command;  // the compiler command line
    int exit_code = 0;
    double seconds = 0;                // build time (0 when cached)
    bool from_cache = false;
};

// A compiler other than the host C++ compiler: its command's first words,
// its version text (part of the cache key) and the file name its source needs.
struct LibraryCompiler {
    std::vector<std::string> command;
    std::string version;
    std::string source_suffix = ".cpp";
};

// Compiles `tu` with the host compiler (c++ or $CXX), or `compiler` when
// given, and `flags` into a shared library cached in the `kind` cache folder,
// keyed on `cache_tag`, the compiler and its version, the flags and the text.
HostLibrary build_host_library(const std::string& tu, const std::vector<std::string>& flags, CacheKind kind,
                               const std::string& cache_tag, const LibraryCompiler* compiler = nullptr);

// Every compiler run gets a scratch folder of its own as its TMPDIR (nvcc's
// tmpxft_* files, the host compiler's temporaries), made under
// compiler_scratch_root(the building process's pid) = <cache>/scratch/<pid>
// (in a contained worker /tmp/scratch/<pid>, the run's scratch) before the
// compiler starts and removed with all it holds when the compiler ends,
// however it ends. A process killed while its compiler runs (a worker at
// its deadline, with its process group) cannot remove it: its supervisor calls
// remove_compiler_scratch(pid) once the process is reaped, and a process's
// first build removes the folders of processes that no longer exist.
std::filesystem::path compiler_scratch_root(long pid);
void remove_compiler_scratch(long pid);

// `<command> --version`'s output, run once per process per command; nullopt
// when it does not run or fails.
std::optional<std::string> tool_version(const std::vector<std::string>& command);

}  // namespace wb
