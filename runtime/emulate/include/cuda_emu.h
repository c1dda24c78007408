// runtime/emulate/include/cuda_emu.h — CUDA C++ as host C++, for the CPU emulator.
//
// The emulator compiles a kernel library from
//     #include "cuda_emu.h"
//     #line 1 "<the student's file>"
//     <the student's source, after rewrite_for_emulation (../rewrite.hpp)>
// with g++ -std=c++17 -O2 -fPIC -shared -ffp-contract=off. This header is the
// only thing between the two: it gives the student's kernels everything the
// CUDA C++ they use means on a GPU, running as fibers of one OS thread per
// block (wb_emu_abi.h is the contract with the emulator).
//
// [SECTION] Toolkit macros and qualifiers
// [SECTION] The thread's place: wb_emu_thread(), wb_emu_bind(), threadIdx...
// [SECTION] Vector types and dim3
// [SECTION] Barriers and warp operations (through the emulator's hooks)
// [SECTION] Atomics and fences (GCC __atomic builtins: blocks run in parallel)
// [SECTION] Cache-hinted loads and stores
// [SECTION] Math functions and intrinsics
// [SECTION] __trap, assert, clock
// [SECTION] The device heap: malloc, free, new and delete
//
// What a macro cannot do (`extern __shared__ T name[];`) the emulator rewrites
// before compiling; what cannot run at all (inline PTX, textures, grid sync...)
// it refuses before compiling (../refuse.hpp). The toolkit headers kernels
// include (cuda_runtime.h, cuda_fp16.h, math_constants.h, cooperative_groups.h...)
// are shims next to this file, found first through -I.
#ifndef WB_CUDA_EMU_H
#define WB_CUDA_EMU_H

// Every standard header this file or a kernel may need comes first, before the
// qualifier macros below exist: libstdc++ spells some attributes with names
// CUDA also uses (__noinline__), and a kernel's own later #include <cmath> is
// then a no-op.
#include <math.h>  // libstdc++'s wrapper: float overloads (sqrt(float), exp(float)...) in the global namespace
#include <cmath>
#include <cfloat>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <new>
#include <type_traits>
#include <utility>

#include "wb_emu_abi.h"

// ============================================================================
// [SECTION] Toolkit macros and qualifiers
// ============================================================================

// Kernels written for both compilers take their device paths.
#define __CUDACC__ 1
#define __NVCC__ 1
#define __CUDA_ARCH__ 900
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 4
#define __CUDACC_VER_BUILD__ 0
#define CUDART_VERSION 12040
#define __CUDA_EMULATOR__ 1  // for the rare kernel that wants to know

#define WB_EMU_EXPORT __attribute__((visibility("default")))

// The emulator finds kernels (through its generated entries) and __constant__
// and __device__ globals by name with dlsym, so they stay visible and are
// never thread_local: every block sees the one copy, as on a GPU.
#define __global__ WB_EMU_EXPORT
#define __device__
#define __host__
#define __constant__ WB_EMU_EXPORT
#define __managed__
#define __grid_constant__
// A block runs on one OS thread, so thread-local storage is per block. Only
// what the rewrite leaves (__shared__ at namespace scope) meets this macro:
// one in a function body becomes a wb_emu::SharedVar, poisoned and guarded.
#define __shared__ static thread_local
#define __forceinline__ inline
// Empty, not noinline: libstdc++ writes __attribute__((__noinline__)), which
// then reads __attribute__(()) and stays valid.
#define __noinline__
#define __launch_bounds__(...)
#define __maxnreg__(n)
#define __cluster_dims__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __CUDA_ALIGN__(n) __attribute__((aligned(n)))
// __restrict__ is a GCC keyword already.

// ============================================================================
// [SECTION] The thread's place
// ============================================================================

namespace wb_emu {

// The running fiber's indices; the emulator writes them before it resumes a fiber.
static thread_local WbEmuThread t_self;
static const WbEmuHooks* g_hooks = nullptr;
// WbEmuHooks::access, kept apart by wb_emu_bind: every access loads only this before its call.
static void (*g_access)(const void*, unsigned, const void*) = nullptr;

inline WbEmuThread* self() { return &t_self; }

[[noreturn]] inline void trap(const char* what, const char* file, int line)
{
    if (g_hooks != nullptr && g_hooks->trap != nullptr) {
        g_hooks->trap(what, file, line);
    }
    // Only reached when the library runs without an emulator around it.
    std::fprintf(stderr, "%s:%d: %s\n", file, line, what);
    std::abort();
}

}  // namespace wb_emu

// Exported for the emulator (dlsym). The kernel code below reaches the same
// storage through wb_emu::self(), which inlines (these two may be interposed
// under -fPIC, so GCC would not inline them).
extern "C" WB_EMU_EXPORT WbEmuThread* wb_emu_thread(void) { return &wb_emu::t_self; }
extern "C" WB_EMU_EXPORT void wb_emu_bind(const WbEmuHooks* hooks)
{
    wb_emu::g_hooks = hooks;
    wb_emu::g_access = hooks != nullptr ? hooks->access : nullptr;
}

// ============================================================================
// [SECTION] Every access, checked
// ============================================================================
// The library is compiled with -fsanitize=thread and linked without its
// runtime: GCC calls these before each load, store and atomic the optimiser
// keeps, and each passes the access to the emulator (WbEmuHooks::access),
// which records it for the race and initcheck checks and stops a misaligned
// one (emulate/access_check.hpp). They are not instrumented themselves, and
// hidden, so a call is a direct call. The atomics do what GCC replaced.
#define WB_EMU_TSAN extern "C" __attribute__((no_sanitize_thread, visibility("hidden"), optimize("optimize-sibling-calls")))
namespace wb_emu {
__attribute__((no_sanitize_thread, always_inline)) inline void access(const volatile void* p, unsigned how, const void* pc)
{
    if (g_access != nullptr) g_access(const_cast<const void*>(p), how, pc);
}
}  // namespace wb_emu
#define WB_EMU_RA __builtin_return_address(0)
WB_EMU_TSAN void __tsan_init(void) {}
WB_EMU_TSAN void __tsan_func_entry(void*) {}
WB_EMU_TSAN void __tsan_func_exit(void) {}
WB_EMU_TSAN void __tsan_vptr_update(void**, void*) {}
WB_EMU_TSAN void __tsan_vptr_read(void**) {}
WB_EMU_TSAN void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
WB_EMU_TSAN void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
WB_EMU_TSAN void __tsan_read_range(void* p, unsigned long n) { wb_emu::access(p, unsigned(n > 0xFFFF ? 0xFFFF : n), WB_EMU_RA); }
WB_EMU_TSAN void __tsan_write_range(void* p, unsigned long n)
{
    wb_emu::access(p, unsigned(n > 0xFFFF ? 0xFFFF : n) | WB_EMU_ACCESS_WRITE, WB_EMU_RA);
}
#define WB_EMU_TSAN_PLAIN(n)                                                                                          \
    WB_EMU_TSAN void __tsan_read##n(void* p) { wb_emu::access(p, n | WB_EMU_ACCESS_ALIGNED, WB_EMU_RA); }            \
    WB_EMU_TSAN void __tsan_write##n(void* p) { wb_emu::access(p, n | WB_EMU_ACCESS_ALIGNED | WB_EMU_ACCESS_WRITE, WB_EMU_RA); } \
    WB_EMU_TSAN void __tsan_unaligned_read##n(void* p) { wb_emu::access(p, n, WB_EMU_RA); }                         \
    WB_EMU_TSAN void __tsan_unaligned_write##n(void* p) { wb_emu::access(p, n | WB_EMU_ACCESS_WRITE, WB_EMU_RA); }   \
    WB_EMU_TSAN void __tsan_volatile_read##n(void* p) { wb_emu::access(p, n | WB_EMU_ACCESS_ALIGNED, WB_EMU_RA); }   \
    WB_EMU_TSAN void __tsan_volatile_write##n(void* p) { wb_emu::access(p, n | WB_EMU_ACCESS_ALIGNED | WB_EMU_ACCESS_WRITE, WB_EMU_RA); }
