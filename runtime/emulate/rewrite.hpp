// runtime/emulate/rewrite.hpp — the source changes the CPU emulator makes before compiling.
//
// cuda_emu.h turns CUDA C++ into host C++ with macros, but one construct
// cannot be a macro: `extern __shared__ T name[];`, the block's dynamic
// shared memory, whose address the emulator only knows at launch. The
// rewrite turns each such declaration into a pointer read from the running
// thread's WbEmuThread. Line numbers stay as they were, so the host
// compiler's diagnostics point at the student's own lines.
#pragma once

#include <string>

namespace wb {

// `source` with every `extern __shared__ [__align__(n)|alignas(n)] T name[];`
// replaced, in a function body, by
//     T* const name = (T*)wb_emu_thread()->dynamic_shared;
// and, at namespace scope (where that would be read once, at load), by an
// object that converts to T* each time it is used (name[i], name + k, T* p =
// name, static_cast<U*>(name) work; reinterpret_cast<U*>(name) does not:
// cast &name[0] there). A declaration that spans lines keeps its line breaks
// after the replacement. Comments and string literals are left alone.
std::string rewrite_for_emulation(const std::string& source);

// `source` with the text of every comment and string or character literal
// replaced by spaces (quotes and line breaks kept), so a search for code
// finds only code at the same offsets. Used by the rewrite and refuse.cpp.
std::string blank_comments_and_strings(const std::string& source);

}  // namespace wb
