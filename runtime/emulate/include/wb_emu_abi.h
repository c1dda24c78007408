// runtime/emulate/include/wb_emu_abi.h — the contract between the CPU emulator
// (runtime/emulate/, inside the worker) and a kernel library it builds.
//
// The student's kernel source is compiled with the host compiler, after
// cuda_emu.h, into a shared library. The library keeps one WbEmuThread per OS
// thread (thread_local); the emulator runs a block's threads as fibers on one
// OS thread and writes the running fiber's indices into that struct before it
// resumes the fiber. Everything a kernel does that needs other threads (block
// barriers, warp exchanges, a trap) goes through the hooks the emulator binds
// once after loading the library. The library's malloc, free, calloc, new and
// delete are its own (kept local by wb_emu_heap.map, a linker version script)
// and go to the heap hooks.
#ifndef WB_EMU_ABI_H
#define WB_EMU_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct WbEmuDim3 {
    unsigned int x, y, z;
};

// The calling fiber's place in the launch. Written by the emulator, read by the kernel.
struct WbEmuThread {
    struct WbEmuDim3 threadIdx, blockIdx, blockDim, gridDim;
    unsigned int lane;        // linear thread index within the block % 32
    unsigned int warp;        // linear thread index within the block / 32
    void* dynamic_shared;     // this block's extern __shared__ memory (16-byte aligned, 0xFF bytes at each block's start)
    unsigned long long dynamic_shared_bytes;
    // Different for every block the process runs (never 0 in one): a static
    // __shared__ variable whose last serial differs is new to the block (wb_emu::SharedVar).
    unsigned long long block_serial;
};

struct WbEmuHooks {
    // Block barrier: returns when every thread of the block that has not
    // returned has called it. `count` is this thread's predicate, and the
    // result is the number of threads whose predicate was non-zero
    // (__syncthreads_count; __syncthreads ignores it).
    int (*syncthreads)(int predicate);
    // Warp exchange: deposits this lane's 8 bytes and returns, once every lane
    // of the warp named in `mask` that has not returned has arrived, the
    // warp's 32 slots (slot i holds lane i's value; lanes that did not take
    // part hold 0). `*arrived` is set to the mask of lanes that took part.
    // Shuffles, votes and __syncwarp are built on this.
    const uint64_t* (*warp_exchange)(unsigned int mask, uint64_t mine, unsigned int* arrived);
    // Ends the whole launch as a fault (a failed assert, __trap()); never returns.
    void (*trap)(const char* what, const char* file, int line);
    // The device heap (cudaLimitMallocHeapSize) that malloc, free, new and
    // delete in the kernel library use: `bytes` aligned to `align` (a power
    // of two, at least 16), or null when the heap has no room, as on a GPU.
    // Outside a launch (a static initialiser) the process's own allocator.
    void* (*heap_alloc)(uint64_t bytes, uint64_t align);
    // Frees what heap_alloc returned (null is ignored). Anything else, in a
    // launch, ends it as a fault at `caller` (the code address of the call).
    void (*heap_free)(void* p, const void* caller);
    // Ends the whole launch because the kernel called one of the C library's
    // ways to end its process (the library is linked with --wrap for each, so
    // they land here and the worker lives on); never returns. `value` is
    // exit()'s status or raise()'s signal; `pc` is the caller's return address.
    void (*ended)(int how, int value, const void* pc);
    // Ends the whole launch because a C++ exception left the kernel (only
    // code the host compiler alone sees can throw: NVRTC refuses `throw` in
    // device code); `type` is its type's mangled name, `what` its what() or "".
    // Never returns.
    void (*threw)(const char* type, const char* what);
    // Every load and store the compiler kept (the library is built with
    // -fsanitize=thread, and cuda_emu.h's __tsan_ functions call this):
    // `how` is the size in bytes | WB_EMU_ACCESS_* flags, `pc` the code
    // address of the access. Records it for the race and initcheck checks
    // (emulate/access_check.hpp); a misaligned access ends the launch there,
    // as error 716 on a GPU, and does not return.
    void (*access)(const void* address, unsigned how, const void* pc);
    // A static __shared__ variable of a function body (wb_emu::SharedVar),
    // the first time a thread of the running block reaches its declaration:
    // returns `bytes` at a multiple of `align` (at least 16) in this OS
    // thread's shared-memory region, filled with the poison, between guard
    // bytes, and records the variable for the block (shared_vars.hpp), to
    // check its guards when the block ends. `element_bytes` is the size of one
    // element of the innermost dimension; `name`, `file` and `line` are the
    // declaration's. Never returns null (a region that is full ends the launch).
    void* (*shared_declared)(uint64_t bytes, uint64_t align, uint64_t element_bytes, const char* name, const char* file,
                             int line);
};

// WbEmuHooks::access's flags (above the size's 16 bits).
enum { WB_EMU_ACCESS_WRITE = 1 << 16, WB_EMU_ACCESS_ATOMIC = 1 << 17, WB_EMU_ACCESS_ALIGNED = 1 << 18 };

// WbEmuHooks::ended's `how`.
enum { WB_EMU_EXIT = 0, WB_EMU_QUICK_EXIT = 1, WB_EMU_UNDERSCORE_EXIT = 2, WB_EMU_ABORT = 3, WB_EMU_RAISE = 4 };

// Both are defined by cuda_emu.h in the kernel library.
struct WbEmuThread* wb_emu_thread(void);
void wb_emu_bind(const struct WbEmuHooks* hooks);

#ifdef __cplusplus
}
#endif

#endif