WB_EMU_TSAN_PLAIN(1)
WB_EMU_TSAN_PLAIN(2)
WB_EMU_TSAN_PLAIN(4)
WB_EMU_TSAN_PLAIN(8)
WB_EMU_TSAN_PLAIN(16)
#undef WB_EMU_TSAN_PLAIN
// An atomic reads and writes: both, in one access the race check knows as atomic.
#define WB_EMU_ATOMIC_RW (WB_EMU_ACCESS_ALIGNED | WB_EMU_ACCESS_ATOMIC | WB_EMU_ACCESS_WRITE)
#define WB_EMU_TSAN_ATOMICS(n, T)                                                                                       \
    WB_EMU_TSAN T __tsan_atomic##n##_load(const volatile T* a, int)                                                     \
    {                                                                                                                   \
        wb_emu::access(a, (n / 8) | WB_EMU_ACCESS_ALIGNED | WB_EMU_ACCESS_ATOMIC, WB_EMU_RA);                          \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                                    \
    }                                                                                                                   \
    WB_EMU_TSAN void __tsan_atomic##n##_store(volatile T* a, T v, int)                                                  \
    {                                                                                                                   \
        wb_emu::access(a, (n / 8) | WB_EMU_ACCESS_ALIGNED | WB_EMU_ACCESS_ATOMIC | WB_EMU_ACCESS_WRITE, WB_EMU_RA);    \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                                       \
    }                                                                                                                   \
    WB_EMU_TSAN T __tsan_atomic##n##_exchange(volatile T* a, T v, int)                                                  \
    {                                                                                                                   \
        wb_emu::access(a, (n / 8) | WB_EMU_ATOMIC_RW, WB_EMU_RA);                                                      \
        return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                                             \
    }                                                                                                                   \
    WB_EMU_TSAN T __tsan_atomic##n##_fetch_add(volatile T* a, T v, int)                                                 \
    { wb_emu::access(a, (n / 8) | WB_EMU_ATOMIC_RW, WB_EMU_RA); return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST); }   \
    WB_EMU_TSAN T __tsan_atomic##n##_fetch_sub(volatile T* a, T v, int)                                                 \
    { wb_emu::access(a, (n / 8) | WB_EMU_ATOMIC_RW, WB_EMU_RA); return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST); }   \
    WB_EMU_TSAN T __tsan_atomic##n##_fetch_and(volatile T* a, T v, int)                                                 \
    { wb_emu::access(a, (n / 8) | WB_EMU_ATOMIC_RW, WB_EMU_RA); return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST); }   \
    WB_EMU_TSAN T __tsan_atomic##n##_fetch_or(volatile T* a, T v, int)                                                  \
    { wb_emu::access(a, (n / 8) | WB_EMU_ATOMIC_RW, WB_EMU_RA); return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST); }    \
    WB_EMU_TSAN T __tsan_atomic##n##_fetch_xor(volatile T* a, T v, int)                                                 \
    { wb_emu::access(a, (n / 8) | WB_EMU_ATOMIC_RW, WB_EMU_RA); return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST); }   \
    WB_EMU_TSAN T __tsan_atomic##n##_fetch_nand(volatile T* a, T v, int)                                                \
    { wb_emu::access(a, (n / 8) | WB_EMU_ATOMIC_RW, WB_EMU_RA); return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST); }  \
    WB_EMU_TSAN int __tsan_atomic##n##_compare_exchange_strong(volatile T* a, T* c, T v, int, int)                      \
    {                                                                                                                   \
        wb_emu::access(a, (n / 8) | WB_EMU_ATOMIC_RW, WB_EMU_RA);                                                      \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                         \
    }                                                                                                                   \
    WB_EMU_TSAN int __tsan_atomic##n##_compare_exchange_weak(volatile T* a, T* c, T v, int, int)                        \
    {                                                                                                                   \
        wb_emu::access(a, (n / 8) | WB_EMU_ATOMIC_RW, WB_EMU_RA);                                                      \
        return __atomic_compare_exchange_n(a, c, v, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                          \
    }                                                                                                                   \
    WB_EMU_TSAN T __tsan_atomic##n##_compare_exchange_val(volatile T* a, T c, T v, int, int)                            \
    {                                                                                                                   \
        wb_emu::access(a, (n / 8) | WB_EMU_ATOMIC_RW, WB_EMU_RA);                                                      \
        __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                               \
        return c;                                                                                                       \
    }
WB_EMU_TSAN_ATOMICS(8, unsigned char)
WB_EMU_TSAN_ATOMICS(16, unsigned short)
WB_EMU_TSAN_ATOMICS(32, unsigned int)
WB_EMU_TSAN_ATOMICS(64, unsigned long long)
#undef WB_EMU_TSAN_ATOMICS
#undef WB_EMU_ATOMIC_RW
#undef WB_EMU_RA
#undef WB_EMU_TSAN

// The C library's ways to end the process, as the kernel library calls them:
// the emulator links it with -Wl,--wrap=exit (and the others), so exit(3),
// std::exit(3), abort() and raise(SIGSEGV) in a kernel end its launch with
// those words, instead of ending the worker with nothing said.
#define WB_EMU_ENDED(how, value)                                                                        \
    (wb_emu::g_hooks != nullptr ? wb_emu::g_hooks->ended(how, value, __builtin_return_address(0)) \
                                : __builtin_trap())
extern "C" {
[[noreturn]] WB_EMU_EXPORT void __wrap_exit(int status) { WB_EMU_ENDED(WB_EMU_EXIT, status); __builtin_unreachable(); }
[[noreturn]] WB_EMU_EXPORT void __wrap_quick_exit(int status) { WB_EMU_ENDED(WB_EMU_QUICK_EXIT, status); __builtin_unreachable(); }
[[noreturn]] WB_EMU_EXPORT void __wrap__exit(int status) { WB_EMU_ENDED(WB_EMU_UNDERSCORE_EXIT, status); __builtin_unreachable(); }
[[noreturn]] WB_EMU_EXPORT void __wrap__Exit(int status) { WB_EMU_ENDED(WB_EMU_UNDERSCORE_EXIT, status); __builtin_unreachable(); }
[[noreturn]] WB_EMU_EXPORT void __wrap_abort(void) { WB_EMU_ENDED(WB_EMU_ABORT, 0); __builtin_unreachable(); }
WB_EMU_EXPORT int __wrap_raise(int sig) { WB_EMU_ENDED(WB_EMU_RAISE, sig); return 0; }
}
#undef WB_EMU_ENDED

// CUDA's uint3 has the layout of WbEmuDim3, so it is that type: threadIdx can
// then be a const reference to the thread's own struct, with no copy.
typedef WbEmuDim3 uint3;

namespace wb_emu {

// `extern __shared__ T name[];` at namespace scope, as the rewrite leaves it
// (rewrite.hpp): the block's dynamic shared memory, looked up at each use.
// In a function body the rewrite makes a plain `T* const` instead.
template <class T>
struct DynamicShared {
    operator T*() const { return static_cast<T*>(self()->dynamic_shared); }
    template <class U>
    explicit operator U*() const { return static_cast<U*>(self()->dynamic_shared); }
};

// A static `__shared__` variable of type T in a function body, as the
// rewrite leaves it (rewrite.hpp): a `static thread_local` slot (a block
// runs on one OS thread) that points at the variable's storage in the
// emulator's shared-memory region for this OS thread, between two guards.
// enter() is what passing the declaration does: the first thread of each
// block to pass it (the slot's serial is not the block's) asks the emulator
// for the storage, which it fills with 0xFF bytes and records; every other
// pass is a compare and a branch. `align` is the slot's own alignment, which
// carries the declaration's __align__ or alignas. Nothing is constructed, as
// on a GPU.
template <class T>
struct SharedVar {
    unsigned long long serial;
    T* at;

    T& enter(const char* name, const char* file, int line, std::size_t align)
    {
        if (__builtin_expect(serial != t_self.block_serial, 0)) declare(name, file, line, align);
        return *at;
    }
    __attribute__((noinline, cold)) void declare(const char* name, const char* file, int line, std::size_t align)
    {
        if (g_hooks == nullptr || g_hooks->shared_declared == nullptr) trap("no emulator to give __shared__ memory", file, line);
        at = static_cast<T*>(g_hooks->shared_declared(sizeof(T), align > alignof(T) ? align : alignof(T),
                                                      sizeof(typename std::remove_all_extents<T>::type), name, file, line));
        serial = t_self.block_serial;
    }
};

}  // namespace wb_emu

#define threadIdx (static_cast<const uint3&>(wb_emu::self()->threadIdx))
#define blockIdx (static_cast<const uint3&>(wb_emu::self()->blockIdx))
#define blockDim (static_cast<const uint3&>(wb_emu::self()->blockDim))
#define gridDim (static_cast<const uint3&>(wb_emu::self()->gridDim))
constexpr int warpSize = 32;

// ============================================================================
// [SECTION] Vector types and dim3 (CUDA's sizes and alignments)
// ============================================================================

#define WB_EMU_VEC1(name, T, A)                                        \
    struct __attribute__((aligned(A))) name { T x; };                  \
    inline name make_##name(T x) { name v; v.x = x; return v; }
#define WB_EMU_VEC2(name, T, A)                                        \
    struct __attribute__((aligned(A))) name { T x, y; };               \
    inline name make_##name(T x, T y) { name v; v.x = x; v.y = y; return v; }
#define WB_EMU_VEC3(name, T)                                           \
    struct name { T x, y, z; };                                        \
    inline name make_##name(T x, T y, T z) { name v; v.x = x; v.y = y; v.z = z; return v; }
#define WB_EMU_VEC4(name, T, A)                                        \
    struct __attribute__((aligned(A))) name { T x, y, z, w; };         \
    inline name make_##name(T x, T y, T z, T w) { name v; v.x = x; v.y = y; v.z = z; v.w = w; return v; }

WB_EMU_VEC1(char1, signed char, 1)
WB_EMU_VEC2(char2, signed char, 2)
WB_EMU_VEC3(char3, signed char)
WB_EMU_VEC4(char4, signed char, 4)
WB_EMU_VEC1(uchar1, unsigned char, 1)
WB_EMU_VEC2(uchar2, unsigned char, 2)
WB_EMU_VEC3(uchar3, unsigned char)
WB_EMU_VEC4(uchar4, unsigned char, 4)
WB_EMU_VEC1(short1, short, 2)
WB_EMU_VEC2(short2, short, 4)
WB_EMU_VEC3(short3, short)
WB_EMU_VEC4(short4, short, 8)
WB_EMU_VEC1(ushort1, unsigned short, 2)
WB_EMU_VEC2(ushort2, unsigned short, 4)
WB_EMU_VEC3(ushort3, unsigned short)
WB_EMU_VEC4(ushort4, unsigned short, 8)
WB_EMU_VEC1(int1, int, 4)
WB_EMU_VEC2(int2, int, 8)
WB_EMU_VEC3(int3, int)
WB_EMU_VEC4(int4, int, 16)
WB_EMU_VEC1(uint1, unsigned int, 4)
WB_EMU_VEC2(uint2, unsigned int, 8)
WB_EMU_VEC4(uint4, unsigned int, 16)
inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { uint3 v; v.x = x; v.y = y; v.z = z; return v; }
// long is 8 bytes on Linux x86-64, as on the GPU side of such a host.
WB_EMU_VEC1(long1, long, 8)
WB_EMU_VEC2(long2, long, 16)
WB_EMU_VEC3(long3, long)
WB_EMU_VEC4(long4, long, 16)
WB_EMU_VEC1(ulong1, unsigned long, 8)
WB_EMU_VEC2(ulong2, unsigned long, 16)
WB_EMU_VEC3(ulong3, unsigned long)
WB_EMU_VEC4(ulong4, unsigned long, 16)
WB_EMU_VEC1(longlong1, long long, 8)
WB_EMU_VEC2(longlong2, long long, 16)
WB_EMU_VEC3(longlong3, long long)
WB_EMU_VEC4(longlong4, long long, 16)
WB_EMU_VEC1(ulonglong1, unsigned long long, 8)
WB_EMU_VEC2(ulonglong2, unsigned long long, 16)
WB_EMU_VEC3(ulonglong3, unsigned long long)
WB_EMU_VEC4(ulonglong4, unsigned long long, 16)
WB_EMU_VEC1(float1, float, 4)
WB_EMU_VEC2(float2, float, 8)
WB_EMU_VEC3(float3, float)
WB_EMU_VEC4(float4, float, 16)
WB_EMU_VEC1(double1, double, 8)
WB_EMU_VEC2(double2, double, 16)
WB_EMU_VEC3(double3, double)
WB_EMU_VEC4(double4, double, 16)

#undef WB_EMU_VEC1
#undef WB_EMU_VEC2
#undef WB_EMU_VEC3
#undef WB_EMU_VEC4

struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};

