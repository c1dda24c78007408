// runtime/host/host_build.hpp — a host step's file, built by nvcc into a shared library.
//
// The student's file (kernels plus `extern "C" int run(wb_host_ctx*)`) is
// compiled by the toolkit's nvcc after host/include/wb_host.h:
//
//     nvcc -shared -Xcompiler -fPIC -lineinfo -O2 -std=c++17 -arch=sm_XX -cudart shared
//          -Xlinker --no-undefined -Xlinker -rpath,<cuda>/lib64 [-lcublas] -o <key>.so <file>.cu
//
// A `#line` directive names the student's file, so nvcc's front end, the host
// compiler and the line table all speak of the student's own lines. The
// library is cached by the same content-hash rule as references
// (compile/host_library.hpp build_host_library): nvcc's version, the flags,
// wb_host.h and the text.
#pragma once

#include "compile/diagnostics.hpp"
#include "compile/host_library.hpp"
#include "compile/nvrtc.hpp"
#include "lesson/lesson.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace wb {

struct HostStepBuild {
    bool ok = false;
    std::vector<Diagnostic> diagnostics;  // on the student's lines
    std::string log;                      // nvcc's whole output
    std::filesystem::path library;        // the .so, when ok
    std::vector<std::string> command;
    std::string arch;                     // "sm_90"
    double seconds = 0;                   // build time (0 when cached)
    bool from_cache = false;
    // Split (host_split.hpp): the kernels were compiled by NVRTC into
    // `kernels_image`, to be given to the library's wb_load_kernels_ with
    // their lowered names, and the library holds the host code alone.
    bool split = false;
    std::string whole_why;                // not split: why the file was built whole by nvcc
    std::string kernels_image;
    std::vector<std::string> kernels_lowered;

    int error_count() const;
};

// The headers a host step's file is compiled with (wb_host.h), compiled in.
const std::vector<NvrtcHeader>& host_step_headers();

// The toolkit's nvcc: <cuda_home()>/bin/nvcc, then PATH. Throws wb::Error
// (Compile) with a hint when there is none.
std::filesystem::path find_nvcc();

// The flags of a host step's two builds, for `libraries` (HostSpec's): the
// host compiler's for the split build's host part, and nvcc's for the whole
// file; and nvcc as build_host_library's compiler (its version and the
// host-step headers' digest in the key). The builder checks a request's
// flags against these (pipeline/builder.hpp).
std::vector<std::string> host_split_flags(const std::vector<std::string>& libraries);
std::vector<std::string> nvcc_flags(const std::string& arch, const std::vector<std::string>& libraries);
LibraryCompiler nvcc_library_compiler();

// Builds (or finds in the cache) `source` for `arch` with the step's
// libraries: split where it can be (the kernels by NVRTC, the host code by the
// host compiler), else whole by nvcc. A split build that fails is made again
// whole, so a mistake is always reported by nvcc, on the student's lines.
// Never throws for anything in the source; throws wb::Error (Compile) when
// nvcc cannot be found or started.
HostStepBuild build_host_step(const SourceText& source, const HostSpec& host, const std::string& arch);

// nvcc's output as diagnostics on `origin`: its front end's "file(12): error:"
// lines, the host compiler's "file:12:5: error:", and the linker's
// "undefined reference to", which names no line. Exposed for the tests.
std::vector<Diagnostic> parse_nvcc_log(const std::string& log, const std::string& origin);

}  // namespace wb
