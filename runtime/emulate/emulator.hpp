// runtime/emulate/emulator.hpp — running a step's kernels on the CPU.
//
// The CPU backend for computers without an NVIDIA GPU. The student's source is
// compiled by the host compiler after include/cuda_emu.h, which defines what
// CUDA C++ kernels use (threadIdx, __syncthreads, shuffles, atomics, vector
// types...), into a shared library with one generated entry per kernel. A
// launch runs its blocks on every core; the threads of a block run one after
// another, and when the kernel has barriers or warp operations each thread is
// a fiber (Boost.Context) that yields at them, so __shared__ memory, barriers
// and shuffles behave as on a GPU. A thread that leaves its buffer lands on a
// guard page (EmuArena) and the launch ends with the address, the block and
// the thread. A thread that outgrows its stack (each fiber has 128 KiB, below
// a guard page), a kernel that calls exit(), abort() or raise(), and a block
// whose threads wait where they can never be released end the launch too,
// each named as such with the student's line. Every load and store is
// checked as it happens (access_check.hpp): a race between two threads, a
// read of memory nobody wrote and a misaligned access end the run with both
// lines, as compute-sanitizer's racecheck and initcheck, and error 716, do on
// a GPU. A write past a static __shared__ array's end is named with the
// array and its declaration's line (shared_vars.hpp). What the emulator cannot run (inline PTX, textures, tensor
// cores, grid-wide sync, launches from device code) is refused before it is
// compiled (refuse.hpp).
//
// The pipeline (pipeline/run.cpp) uses this for RunRequest::executor == Cpu,
// inside the worker process, so the worker's deadline, Stop and crash rules
// hold for emulated kernels too.
#pragma once

#include "compile/diagnostics.hpp"
#include "driver/device.hpp"
#include "lesson/lesson.hpp"

#include "core/phrase.hpp"
#include "emulate/static_shared.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct WbEmuHooks;  // emulate/include/wb_emu_abi.h

namespace wb {

struct NvrtcHeader;
class AccessShadow;

// cuda_emu.h and the toolkit headers it stands in for (cuda_fp16.h, ...),
// compiled in (see runtime/CMakeLists.txt) and written out for the compiler.
const std::vector<NvrtcHeader>& emulator_headers();

struct EmuBuild {
    bool ok = false;
    std::optional<Diagnostic> refusal;     // a construct the emulator cannot run: the step needs a GPU
    std::vector<Diagnostic> diagnostics;   // the host compiler's, on the student's lines
    std::string log;
    std::filesystem::path library;         // every access checked (emulate/access_check.hpp)
    // The same kernels without the access check (empty if that build failed).
    // The check finds what it finds whatever order the threads run in, so the
    // second validation run, whose only question is whether another order
    // changes the result, runs these, at the speed of unchecked code.
    std::filesystem::path plain_library;
    std::vector<std::string> entries;      // kernel names, in the order of the launches' entries
    bool fibers = false;                   // the source has barriers or warp operations
    double seconds = 0;
    bool from_cache = false;
};

// Builds (or finds in the cache) the emulated kernels of `source`. Throws
// wb::Error only when no host compiler can be started.
EmuBuild build_emulated(const SourceText& source, const std::vector<std::string>& entries);

// The host compiler's flags for a step's kernel library: `checked` with the
// access check's instrumentation (the first validation run), else plain.
std::vector<std::string> emulator_library_flags(bool checked);

// Why a launch stopped before its end.
struct EmuFault {
    // Ended: the kernel called exit(), abort() or raise(), or sent itself a signal.
    // Misaligned: a load, store or atomic at an address its size does not divide (error 716 on a GPU).
    // SharedOverflow: a static __shared__ array's guard changed (block and where, the declaration's line, are known; the thread is not).
    enum class Kind { OutOfBounds, BadAddress, Trap, Arithmetic, Undefined, Deadlock, BadFree, StackOverflow, Ended, Threw,
                      Misaligned, SharedOverflow } kind = Kind::BadAddress;
    std::string message;                   // the sentence for the student, in English: render(said, "en")
    Sentence said;                         // the same, as catalogue phrases (core/phrase.hpp)
    std::uintptr_t address = 0;            // OutOfBounds/BadAddress
    bool write = false;                    // the access was a write (x86-64 tells)
    std::array<unsigned, 3> block{}, thread{};
    bool has_thread = false;
    std::string where;                     // "kernel.cu:12" when the library's line table gives it
};

// The device heap a kernel's malloc and new take from when the step gives no
// size: CUDA's default cudaLimitMallocHeapSize (8 MiB, kDefaultMallocHeapBytes
// in lesson/lesson.hpp). A step's "limits.malloc_heap_bytes" gives the run's
// arena another (emulate_executor.cpp).
constexpr std::size_t kDeviceMallocHeapBytes = static_cast<std::size_t>(kDefaultMallocHeapBytes);

// Host memory for the emulated kernels' buffers: each one ends at a page that
// cannot be touched, and the bytes around it hold a pattern, so a thread that
// leaves its buffer faults (reads too) or is found when the pattern changed.
// The arena also holds the run's device heap (malloc, free, new and delete in
// kernels): `heap_bytes` of address space between guard regions, backed only
// as kernels touch it, shared by every launch until reset_heap().
class EmuArena {
public:
    explicit EmuArena(std::size_t heap_bytes = kDeviceMallocHeapBytes);
    ~EmuArena();
    EmuArena(const EmuArena&) = delete;
    EmuArena& operator=(const EmuArena&) = delete;