// ============================================================================
// [SECTION] Barriers and warp operations
// ============================================================================
//
// All of them go through the hooks: the emulator suspends the fiber until its
// block (or the lanes of its warp) have arrived. A warp operation deposits
// this lane's 8-byte slot and reads the others' slots at once, before any
// other hook call.

// Always inlined, so that the call to a hook is in the kernel's own code:
// the emulator names the student's line of a warp operation or barrier from
// the hook's return address (a deadlock, a mask without the calling lane).
#define WB_EMU_WARP_OP inline __attribute__((always_inline))

namespace wb_emu {

// `*arrived` is kept to the lanes of `mask`: lanes released at the same time
// for another mask took no part in this operation.
WB_EMU_WARP_OP const uint64_t* exchange(unsigned int mask, uint64_t mine, unsigned int* arrived)
{
    const uint64_t* slots = g_hooks->warp_exchange(mask, mine, arrived);
    *arrived &= mask;
    return slots;
}

template <class T>
WB_EMU_WARP_OP uint64_t to_slot(const T& v)
{
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                  "warp operations take values of at most 8 bytes");
    uint64_t slot = 0;
    std::memcpy(&slot, &v, sizeof(T));
    return slot;
}

template <class T>
WB_EMU_WARP_OP T from_slot(uint64_t slot)
{
    T v;
    std::memcpy(&v, &slot, sizeof(T));
    return v;
}

