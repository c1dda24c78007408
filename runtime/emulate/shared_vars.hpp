// runtime/emulate/shared_vars.hpp — the static __shared__ variables of the block an OS thread runs.
//
// A static `__shared__` variable in a function body is rewritten into a slot
// that asks the emulator for its storage (rewrite.hpp, cuda_emu.h's
// wb_emu::SharedVar). The first time a thread of a block reaches its
// declaration, the emulator gives it room in the OS thread's shared-memory
// region (one mapping, reused from its start by each block, so a variable
// may move from block to block), fills it with 0xFF bytes and the bytes
// around it with a guard pattern, and records it here, in a list per OS
// thread that is emptied when the thread starts its next block. When the block ends
// (or faults) the guards are checked, and a changed guard ends the launch as
// an overflow of the named array. Other parts of the emulator (the race
// detector's shadow memory) read the list to know which addresses are a
// block's static shared memory, and which variable and element an access is.
// Variables declared at namespace scope are not in it (rewrite.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace wb {

struct SharedVar {
    void* base = nullptr;           // the first byte of the variable
    std::size_t bytes = 0;          // sizeof the variable
    std::size_t element_bytes = 0;  // sizeof one element of its innermost dimension (the whole variable for a scalar)
    std::size_t guard = 0;          // guard bytes (at least) just before base, and just after base + bytes
    const char* name = nullptr;     // as declared; the strings live as long as the kernel library is loaded
    const char* file = nullptr;     // the declaration's file, as the kernel library was compiled (the student's name for it)
    int line = 0;                   // the declaration's line
};

// The static __shared__ variables the running block of the calling OS thread
// has reached so far, in the order its threads first reached them. Empty
// outside a launch's worker thread. Valid until that thread's next block starts.
const std::vector<SharedVar>& block_shared_vars();

// The variable `address` falls in, or null.
const SharedVar* block_shared_var_at(std::uintptr_t address);

}  // namespace wb
