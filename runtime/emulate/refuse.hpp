// runtime/emulate/refuse.hpp — what the CPU emulator cannot run, found before it compiles.
//
// Some CUDA C++ has no meaning on a CPU thread: inline PTX, textures and
// surfaces, inline mma.sync, grid-wide sync, and launches from device
// code. A step that uses one needs an NVIDIA GPU; saying so at once, on the
// line that uses it, beats a page of host compiler errors about cuda_emu.h.
#pragma once

#include "compile/diagnostics.hpp"

#include <optional>
#include <string>

namespace wb {

// The first construct in `source` (comments and string literals ignored)
// that the emulator cannot run, as an error at its line and column in
// `origin` (the file name the student sees), e.g.
//     kernel.cu:12:5: error: the CPU emulator cannot run inline PTX (asm): this kernel needs an NVIDIA GPU
// nullopt when there is none.
std::optional<Diagnostic> unsupported_construct(const std::string& source, const std::string& origin);

}  // namespace wb