enum class Shfl { Idx, Up, Down, Xor };

// PTX's shfl.sync, to the letter: `width` becomes the segment mask
// (32 - width), a source outside this lane's segment (or one that did not
// take part) gives the lane its own value, and a lower segment can be read
// with xor (as CUDA's documentation says).
template <class T>
WB_EMU_WARP_OP T shuffle(Shfl mode, unsigned int mask, T var, int b, int width)
{
    unsigned int arrived = 0;
    const uint64_t* slots = exchange(mask, to_slot(var), &arrived);
    const int lane = static_cast<int>(self()->lane);
    const int segmask = (32 - width) & 31;
    const int cval = mode == Shfl::Up ? 0 : 31;
    const int max_lane = (lane & segmask) | (cval & ~segmask);
    const int min_lane = lane & segmask;
    const int bval = b & 31;
    int j = lane;
    bool in_range = false;
    switch (mode) {
    case Shfl::Up: j = lane - bval; in_range = j >= max_lane; break;
    case Shfl::Down: j = lane + bval; in_range = j <= max_lane; break;
    case Shfl::Xor: j = lane ^ bval; in_range = j <= max_lane; break;
    case Shfl::Idx: j = min_lane | (bval & ~segmask); in_range = j <= max_lane; break;
    }
    if (!in_range || j < 0 || j > 31 || ((arrived >> j) & 1u) == 0) {
        return var;
    }
    return from_slot<T>(slots[j]);
}

WB_EMU_WARP_OP unsigned int ballot(unsigned int mask, bool predicate, unsigned int* arrived_out)
{
    unsigned int arrived = 0;
    const uint64_t* slots = exchange(mask, predicate ? 1 : 0, &arrived);
    unsigned int bits = 0;
    for (int i = 0; i < 32; ++i) {
        if (((arrived >> i) & 1u) != 0 && slots[i] != 0) {
            bits |= 1u << i;
        }
    }
    if (arrived_out != nullptr) *arrived_out = arrived;
    return bits;
}

template <class T, class Op>
WB_EMU_WARP_OP T warp_reduce(unsigned int mask, T value, Op op)
{
    unsigned int arrived = 0;
    const uint64_t* slots = exchange(mask, to_slot(value), &arrived);
    T acc = value;
    bool first = true;
    for (int i = 0; i < 32; ++i) {
        if (((arrived >> i) & 1u) == 0) continue;
        T v = from_slot<T>(slots[i]);
        acc = first ? v : op(acc, v);
        first = false;
    }
    return acc;
}

}  // namespace wb_emu

WB_EMU_WARP_OP void __syncthreads() { wb_emu::g_hooks->syncthreads(0); }
WB_EMU_WARP_OP int __syncthreads_count(int predicate) { return wb_emu::g_hooks->syncthreads(predicate != 0); }
// And/or from one count: "no thread's predicate was false" / "some thread's was true".
WB_EMU_WARP_OP int __syncthreads_and(int predicate) { return wb_emu::g_hooks->syncthreads(predicate == 0) == 0; }
WB_EMU_WARP_OP int __syncthreads_or(int predicate) { return wb_emu::g_hooks->syncthreads(predicate != 0) != 0; }

WB_EMU_WARP_OP void __syncwarp(unsigned int mask = 0xffffffffu)
{
    unsigned int arrived = 0;
    wb_emu::exchange(mask, 0, &arrived);
}

// The lanes of this warp that have not returned (the emulator waits for all of
// them to reach a warp operation; there is no cheaper way to know who is here).
WB_EMU_WARP_OP unsigned int __activemask()
{
    unsigned int arrived = 0;
    wb_emu::exchange(0xffffffffu, 0, &arrived);
    return arrived;
}

template <class T>
WB_EMU_WARP_OP T __shfl_sync(unsigned int mask, T var, int src_lane, int width = warpSize)
{
    return wb_emu::shuffle(wb_emu::Shfl::Idx, mask, var, src_lane, width);
}
template <class T>
WB_EMU_WARP_OP T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = warpSize)
{
    return wb_emu::shuffle(wb_emu::Shfl::Up, mask, var, static_cast<int>(delta), width);
}
template <class T>
WB_EMU_WARP_OP T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = warpSize)
{
    return wb_emu::shuffle(wb_emu::Shfl::Down, mask, var, static_cast<int>(delta), width);
}
template <class T>
WB_EMU_WARP_OP T __shfl_xor_sync(unsigned int mask, T var, int lane_mask, int width = warpSize)
{
    return wb_emu::shuffle(wb_emu::Shfl::Xor, mask, var, lane_mask, width);
}

WB_EMU_WARP_OP unsigned int __ballot_sync(unsigned int mask, int predicate) { return wb_emu::ballot(mask, predicate != 0, nullptr); }
WB_EMU_WARP_OP int __any_sync(unsigned int mask, int predicate) { return wb_emu::ballot(mask, predicate != 0, nullptr) != 0; }
WB_EMU_WARP_OP int __all_sync(unsigned int mask, int predicate)
{
    unsigned int arrived = 0;
    return wb_emu::ballot(mask, predicate != 0, &arrived) == arrived;
}
WB_EMU_WARP_OP int __uni_sync(unsigned int mask, int predicate)
{
    unsigned int arrived = 0;
    unsigned int bits = wb_emu::ballot(mask, predicate != 0, &arrived);
    return bits == 0 || bits == arrived;
}

template <class T>
WB_EMU_WARP_OP unsigned int __match_any_sync(unsigned int mask, T value)
{
    unsigned int arrived = 0;
    const uint64_t mine = wb_emu::to_slot(value);
    const uint64_t* slots = wb_emu::exchange(mask, mine, &arrived);
    unsigned int same = 0;
    for (int i = 0; i < 32; ++i) {
        if (((arrived >> i) & 1u) != 0 && slots[i] == mine) same |= 1u << i;
    }
    return same;
}
template <class T>
WB_EMU_WARP_OP unsigned int __match_all_sync(unsigned int mask, T value, int* pred)
{
    unsigned int arrived = 0;
    const uint64_t mine = wb_emu::to_slot(value);
    const uint64_t* slots = wb_emu::exchange(mask, mine, &arrived);
    bool all = true;
    for (int i = 0; i < 32; ++i) {
        if (((arrived >> i) & 1u) != 0 && slots[i] != mine) all = false;
    }
    *pred = all ? 1 : 0;
    return all ? arrived : 0u;
}