    // Adds a buffer of `bytes` (16-byte aligned start); returns its address.
    std::byte* add(const std::string& name, std::size_t bytes, std::size_t element_size);
    std::size_t size() const { return buffers_.size(); }
    std::byte* data(std::size_t i) const { return buffers_[i].data; }
    std::size_t bytes(std::size_t i) const { return buffers_[i].bytes; }
    // As DeviceBuffer's: fills buffer i's surroundings with `pattern`, and
    // finds the first of those bytes changed (its byte offset from the buffer's start).
    void fill_guards(std::size_t i, unsigned char pattern);
    std::optional<long long> first_guard_write(std::size_t i, unsigned char pattern) const;
    // The buffer an address falls in or next to (within a page), and the element it would be.
    struct Place {
        std::string buffer;
        long long elements = 0;  // the buffer's
        long long element = 0;   // the index the address falls on
        bool past_end = true;    // else before its start
    };
    std::optional<Place> describe(std::uintptr_t address) const;

    // The device heap. heap_alloc returns `bytes` (rounded up to 16) at a
    // multiple of `align` (a power of two), first fit, or null when no free
    // range holds them: its bookkeeping is outside the heap, so allocations
    // whose rounded sizes sum to heap_bytes() all fit in an unfragmented heap
    // (eight of 1 MiB in the default 8 MiB). Safe from every block's thread.
    void* heap_alloc(std::size_t bytes, std::size_t align = 16);
    // False when `p` is not the start of a live allocation (nothing is freed then).
    bool heap_free(void* p);
    // Frees every allocation and gives the heap's pages back to the system:
    // each run starts with an empty heap, and what a kernel leaked is gone.
    void reset_heap();
    std::size_t heap_bytes() const;
    std::size_t heap_in_use() const;  // bytes allocated now, rounded as heap_alloc rounds them

private:
    struct Heap;
    std::unique_ptr<Heap> heap_;
    struct Region {
        std::string name;
        std::byte* map = nullptr;   // the whole mapping
        std::size_t map_bytes = 0;
        std::byte* data = nullptr;  // the buffer
        std::size_t bytes = 0;
        std::size_t element_size = 1;
        std::byte* slack_begin = nullptr;  // accessible bytes before data (pattern)
        std::byte* slack_end = nullptr;    // accessible bytes after data, up to the guard page (pattern)
    };
    std::vector<Region> buffers_;
};

// An emulated kernel library, opened. Opened again for each run, so writable
// __device__ globals start from their initial values as on a freshly loaded module.
class EmuModule {
public:
    // The build's checked library, or with `plain` its plain_library. Throws wb::Error.
    explicit EmuModule(const EmuBuild& build, bool plain = false);
    ~EmuModule();
    EmuModule(const EmuModule&) = delete;
    EmuModule& operator=(const EmuModule&) = delete;

    // A global of the kernel source (__constant__ and __device__ variables), or null.
    void* symbol(const std::string& name) const;
    // How many parameters kernel `entry` (an index into EmuBuild::entries) takes.
    int arity(std::size_t entry) const;
    // Runs one launch to its end: its blocks on up to `threads` cores.
    // `args` as for cuLaunchKernel. Returns the fault that stopped it, if any;
    // `arena` names the buffer of a bad address, and its heap is the one the
    // kernel's malloc and new take from (none without an arena: they return null).
    //
    // `shadow` (optional) is the run's record of every access: the launch's
    // races and reads of unwritten memory are then in shadow->findings().
    // `schedule` picks the order the threads run in: 0 in order, block by
    // block; any other value a permutation drawn from it (warps in a shuffled
    // order, lanes within each warp shuffled, blocks taken last first), so a
    // result that depends on the order differs between two runs.
    std::optional<EmuFault> launch(std::size_t entry, const LaunchDims& dims, void** args, EmuArena* arena,
                                   AccessShadow* shadow = nullptr, std::uint32_t schedule = 0, unsigned threads = 0);
    // What the last launch did that CUDA leaves undefined (a warp operation
    // whose mask leaves out its own lane), as a warning to say after the
    // verdict; empty when nothing.
    const Sentence& notes() const { return notes_; }

private:
    void* handle_ = nullptr;
    void (*bind_)(const WbEmuHooks*) = nullptr;  // the library's wb_emu_bind: which hooks it calls
    std::vector<void (*)(void**)> entries_;
    std::vector<int> arities_;
    bool fibers_ = false;
    std::filesystem::path library_;
    StaticShared statics_;  // the library's static __shared__ arrays
    Sentence notes_;
};

// "kernel.cu:12" for a code address in an emulated kernel library (its line
// table; the student's line where cuda_emu.h's code is inlined into it), or "".
std::string emulated_source_line(std::uintptr_t pc);
// The same for many code addresses at once (one look-up per library): "" where not known.
std::vector<std::string> emulated_source_lines(const std::vector<std::uintptr_t>& pcs);

// The address space the emulator's fiber stacks may reserve in this process
// (a pool of 1024 per thread that runs blocks, mapped writable): the worker's
// memory cap (sandbox/) leaves room for it.
std::size_t emulator_stack_reservation();

// For the emulator's own tests: `kernel_source` built and launched once with
// a 1-D grid; each buffer is passed as a pointer (in order), then each int.
struct EmuTestRun {
    bool ok = false;
    std::string message;
    std::string where;    // the fault's "test.cu:12", when known
    std::string notes;    // EmuModule::notes(), in English
};
EmuTestRun emulate_for_test(const std::string& kernel_source, const std::string& entry, unsigned grid_x, unsigned block_x,
                            std::vector<std::vector<unsigned char>*> buffers, std::vector<long long> int_args);

}  // namespace wb
