// runtime/compile/nvrtc.hpp — compiling lesson kernels with NVRTC.
//
// Compiles one translation unit of CUDA C++ to a cubin for a real
// architecture ("sm_90") or to PTX for a virtual one ("compute_90"). NVRTC
// needs no GPU, so this works on a machine without a driver. A student's
// mistake is not an exception: it comes back as ok=false with diagnostics.
// Exceptions (wb::Error) are for the tool itself failing: NVRTC missing, an
// option it rejects, the CUDA headers not found.
//
// Results are cached in memory and on disk (see cache.hpp), keyed on the
// source, every option, the architecture and the NVRTC version.
#pragma once

#include "compile/diagnostics.hpp"
#include "lesson/lesson.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace wb {

struct CompileOptions {
    std::string arch = "sm_90";               // "sm_XX" gives a cubin, "compute_XX" PTX
    std::string std = "c++17";
    bool line_info = true;                    // -lineinfo, for sanitizer and profiler line numbers
    std::vector<std::string> extra;           // e.g. "--use_fast_math", "-DTILE=16"
    std::vector<std::string> entries;         // kernel names to look up (name expressions)
    bool use_cache = true;
    // Compile with NVRTC's -minimal when the source cannot need what it leaves
    // out (see compile_cuda): the same code, in about two thirds of the time.
    bool minimal = true;
};

struct CompileResult {
    bool ok = false;
    std::vector<Diagnostic> diagnostics;      // at most kMaxDiagnostics
    std::size_t diagnostics_omitted = 0;      // dropped past the cap ("and N more")
    int omitted_errors = 0, omitted_warnings = 0;  // of those, so the counts below stay whole
    std::string log;                          // NVRTC's log (capped at 1 MiB)
    std::string arch;
    bool is_cubin = false;                    // else PTX
    std::string image;                        // cubin bytes or PTX text; stays in the worker
    std::size_t image_bytes = 0;              // its size, also where the image itself did not travel
    std::map<std::string, std::string> lowered_names;  // entry -> mangled name to pass to the driver
    std::vector<std::string> options;         // every option passed to NVRTC
    double seconds = 0;                       // compile time (0 when cached)
    bool from_cache = false;                  // "memory" or "disk" in cache_source
    std::string cache_source;                 // "", "memory", "disk"
    std::string cache_key;

    int error_count() const;    // including the omitted ones
    int warning_count() const;
};

// Compiles `source`. Diagnostics name `source.origin` as the file and use the
// source's own line numbers. A source with an #include that
// include_policy.hpp refuses is not compiled: its result is those refusals.
// (NVRTC looks a quoted name up first in the folder of the program's name,
// taken from the working folder, so a bare name that is not a toolkit's or a
// workbook's header must be refused before it runs. --no-source-include
// would stop that, but it also stops toolkit headers from finding their
// neighbours: cooperative_groups' "info.h".)
//
// NVRTC's -minimal leaves out textures and surfaces, the device runtime
// (cudaMalloc and the other cuda* calls in device code), launches from device
// code and the runtime's types (cudaError_t...). A kernel that names none of
// them compiles to the same code with it, faster, which is most of the edit
// loop's time. So a source that mentions no cuda*, tex* or surf* identifier,
// no <<<, and includes only the built-in standard headers is compiled with
// -minimal; if that fails on one of those names or inside a toolkit header,
// it is compiled again without, and that result stands.
//
// <cmath> and <math.h> come in two forms (nvrtc_include/cmath): a fast one
// over NVRTC's own math functions, and libcu++'s, which costs about a second
// more and leaves unused device globals in the cubin. The fast form is tried
// first; a source that fails on a std:: name or overload it lacks is compiled
// again with libcu++'s (-DWB_CMATH_FROM_LIBCUXX in the result's options), and
// that result stands.
CompileResult compile_cuda(const SourceText& source, const CompileOptions& options);

// True for an NVRTC option that makes it write a file (-time, the
// precompiled-header options, ptxas's or NVVM's options other than -v):
// compile_cuda refuses them (wb::Error, Usage), as it refuses a language
// standard it does not know.
bool nvrtc_option_writes_files(const std::string& option);

// The options a step's kernels are compiled with for `arch`: the step's
// language standard and extra options, and each launch's entry once.
CompileOptions step_compile_options(const Step& step, const std::string& arch);

// A header the wrapper gives every program by name ("cmath", "cfloat"...).
struct NvrtcHeader {
    const char* name;
    const char* text;
};

// The standard headers a .cu file includes but NVRTC does not ship (<cmath>,
// <cfloat>, <cstdint>, <climits>, <cstddef>, <cstdio>, <cassert>, <limits>,
// <type_traits>... and their .h forms). Their text is runtime/compile/
// nvrtc_include/, compiled in at build time (embed_nvrtc_headers.cmake), so
// an install needs no data folder for them.
const std::vector<NvrtcHeader>& nvrtc_builtin_headers();

// A digest of `headers`' names and text.
std::string nvrtc_headers_digest(const std::vector<NvrtcHeader>& headers);

// `headers` written as files under cache_dir()/<folder>/<digest>, for a
// compiler that reads them from disk (the CPU emulator's g++, a host step's
// nvcc): each is written when missing, so a cleared cache is filled again.
// Returns that folder.
std::filesystem::path headers_on_disk(const std::vector<NvrtcHeader>& headers, const std::string& folder);

// nvrtc_headers_digest(nvrtc_builtin_headers()); part of the compile cache
// key, so a change to any of those headers misses the cache.
std::string nvrtc_builtin_headers_digest();

// "13.0" — from nvrtcVersion.
std::string nvrtc_version();

// Architectures NVRTC can target, e.g. {75, 80, 86, 89, 90, 100, 120}.
std::vector<int> nvrtc_supported_archs();

// The CUDA Toolkit root: $CUDA_HOME, $CUDA_PATH, then /usr/local/cuda.
// Throws wb::Error when none has include/cuda_runtime.h.
std::filesystem::path cuda_home();

// A program of the CUDA Toolkit, looked for in cuda_home()'s bin/ first
// (core/fs.hpp has the form that takes the toolkit's folder).
std::filesystem::path find_toolkit_program(const std::string& name);

// Default target when no device is present: sm_90 (Hopper), or the
// newest NVRTC supports if it does not support sm_90.
std::string default_arch();

}  // namespace wb