WB_EMU_WARP_OP unsigned int __reduce_add_sync(unsigned int mask, unsigned int v)
{
    return wb_emu::warp_reduce(mask, v, [](unsigned int a, unsigned int b) { return a + b; });
}
WB_EMU_WARP_OP int __reduce_add_sync(unsigned int mask, int v)
{
    return static_cast<int>(__reduce_add_sync(mask, static_cast<unsigned int>(v)));
}
WB_EMU_WARP_OP unsigned int __reduce_min_sync(unsigned int mask, unsigned int v)
{
    return wb_emu::warp_reduce(mask, v, [](unsigned int a, unsigned int b) { return a < b ? a : b; });
}
WB_EMU_WARP_OP int __reduce_min_sync(unsigned int mask, int v)
{
    return wb_emu::warp_reduce(mask, v, [](int a, int b) { return a < b ? a : b; });
}
WB_EMU_WARP_OP unsigned int __reduce_max_sync(unsigned int mask, unsigned int v)
{
    return wb_emu::warp_reduce(mask, v, [](unsigned int a, unsigned int b) { return a > b ? a : b; });
}
WB_EMU_WARP_OP int __reduce_max_sync(unsigned int mask, int v)
{
    return wb_emu::warp_reduce(mask, v, [](int a, int b) { return a > b ? a : b; });
}
WB_EMU_WARP_OP unsigned int __reduce_and_sync(unsigned int mask, unsigned int v)
{
    return wb_emu::warp_reduce(mask, v, [](unsigned int a, unsigned int b) { return a & b; });
}
WB_EMU_WARP_OP unsigned int __reduce_or_sync(unsigned int mask, unsigned int v)
{
    return wb_emu::warp_reduce(mask, v, [](unsigned int a, unsigned int b) { return a | b; });
}
WB_EMU_WARP_OP unsigned int __reduce_xor_sync(unsigned int mask, unsigned int v)
{
    return wb_emu::warp_reduce(mask, v, [](unsigned int a, unsigned int b) { return a ^ b; });
}

// ============================================================================
// [SECTION] Atomics and fences
// ============================================================================
//
// Blocks run on several OS threads at once, so these are real atomics. CUDA's
// are relaxed, but a kernel's plain loads and stores around them may rely on
// the fences it wrote (__threadfence) or on x86's order; sequentially
// consistent read-modify-writes cost the same on x86 and keep both right.

namespace wb_emu {

constexpr int kOrder = __ATOMIC_SEQ_CST;

// old = *p; *p = f(old); return old — for what has no builtin.
template <class T, class F>
inline T atomic_update(T* p, F f)
{
    T old;
    __atomic_load(p, &old, __ATOMIC_RELAXED);
    T desired;
    do {
        desired = f(old);
    } while (!__atomic_compare_exchange(p, &old, &desired, true, kOrder, __ATOMIC_RELAXED));
    return old;
}

}  // namespace wb_emu

#define WB_EMU_ATOMIC_BUILTIN(name, builtin, T) \
    inline T name(T* address, T val) { return builtin(address, val, wb_emu::kOrder); }

WB_EMU_ATOMIC_BUILTIN(atomicAdd, __atomic_fetch_add, int)
WB_EMU_ATOMIC_BUILTIN(atomicAdd, __atomic_fetch_add, unsigned int)
WB_EMU_ATOMIC_BUILTIN(atomicAdd, __atomic_fetch_add, unsigned long long)
WB_EMU_ATOMIC_BUILTIN(atomicSub, __atomic_fetch_sub, int)
WB_EMU_ATOMIC_BUILTIN(atomicSub, __atomic_fetch_sub, unsigned int)
WB_EMU_ATOMIC_BUILTIN(atomicAnd, __atomic_fetch_and, int)
WB_EMU_ATOMIC_BUILTIN(atomicAnd, __atomic_fetch_and, unsigned int)
WB_EMU_ATOMIC_BUILTIN(atomicAnd, __atomic_fetch_and, unsigned long long)
WB_EMU_ATOMIC_BUILTIN(atomicOr, __atomic_fetch_or, int)
WB_EMU_ATOMIC_BUILTIN(atomicOr, __atomic_fetch_or, unsigned int)
WB_EMU_ATOMIC_BUILTIN(atomicOr, __atomic_fetch_or, unsigned long long)
WB_EMU_ATOMIC_BUILTIN(atomicXor, __atomic_fetch_xor, int)
WB_EMU_ATOMIC_BUILTIN(atomicXor, __atomic_fetch_xor, unsigned int)
WB_EMU_ATOMIC_BUILTIN(atomicXor, __atomic_fetch_xor, unsigned long long)
WB_EMU_ATOMIC_BUILTIN(atomicExch, __atomic_exchange_n, int)
WB_EMU_ATOMIC_BUILTIN(atomicExch, __atomic_exchange_n, unsigned int)
WB_EMU_ATOMIC_BUILTIN(atomicExch, __atomic_exchange_n, unsigned long long)
#undef WB_EMU_ATOMIC_BUILTIN

inline float atomicExch(float* address, float val)
{
    float old;
    __atomic_exchange(address, &val, &old, wb_emu::kOrder);
    return old;
}
inline float atomicAdd(float* address, float val)
{
    return wb_emu::atomic_update(address, [val](float old) { return old + val; });
}
inline double atomicAdd(double* address, double val)
{
    return wb_emu::atomic_update(address, [val](double old) { return old + val; });
}
// sm_90: element by element, as CUDA's (each element is atomic, the vector is not).
inline float2 atomicAdd(float2* address, float2 val)
{
    return make_float2(atomicAdd(&address->x, val.x), atomicAdd(&address->y, val.y));
}
inline float4 atomicAdd(float4* address, float4 val)
{
    return make_float4(atomicAdd(&address->x, val.x), atomicAdd(&address->y, val.y), atomicAdd(&address->z, val.z),
                       atomicAdd(&address->w, val.w));
}

#define WB_EMU_ATOMIC_MINMAX(T)                                                                           \
    inline T atomicMin(T* address, T val)                                                                \
    {                                                                                                    \
        return wb_emu::atomic_update(address, [val](T old) { return val < old ? val : old; });           \
    }                                                                                                    \
    inline T atomicMax(T* address, T val)                                                                \
    {                                                                                                    \
        return wb_emu::atomic_update(address, [val](T old) { return val > old ? val : old; });           \
    }
WB_EMU_ATOMIC_MINMAX(int)
WB_EMU_ATOMIC_MINMAX(unsigned int)
WB_EMU_ATOMIC_MINMAX(long long)
WB_EMU_ATOMIC_MINMAX(unsigned long long)
#undef WB_EMU_ATOMIC_MINMAX

// CUDA's wrap-around counters: Inc goes 0..val then back to 0; Dec goes down
// to 0 and then (or from above val) back to val.
inline unsigned int atomicInc(unsigned int* address, unsigned int val)
{
    return wb_emu::atomic_update(address, [val](unsigned int old) { return old >= val ? 0u : old + 1u; });
}
inline unsigned int atomicDec(unsigned int* address, unsigned int val)
{
    return wb_emu::atomic_update(address,
                                 [val](unsigned int old) { return (old == 0u || old > val) ? val : old - 1u; });
}

