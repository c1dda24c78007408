// runtime/reference/reference.hpp — the lesson's CPU reference, built and run natively.
//
// An instructor writes the reference as an ordinary C++ function with the
// same parameter list as the kernel, e.g.
//
//     void vector_add(const float* a, const float* b, float* c, int n) { ... }
//
// The runtime appends a generated extern "C" trampoline that unpacks the
// arguments (buffers become T*, params become their scalar type) and calls it,
// compiles source + trampoline with the host compiler (c++ or $CXX) into a
// shared library, caches that by a hash of everything that affects it, and
// loads it with dlopen. docs/lesson-format.md documents this interface.
#pragma once

#include "compile/diagnostics.hpp"
#include "compile/host_library.hpp"
#include "core/disk_cache.hpp"
#include "lesson/lesson.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace wb {

struct ReferenceBuild {
    bool ok = false;
    std::vector<Diagnostic> diagnostics;  // on the instructor's own lines
    std::string log;                      // the compiler's whole output
    std::filesystem::path library;        // the .so, when ok
    std::string symbol;                   // the trampoline's name in it
    std::string wrapper_source;           // the generated trampoline, for error messages
    std::vector<std::string> command;     // the compiler command line
    double seconds = 0;                   // build time (0 when cached)
    bool from_cache = false;
};

// Builds (or finds in the cache) the reference. Throws wb::Error only when
// no host compiler can be started at all.
ReferenceBuild build_reference(const ReferenceSpec& spec);

// What a CPU time is a time of: the compiler that built the reference and the
// flags that shape its code ("g++ -O3 -march=native -ffp-contract=off -fopenmp"),
// read from the command that built it ($CXX is honoured, "ccache g++" names g++).
std::string reference_compiler_summary(const ReferenceBuild& build);

// An opened reference library. Owns the dlopen handle.
class LoadedReference {
public:
    explicit LoadedReference(const ReferenceBuild& build);  // throws wb::Error (Reference)
    ~LoadedReference();
    LoadedReference(const LoadedReference&) = delete;
    LoadedReference& operator=(const LoadedReference&) = delete;
    LoadedReference(LoadedReference&& other) noexcept;
    LoadedReference& operator=(LoadedReference&& other) noexcept;

    // Calls the reference. `args[i]` points at argument i's value, exactly as
    // for cuLaunchKernel: for a buffer, at a T* host pointer; for a scalar, at
    // the value. Returns the wall time of the call in seconds.
    double run(void** args) const;

private:
    void* handle_ = nullptr;
    void (*entry_)(void**) = nullptr;
};

// The host compiler's flags for a reference's library (the builder checks a
// request's flags against them: pipeline/builder.hpp).
const std::vector<std::string>& reference_library_flags();

}  // namespace wb
