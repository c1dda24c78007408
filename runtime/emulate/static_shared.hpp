// runtime/emulate/static_shared.hpp — where an emulated kernel library keeps
// its static __shared__ arrays.
//
// cuda_emu.h declares `__shared__` as `static thread_local`: a block runs on
// one OS thread, so each core has its own copy. Those variables are the
// library's thread-local (TLS) symbols, at known offsets in the block of
// thread-local storage the C library gives each thread for the library. The
// emulator reads them from the library's symbol table once, and for each core
// finds that block (dlinfo RTLD_DI_TLS_DATA): it can then poison each array at
// the start of every block, as a GPU leaves shared memory, check every access
// to them (access_check.hpp), and name the array and element of an access.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace wb {

struct StaticSharedVar {
    std::string name;        // as written in the source: "As", or "tile" (the function is left out)
    std::size_t offset = 0;  // in the library's TLS block
    std::size_t bytes = 0;
};

struct StaticShared {
    std::size_t tls_bytes = 0;            // the library's whole TLS block
    std::vector<StaticSharedVar> vars;    // the kernel source's, by offset; not cuda_emu.h's own
    // The variable an offset in the TLS block falls in, or null.
    const StaticSharedVar* at(std::size_t offset) const;
};

// Read from `library`'s ELF symbol table (its STT_TLS symbols), once per
// library path in a process. Empty when the file cannot be read as one.
StaticShared read_static_shared(const std::filesystem::path& library);

}  // namespace wb