#define WB_EMU_ATOMIC_CAS(T)                                                                        \
    inline T atomicCAS(T* address, T compare, T val)                                               \
    {                                                                                              \
        __atomic_compare_exchange_n(address, &compare, val, false, wb_emu::kOrder, wb_emu::kOrder); \
        return compare;                                                                            \
    }
WB_EMU_ATOMIC_CAS(int)
WB_EMU_ATOMIC_CAS(unsigned int)
WB_EMU_ATOMIC_CAS(unsigned long long)
WB_EMU_ATOMIC_CAS(unsigned short)
#undef WB_EMU_ATOMIC_CAS

// The scoped variants: one address space and one kind of thread here, so each
// is the plain atomic (same overloads, same conversions).
#define WB_EMU_ATOMIC_SCOPED(name)                                                            \
    template <class... A>                                                                     \
    inline auto name##_block(A... a)->decltype(name(a...)) { return name(a...); }            \
    template <class... A>                                                                     \
    inline auto name##_system(A... a)->decltype(name(a...)) { return name(a...); }
WB_EMU_ATOMIC_SCOPED(atomicAdd)
WB_EMU_ATOMIC_SCOPED(atomicSub)
WB_EMU_ATOMIC_SCOPED(atomicExch)
WB_EMU_ATOMIC_SCOPED(atomicMin)
WB_EMU_ATOMIC_SCOPED(atomicMax)
WB_EMU_ATOMIC_SCOPED(atomicInc)
WB_EMU_ATOMIC_SCOPED(atomicDec)
WB_EMU_ATOMIC_SCOPED(atomicCAS)
WB_EMU_ATOMIC_SCOPED(atomicAnd)
WB_EMU_ATOMIC_SCOPED(atomicOr)
WB_EMU_ATOMIC_SCOPED(atomicXor)
#undef WB_EMU_ATOMIC_SCOPED

inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

// ============================================================================
// [SECTION] Cache-hinted loads and stores: plain ones on a CPU
// ============================================================================

template <class T> inline T __ldg(const T* p) { return *p; }
template <class T> inline T __ldca(const T* p) { return *p; }
template <class T> inline T __ldcg(const T* p) { return *p; }
template <class T> inline T __ldcs(const T* p) { return *p; }
template <class T> inline T __ldlu(const T* p) { return *p; }
template <class T> inline T __ldcv(const T* p) { return *p; }
template <class T> inline void __stwb(T* p, T v) { *p = v; }
template <class T> inline void __stcg(T* p, T v) { *p = v; }
template <class T> inline void __stcs(T* p, T v) { *p = v; }
template <class T> inline void __stwt(T* p, T v) { *p = v; }

// ============================================================================
// [SECTION] Math functions and intrinsics
// ============================================================================
//
// <math.h> gives expf, sqrtf, fmaxf, fmaf... and the float overloads. What
// follows is what CUDA adds. Fast-math intrinsics (__expf, __sinf...) are the
// accurate functions here; _rz/_ru/_rd arithmetic rounds to nearest (a CPU
// result may then differ from a GPU's in the last bit).

// CUDA's global min/max: same-type overloads, which also beat std::min when a
// kernel says `using namespace std;`, and mixed types by the usual arithmetic
// conversions (min(int, unsigned) is unsigned, as in CUDA).
#define WB_EMU_MINMAX(T)                                    \
    inline T min(T a, T b) { return a < b ? a : b; }        \
    inline T max(T a, T b) { return a > b ? a : b; }
WB_EMU_MINMAX(int)
WB_EMU_MINMAX(unsigned int)
WB_EMU_MINMAX(long)
WB_EMU_MINMAX(unsigned long)
WB_EMU_MINMAX(long long)
WB_EMU_MINMAX(unsigned long long)
#undef WB_EMU_MINMAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
template <class A, class B,
          class = typename std::enable_if<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value &&
                                          !std::is_same<A, B>::value>::type>
inline typename std::common_type<A, B>::type min(A a, B b)
{
    using C = typename std::common_type<A, B>::type;
    return min(static_cast<C>(a), static_cast<C>(b));
}
template <class A, class B,
          class = typename std::enable_if<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value &&
                                          !std::is_same<A, B>::value>::type>
inline typename std::common_type<A, B>::type max(A a, B b)
{
    using C = typename std::common_type<A, B>::type;
    return max(static_cast<C>(a), static_cast<C>(b));
}

inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / ::sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
inline double rcbrt(double x) { return 1.0 / ::cbrt(x); }
inline float fdividef(float a, float b) { return a / b; }
inline float sinpif(float x) { return sinf(static_cast<float>(M_PI) * x); }
inline float cospif(float x) { return cosf(static_cast<float>(M_PI) * x); }
inline double sinpi(double x) { return ::sin(M_PI * x); }
inline double cospi(double x) { return ::cos(M_PI * x); }
inline void sincospif(float x, float* s, float* c) { *s = sinpif(x); *c = cospif(x); }
inline void sincospi(double x, double* s, double* c) { *s = sinpi(x); *c = cospi(x); }
inline float norm3df(float a, float b, float c) { return sqrtf(a * a + b * b + c * c); }
inline float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }
inline float norm4df(float a, float b, float c, float d) { return sqrtf(a * a + b * b + c * c + d * d); }
inline float rnorm4df(float a, float b, float c, float d) { return 1.0f / norm4df(a, b, c, d); }
inline float rhypotf(float a, float b) { return 1.0f / hypotf(a, b); }
inline double norm3d(double a, double b, double c) { return ::sqrt(a * a + b * b + c * c); }
inline double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
inline double rhypot(double a, double b) { return 1.0 / ::hypot(a, b); }
inline float normcdff(float x) { return 0.5f * erfcf(-x * static_cast<float>(M_SQRT1_2)); }
inline double normcdf(double x) { return 0.5 * ::erfc(-x * M_SQRT1_2); }

inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return exp10f(x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline void __sincosf(float x, float* s, float* c) { sincosf(x, s, c); }
inline float __powf(float x, float y) { return powf(x, y); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __fdiv_rz(float a, float b) { return a / b; }
inline float __fdiv_rd(float a, float b) { return a / b; }
inline float __fdiv_ru(float a, float b) { return a / b; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __frcp_rz(float x) { return 1.0f / x; }
inline float __frcp_rd(float x) { return 1.0f / x; }
inline float __frcp_ru(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline float __fsqrt_rz(float x) { return sqrtf(x); }
inline float __fsqrt_rd(float x) { return sqrtf(x); }
inline float __fsqrt_ru(float x) { return sqrtf(x); }
inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
// NaN becomes 0, as on the GPU.
inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

#define WB_EMU_ROUNDED_F(op, expr)                                        \
    inline float __f##op##_rn(float a, float b) { return expr; }          \
    inline float __f##op##_rz(float a, float b) { return expr; }          \
    inline float __f##op##_rd(float a, float b) { return expr; }          \
    inline float __f##op##_ru(float a, float b) { return expr; }          \
    inline double __d##op##_rn(double a, double b) { return expr; }       \
    inline double __d##op##_rz(double a, double b) { return expr; }       \
    inline double __d##op##_rd(double a, double b) { return expr; }       \
    inline double __d##op##_ru(double a, double b) { return expr; }
WB_EMU_ROUNDED_F(add, a + b)
WB_EMU_ROUNDED_F(sub, a - b)
WB_EMU_ROUNDED_F(mul, a * b)
#undef WB_EMU_ROUNDED_F
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __drcp_rn(double x) { return 1.0 / x; }
inline double __dsqrt_rn(double x) { return ::sqrt(x); }
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline float __fmaf_rz(float a, float b, float c) { return fmaf(a, b, c); }
inline float __fmaf_rd(float a, float b, float c) { return fmaf(a, b, c); }
inline float __fmaf_ru(float a, float b, float c) { return fmaf(a, b, c); }
inline double __fma_rn(double a, double b, double c) { return ::fma(a, b, c); }
inline double __fma_rz(double a, double b, double c) { return ::fma(a, b, c); }
inline double __fma_rd(double a, double b, double c) { return ::fma(a, b, c); }
inline double __fma_ru(double a, double b, double c) { return ::fma(a, b, c); }

// Float to integer conversions saturate, and NaN gives 0, as the GPU's cvt does.
namespace wb_emu {
template <class I, class F>
inline I saturating_cast(F rounded)
{
    if (rounded != rounded) return 0;
    if (rounded <= static_cast<F>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
    if (rounded >= static_cast<F>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
    return static_cast<I>(rounded);
}
}  // namespace wb_emu

#define WB_EMU_F2I(name, I, F)                                                                         \
    inline I name##_rn(F x) { return wb_emu::saturating_cast<I>(::nearbyint(x)); }                    \
    inline I name##_rz(F x) { return wb_emu::saturating_cast<I>(::trunc(x)); }                        \
    inline I name##_rd(F x) { return wb_emu::saturating_cast<I>(::floor(x)); }                        \
    inline I name##_ru(F x) { return wb_emu::saturating_cast<I>(::ceil(x)); }
WB_EMU_F2I(__float2int, int, float)
WB_EMU_F2I(__float2uint, unsigned int, float)
WB_EMU_F2I(__float2ll, long long, float)
WB_EMU_F2I(__float2ull, unsigned long long, float)
WB_EMU_F2I(__double2int, int, double)
WB_EMU_F2I(__double2uint, unsigned int, double)
WB_EMU_F2I(__double2ll, long long, double)
WB_EMU_F2I(__double2ull, unsigned long long, double)
#undef WB_EMU_F2I

#define WB_EMU_I2F(name, I, F)                                  \
    inline F name##_rn(I x) { return static_cast<F>(x); }      \
    inline F name##_rz(I x) { return static_cast<F>(x); }      \
    inline F name##_rd(I x) { return static_cast<F>(x); }      \
    inline F name##_ru(I x) { return static_cast<F>(x); }
WB_EMU_I2F(__int2float, int, float)
WB_EMU_I2F(__uint2float, unsigned int, float)
WB_EMU_I2F(__ll2float, long long, float)
WB_EMU_I2F(__ull2float, unsigned long long, float)
WB_EMU_I2F(__ll2double, long long, double)
WB_EMU_I2F(__ull2double, unsigned long long, double)
WB_EMU_I2F(__double2float, double, float)
#undef WB_EMU_I2F
inline double __int2double_rn(int x) { return x; }
inline double __uint2double_rn(unsigned int x) { return x; }

namespace wb_emu {
template <class To, class From>
inline To bits(From from)
{
    static_assert(sizeof(To) == sizeof(From), "same size");
    To to;
    std::memcpy(&to, &from, sizeof(To));
    return to;
}
}  // namespace wb_emu

inline int __float_as_int(float x) { return wb_emu::bits<int>(x); }
inline unsigned int __float_as_uint(float x) { return wb_emu::bits<unsigned int>(x); }
inline float __int_as_float(int x) { return wb_emu::bits<float>(x); }
inline float __uint_as_float(unsigned int x) { return wb_emu::bits<float>(x); }
inline long long __double_as_longlong(double x) { return wb_emu::bits<long long>(x); }
inline double __longlong_as_double(long long x) { return wb_emu::bits<double>(x); }
inline int __double2hiint(double x) { return static_cast<int>(wb_emu::bits<unsigned long long>(x) >> 32); }
inline int __double2loint(double x) { return static_cast<int>(wb_emu::bits<unsigned long long>(x)); }
inline double __hiloint2double(int hi, int lo)
{
    return wb_emu::bits<double>((static_cast<unsigned long long>(static_cast<unsigned int>(hi)) << 32) |
                                static_cast<unsigned int>(lo));
}

inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned int>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned int __brev(unsigned int x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x)
{
    return (static_cast<unsigned long long>(__brev(static_cast<unsigned int>(x))) << 32) |
           __brev(static_cast<unsigned int>(x >> 32));
}
// The low 24 bits of each (sign-extended for __mul24), the low 32 bits of the product.
inline int __mul24(int x, int y)
{
    const long long a = static_cast<int>(static_cast<unsigned int>(x) << 8) >> 8;
    const long long b = static_cast<int>(static_cast<unsigned int>(y) << 8) >> 8;
    return static_cast<int>(static_cast<unsigned int>(a * b));
}
inline unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffffu) * (y & 0xffffffu); }
inline int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
inline unsigned int __umulhi(unsigned int x, unsigned int y)
{
    return static_cast<unsigned int>((static_cast<unsigned long long>(x) * y) >> 32);
}
inline long long __mul64hi(long long x, long long y)
{
    return static_cast<long long>((static_cast<__int128>(x) * y) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y)
{
    return static_cast<unsigned long long>((static_cast<unsigned __int128>(x) * y) >> 64);
}
inline unsigned int __sad(int x, int y, unsigned int z)
{
    return (x > y ? static_cast<unsigned int>(x) - static_cast<unsigned int>(y)
                  : static_cast<unsigned int>(y) - static_cast<unsigned int>(x)) + z;
}
inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return (x > y ? x - y : y - x) + z; }
inline int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
inline int __rhadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1); }
inline unsigned int __uhadd(unsigned int x, unsigned int y)
{
    return static_cast<unsigned int>((static_cast<unsigned long long>(x) + y) >> 1);
}
inline unsigned int __urhadd(unsigned int x, unsigned int y)
{
    return static_cast<unsigned int>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}
// hi:lo as one 64-bit value, shifted by shift % 32 (the _c forms clamp at 32).
inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift)
{
    const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
    return static_cast<unsigned int>((v << (shift & 31u)) >> 32);
}
inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift)
{
    const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
    return static_cast<unsigned int>((v << (shift < 32u ? shift : 32u)) >> 32);
}
inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift)
{
    const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
    return static_cast<unsigned int>(v >> (shift & 31u));
}
inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift)
{
    const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
    return static_cast<unsigned int>(v >> (shift < 32u ? shift : 32u));
}
// Byte n of the result is byte (s >> 4n) & 7 of y:x (x holds bytes 0-3).
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s)
{
    const unsigned long long v = (static_cast<unsigned long long>(y) << 32) | x;
    unsigned int r = 0;
    for (int n = 0; n < 4; ++n) {
        const unsigned int sel = (s >> (4 * n)) & 7u;
        r |= static_cast<unsigned int>((v >> (8 * sel)) & 0xffu) << (8 * n);
    }
    return r;
}
// Four signed 8-bit products, summed into c.
inline int __dp4a(int a, int b, int c)
{
    for (int n = 0; n < 4; ++n) {
        c += static_cast<signed char>(a >> (8 * n)) * static_cast<signed char>(b >> (8 * n));
    }
    return c;
}
inline unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c)
{
    for (int n = 0; n < 4; ++n) {
        c += ((a >> (8 * n)) & 0xffu) * ((b >> (8 * n)) & 0xffu);
    }
    return c;
}

