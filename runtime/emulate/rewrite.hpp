// runtime/emulate/rewrite.hpp — the source changes the CPU emulator makes before compiling.
//
// cuda_emu.h turns CUDA C++ into host C++ with macros, but two constructs
// cannot be macros: `extern __shared__ T name[];`, the block's dynamic
// shared memory, whose address the emulator only knows at launch, and a
// static `__shared__` variable in a function body, which must start poisoned
// in each block and sit between guards. The rewrite turns the first into a
// pointer read from the running thread's WbEmuThread, the second into
// cuda_emu.h's wb_emu::SharedVar. Line numbers stay as they were, so the host
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
// after the replacement.
//
// Every static `[volatile] __shared__ [align] T [align] a[dims], *b, c;` in a
// function body (align: __align__(n), alignas(n), __attribute__((...)))
// becomes, per declarator, on the declaration's first line,
//     [align] static thread_local wb_emu::SharedVar<T[dims] > wb_emu_shared_a;
//     auto& a = wb_emu_shared_a.enter("a", __FILE__, __LINE__, __alignof__(wb_emu_shared_a));
// a slot per OS thread (a block runs on one) that points at storage the
// emulator gives, fills with 0xFF and guards for each block, the first time
// a thread of it passes the declaration (cuda_emu.h); the slot carries the
// alignment specifiers, and __alignof__ passes them on. `a` is then a reference, so sizeof(a) and a[i][j]
// mean what they did; a lambda that captures it by copy ([=]) copies it.
// A declaration of another shape (an initializer, a reference, a
// parenthesised declarator or type) is left to cuda_emu.h's
// `static thread_local`, as is every `__shared__` at namespace scope: those
// are neither poisoned nor guarded. Comments and string literals are left alone.
std::string rewrite_for_emulation(const std::string& source);

// `source` with the text of every comment and string or character literal
// replaced by spaces (quotes and line breaks kept), so a search for code
// finds only code at the same offsets. Used by the rewrite and refuse.cpp.
std::string blank_comments_and_strings(const std::string& source);

}  // namespace wb
