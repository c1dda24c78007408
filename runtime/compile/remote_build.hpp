// runtime/compile/remote_build.hpp — where "build this" goes: this process,
// or a builder process that alone may write the cache.
//
// A contained worker runs a student's code (an emulated kernel's native part,
// a host step's run()), so it gets the cache folder read-only
// (sandbox/sandbox.hpp): nothing it runs can plant a library that a later run
// loads. Its builds go to a builder process (`cuda-workbook-worker
// --builder`, pipeline/builder.hpp) that only compiles, never loads what it
// builds, and names each output from the hash of its inputs. Such a worker
// sets the process-wide RemoteBuilder once, before its first request;
// build_host_library and compile_cuda look cache hits up themselves and send
// only a miss to it. Everywhere else (uncontained runs, WB_SANDBOX=off, the
// CLI's --in-process mode, tests, the builder itself) none is set, and they
// build here as before.
#pragma once

#include "compile/host_library.hpp"
#include "compile/nvrtc.hpp"
#include "core/disk_cache.hpp"

#include <memory>
#include <string>
#include <vector>

namespace wb {

// A shared library to build (build_host_library's arguments): `nvcc` names
// the CUDA Toolkit's nvcc as the compiler, which the builder finds itself.
struct LibraryRequest {
    std::string tu;
    std::vector<std::string> flags;
    CacheKind kind = CacheKind::Reference;
    std::string cache_tag;
    bool nvcc = false;
};

class RemoteBuilder {
public:
    virtual ~RemoteBuilder() = default;
    // build_host_library's answer for `request`, from the builder; throws
    // wb::Error where the builder threw one, or cannot be reached.
    virtual HostLibrary build_library(const LibraryRequest& request) = 0;
    // compile_cuda's answer (with the cache), from the builder.
    virtual CompileResult compile(const SourceText& source, const CompileOptions& options) = 0;
};

// Set once, before the process builds anything; never unset.
void set_remote_builder(std::unique_ptr<RemoteBuilder> builder);
// The builder this process's builds go to; nullptr: they are built here.
RemoteBuilder* remote_builder();

}  // namespace wb