// ============================================================================
// [SECTION] __trap, assert, clock
// ============================================================================

#define __trap() wb_emu::trap("__trap() was called", __FILE__, __LINE__)
#define __brkpt() wb_emu::trap("__brkpt() was called", __FILE__, __LINE__)

// Replaces <assert.h>'s (NDEBUG is not defined, as on the GPU); the shims
// assert.h and cassert next to this file keep it when a kernel includes them.
// The text is CUDA's own: "Assertion `i < n` failed."
#undef assert
#define assert(e) \
    (static_cast<bool>(e) ? static_cast<void>(0) : wb_emu::trap("Assertion `" #e "` failed.", __FILE__, __LINE__))

// A steadily increasing count, as a kernel uses it: differences between two reads.
inline long long clock64()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}
// clock() is the C library's (a clock_t that increases); CUDA's is also clock_t.
inline unsigned long long __globaltimer() { return static_cast<unsigned long long>(clock64()); }
// The OS thread also runs the block's other threads, so it must not sleep.
inline void __nanosleep(unsigned int) {}
inline unsigned int __smid() { return 0; }

// ============================================================================
// [SECTION] The device heap: malloc, free, new and delete
// ============================================================================
//
// A kernel's malloc takes from the launch's device heap (the emulator's
// EmuArena, kDeviceMallocHeapBytes as CUDA's default cudaLimitMallocHeapSize)
// and returns null when it has no room, as on a GPU; new and new[] do the
// same (the library is built with -fcheck-new, so `new T` on null constructs
// nothing and yields null). These are definitions of the C library's and the
// C++ runtime's own names: the linker version script wb_emu_heap.map keeps
// them local to the kernel library, so every call in the student's code binds
// here and nothing else in the worker sees them. calloc is here because GCC
// may turn a malloc followed by a memset of zeros into one.

extern "C" void* __libc_malloc(size_t) noexcept;
extern "C" void __libc_free(void*) noexcept;

namespace wb_emu {

inline void* heap_alloc(size_t bytes, size_t align)
{
    if (g_hooks != nullptr && g_hooks->heap_alloc != nullptr) {
        return g_hooks->heap_alloc(bytes, align < 16 ? 16 : align);
    }
    // Before the emulator binds its hooks (a static initialiser while the
    // library is loaded), or with no emulator around it.
    return __libc_malloc(bytes);
}

inline void heap_free(void* p, const void* caller)
{
    if (p == nullptr) {
        return;
    }
    if (g_hooks != nullptr && g_hooks->heap_free != nullptr) {
        g_hooks->heap_free(p, caller);
        return;
    }
    __libc_free(p);
}

}  // namespace wb_emu

extern "C" void* malloc(size_t bytes) noexcept { return wb_emu::heap_alloc(bytes, 16); }
extern "C" void* calloc(size_t n, size_t size) noexcept
{
    if (size != 0 && n > static_cast<size_t>(-1) / size) {
        return nullptr;
    }
    void* p = wb_emu::heap_alloc(n * size, 16);
    if (p != nullptr) {
        std::memset(p, 0, n * size);
    }
    return p;
}
// Never inlined: its return address is the student's call, which a bad free names.
#define WB_EMU_CALLER __attribute__((noinline))
extern "C" WB_EMU_CALLER void free(void* p) noexcept { wb_emu::heap_free(p, __builtin_return_address(0)); }
// CUDA's aligned device malloc: `align` a power of two, else null.
inline void* __nv_aligned_device_malloc(size_t bytes, size_t align)
{
    if (align == 0 || (align & (align - 1)) != 0) {
        return nullptr;
    }
    return wb_emu::heap_alloc(bytes, align);
}

void* operator new(size_t bytes) { return wb_emu::heap_alloc(bytes, 16); }
void* operator new[](size_t bytes) { return wb_emu::heap_alloc(bytes, 16); }
void* operator new(size_t bytes, const std::nothrow_t&) noexcept { return wb_emu::heap_alloc(bytes, 16); }
void* operator new[](size_t bytes, const std::nothrow_t&) noexcept { return wb_emu::heap_alloc(bytes, 16); }
void* operator new(size_t bytes, std::align_val_t a) { return wb_emu::heap_alloc(bytes, static_cast<size_t>(a)); }
void* operator new[](size_t bytes, std::align_val_t a) { return wb_emu::heap_alloc(bytes, static_cast<size_t>(a)); }
void* operator new(size_t bytes, std::align_val_t a, const std::nothrow_t&) noexcept
{
    return wb_emu::heap_alloc(bytes, static_cast<size_t>(a));
}
void* operator new[](size_t bytes, std::align_val_t a, const std::nothrow_t&) noexcept
{
    return wb_emu::heap_alloc(bytes, static_cast<size_t>(a));
}
WB_EMU_CALLER void operator delete(void* p) noexcept { wb_emu::heap_free(p, __builtin_return_address(0)); }
WB_EMU_CALLER void operator delete[](void* p) noexcept { wb_emu::heap_free(p, __builtin_return_address(0)); }
WB_EMU_CALLER void operator delete(void* p, size_t) noexcept { wb_emu::heap_free(p, __builtin_return_address(0)); }
WB_EMU_CALLER void operator delete[](void* p, size_t) noexcept { wb_emu::heap_free(p, __builtin_return_address(0)); }
WB_EMU_CALLER void operator delete(void* p, const std::nothrow_t&) noexcept { wb_emu::heap_free(p, __builtin_return_address(0)); }
WB_EMU_CALLER void operator delete[](void* p, const std::nothrow_t&) noexcept { wb_emu::heap_free(p, __builtin_return_address(0)); }
WB_EMU_CALLER void operator delete(void* p, std::align_val_t) noexcept { wb_emu::heap_free(p, __builtin_return_address(0)); }
WB_EMU_CALLER void operator delete[](void* p, std::align_val_t) noexcept { wb_emu::heap_free(p, __builtin_return_address(0)); }
WB_EMU_CALLER void operator delete(void* p, size_t, std::align_val_t) noexcept { wb_emu::heap_free(p, __builtin_return_address(0)); }
WB_EMU_CALLER void operator delete[](void* p, size_t, std::align_val_t) noexcept { wb_emu::heap_free(p, __builtin_return_address(0)); }
WB_EMU_CALLER void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept
{
    wb_emu::heap_free(p, __builtin_return_address(0));
}
WB_EMU_CALLER void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept
{
    wb_emu::heap_free(p, __builtin_return_address(0));
}

#endif  // WB_CUDA_EMU_H
