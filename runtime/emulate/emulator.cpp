// runtime/emulate/emulator.cpp — loading and launching emulated kernels: the
// fault handlers, a block's threads run in order or as fibers (the scheduler
// of barriers and warp exchanges), and blocks spread over the cores.
// Building the kernel library is build.cpp's; the buffers' guard regions are
// arena.cpp's (EmuArena).
//
// [SECTION] faults                   SIGSEGV/SIGBUS/SIGFPE inside a kernel end its launch; a stack
//                                    overflow, exit(), abort() and a raised signal are named
// [SECTION] static shared variables  poisoned and guarded per block, an overflow named (shared_vars.hpp)
// [SECTION] blocks                   a block's threads in order, or as fibers
// [SECTION] launch                   blocks spread over the cores
#include "emulate/emulator.hpp"

#include "emulate/access_check.hpp"
#include "emulate/guarded_mapping.hpp"

#include "core/error.hpp"
#include "emulate/include/wb_emu_abi.h"
#include "emulate/shared_vars.hpp"

#include <boost/context/fiber.hpp>

#include <algorithm>
#include <atomic>
#include <csetjmp>
#include <cxxabi.h>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <thread>

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <pthread.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

namespace fs = std::filesystem;
namespace ctx = boost::context;

namespace wb {

// [SECTION] faults

namespace {

constexpr int kSharedPoison = 0xFF;  // each byte of a block's shared memory (dynamic and static) at its start
constexpr unsigned char kSharedGuard = 0xA5;  // each guard byte around a static __shared__ variable
constexpr int kTrapped = -1;  // ThreadFault::signal of a trap (__trap, assert)
constexpr int kThrew = -1;    // ThreadFault::ended_how of an exception out of the kernel (hook_threw)
constexpr int kEnded = -2;    // ... of exit(), abort() or raise() (WbEmuHooks::ended)

struct ThreadFault {
    int signal = 0;
    int code = 0;            // siginfo's si_code: <= 0 when a process sent the signal, > 0 for a real fault
    std::uintptr_t address = 0;
    std::uintptr_t pc = 0;
    std::uintptr_t sp = 0;   // the stack pointer at the fault
    bool write = false;
    std::string trap;        // a trap's message ("__trap() was called")
    std::string trap_where;  // its file:line
    std::string trap_address;  // a bad free()'s pointer, in hex
    int ended_how = 0;       // WB_EMU_EXIT...: how the kernel ended its process
    int ended_value = 0;     // exit()'s status or raise()'s signal
    std::string threw_type, threw_what;  // an exception that left the kernel
    unsigned misaligned_bytes = 0;           // a misaligned access's size (hook_access)
};

// The stack the kernel's thread runs on: a fiber's, or the OS thread's, with
// the guard page(s) below it. A fault there is a stack overflow.
struct StackBounds {
    std::uintptr_t guard = 0;  // the lowest guard byte
    std::uintptr_t low = 0;    // the lowest usable byte
    std::size_t bytes = 0;     // the usable size, as said to the student
};

struct BlockRun;

thread_local bool t_in_kernel = false;
thread_local sigjmp_buf t_jump;
thread_local ThreadFault t_fault;
thread_local BlockRun* t_block = nullptr;
thread_local EmuArena* t_arena = nullptr;  // the running launch's: its device heap
thread_local StackBounds t_stack;

void on_fault(int sig, siginfo_t* info, void* uctx) {
    if (!t_in_kernel) {
        // Not a kernel's fault: the worker's own crash, handled as it always was.
        ::signal(sig, SIG_DFL);
        ::raise(sig);
        return;
    }
    t_fault.signal = sig;
    t_fault.code = info->si_code;
    t_fault.address = reinterpret_cast<std::uintptr_t>(info->si_addr);
#if defined(__x86_64__)
    const auto* uc = static_cast<const ucontext_t*>(uctx);
    t_fault.pc = static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
    t_fault.sp = static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
    t_fault.write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
    (void)uctx;
#endif
    t_in_kernel = false;
    ::siglongjmp(t_jump, 1);
}

// Installs the fault handlers for the duration of a launch (one launch at a time).
class FaultHandlers {
public:
    FaultHandlers() {
        struct sigaction sa {};
        sa.sa_sigaction = on_fault;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        for (int i = 0; i < kCount; ++i) ::sigaction(kSignals[i], &sa, &old_[i]);
    }
    ~FaultHandlers() {
        for (int i = 0; i < kCount; ++i) ::sigaction(kSignals[i], &old_[i], nullptr);
    }

private:
    // SIGILL: the host compiler puts a trap (ud2) where it proved the code's
    // behaviour undefined, e.g. a division by a zero it could see.
    static constexpr int kCount = 4;
    static constexpr int kSignals[kCount] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    struct sigaction old_[kCount] {};
};

// A signal stack for this OS thread: a fiber that overflows its stack still gets its fault reported.
class AltStack {
public:
    AltStack() : mem_(kBytes) {
        stack_t ss{};
        ss.ss_sp = mem_.data();
        ss.ss_size = mem_.size();
        ::sigaltstack(&ss, &old_);
    }
    ~AltStack() { ::sigaltstack(&old_, nullptr); }

private:
    static constexpr std::size_t kBytes = 64 * 1024;
    std::vector<char> mem_;
    stack_t old_{};
};

// True when the fault is the thread's stack running out: the address is on
// the guard page below the stack, or the stack pointer itself went below it
// (a large frame that jumped over the guard).
bool is_stack_overflow(const ThreadFault& f, const StackBounds& s) {
    if (s.low == 0 || (f.signal != SIGSEGV && f.signal != SIGBUS) || f.code <= 0) return false;
    // Slack above the lowest usable byte: the main thread's stack stops
    // growing where the kernel's limit falls, which the C library's figure
    // only approximates. Nothing in a fiber's own stack can fault, so the
    // slack names no other fault wrongly.
    constexpr std::uintptr_t kSlack = 64u << 10, kFar = 64u << 20;
    if (f.address >= s.guard && f.address < s.low + kSlack) return true;
    return f.sp != 0 && f.sp < s.low + kSlack && s.low - std::min(s.low, f.sp) < kFar;
}

// The calling OS thread's own stack (a block run in order uses it).
StackBounds os_thread_stack() {
    StackBounds s;
    pthread_attr_t attr;
    if (::pthread_getattr_np(::pthread_self(), &attr) != 0) return s;
    void* addr = nullptr;
    std::size_t size = 0, guard = 0;
    ::pthread_attr_getstack(&attr, &addr, &size);
    ::pthread_attr_getguardsize(&attr, &guard);
    ::pthread_attr_destroy(&attr);
    s.low = reinterpret_cast<std::uintptr_t>(addr);
    s.guard = s.low - std::max<std::size_t>(guard, static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)));
    s.bytes = size;
    return s;
}

// "128 KiB", "8 MiB": a stack's size as the student reads it.
std::string size_text(std::size_t bytes) {
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes >> 10) + " KiB";
}

// "SIGSEGV" for 11.
std::string signal_name(int sig) {
    const char* abbrev = ::sigabbrev_np(sig);
    return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

// A frame's file is one of the emulator's own headers (cuda_emu.h and its
// companions): the student's line is further out in the inlining chain.
bool is_emulator_header(const std::string& file) { return file.find("/emulate-include/") != std::string::npos; }

// The line table's answer for one address, as addr2line -i prints it (the
// innermost inlined frame first): "kernel.cu:12", the innermost frame of the
// inlining chain that is the student's (a fault in cuda_emu.h's atomicAdd
// inlined into the kernel names the kernel's line), or "" when not known.
std::string student_line(const std::vector<std::string>& frames) {
    std::string out;
    for (const auto& f : frames)
        if (!is_emulator_header(f)) {
            out = f;
            break;
        }
    if (out.empty() && !frames.empty()) out = frames.front();
    if (out.empty() || out.rfind("??", 0) == 0) return {};
    const std::size_t discr = out.find(" (discriminator");
    if (discr != std::string::npos) out.resize(discr);
    // "/build/dir/kernel.cu:12": the student knows the file by its name.
    const std::size_t colon = out.rfind(':');
    if (colon != std::string::npos) out = fs::path(out.substr(0, colon)).filename().string() + out.substr(colon);
    return out;
}

// addr2line -a -i over `offsets` in `library`, started without a shell (the
// worker's working folder may be gone, and a shell says so on stderr): each
// address's frames, in order; none where it could not run.
std::vector<std::vector<std::string>> addr2line_frames(const std::string& library, const std::vector<std::uintptr_t>& offsets) {
    std::vector<std::vector<std::string>> frames(offsets.size());
    std::vector<std::string> args = {"addr2line", "-a", "-i", "-e", library};
    for (std::uintptr_t o : offsets) {
        char hex[32];
        std::snprintf(hex, sizeof hex, "0x%zx", static_cast<std::size_t>(o));
        args.emplace_back(hex);
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) return frames;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    const int spawned = ::posix_spawnp(&pid, "addr2line", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    if (spawned != 0) {
        ::close(out[0]);
        return frames;
    }
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = ::read(out[0], buf, sizeof buf)) != 0;) {
        if (n < 0) {
            if (errno == EINTR) continue;
            break;
        }
        text.append(buf, static_cast<std::size_t>(n));
    }
    ::close(out[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    // A line "0x...": the next address's frames follow.
    std::size_t next = 0;
    std::vector<std::string>* into = nullptr;
    for (std::size_t pos = 0; pos < text.size();) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(pos, end - pos);
        pos = end + 1;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.rfind("0x", 0) == 0) {
            into = next < frames.size() ? &frames[next++] : nullptr;
            continue;
        }
        if (into) into->push_back(line);
    }
    return frames;
}

// "kernel.cu:12" for a code address in an emulated kernel library, from its line table; "" when not known.
std::string source_line_of(std::uintptr_t pc) { return emulated_source_lines({pc}).front(); }

// [SECTION] blocks

// The page below each fiber stack that cannot be touched is one of these.
std::size_t page_size() {
    static const std::size_t p = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    return p;
}

constexpr std::size_t kFiberStackBytes = 128 * 1024;

// Fiber stacks for one OS thread: up to 1024, each below a page that cannot
// be touched, reused from block to block and launch to launch.
class StackPool {
public:
    explicit StackPool(std::size_t count) : count_(count) {
        slot_ = kFiberStackBytes + page_size();
        bytes_ = slot_ * count_;
        void* m = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) throw Error(ErrorKind::Io, "cannot reserve the CPU emulator's fiber stacks");
        base_ = static_cast<char*>(m);
        for (std::size_t i = 0; i < count_; ++i) ::mprotect(base_ + i * slot_, page_size(), PROT_NONE);
    }
    ~StackPool() { ::munmap(base_, bytes_); }
    std::size_t count() const { return count_; }
    ctx::stack_context stack(std::size_t i) const {
        ctx::stack_context sc;
        sc.size = kFiberStackBytes;
        sc.sp = base_ + (i + 1) * slot_;  // the top: stacks grow down to the guard page
        return sc;
    }

private:
    std::size_t count_ = 0, slot_ = 0, bytes_ = 0;
    char* base_ = nullptr;
};

// Stack pools outlive the launch that made them: a multi-pass step launches
// many times, and each pool costs a mapping and one mprotect per stack.
std::mutex g_pools_mutex;
std::vector<std::unique_ptr<StackPool>> g_free_pools;

std::unique_ptr<StackPool> take_pool(std::size_t count) {
    {
        std::lock_guard<std::mutex> lock(g_pools_mutex);
        for (auto it = g_free_pools.begin(); it != g_free_pools.end(); ++it)
            if ((*it)->count() >= count) {
                auto pool = std::move(*it);
                g_free_pools.erase(it);
                return pool;
            }
    }
    return std::make_unique<StackPool>(count);
}

void give_back_pool(std::unique_ptr<StackPool> pool) {
    std::lock_guard<std::mutex> lock(g_pools_mutex);
    g_free_pools.push_back(std::move(pool));
}

// Hands a pool's stack to one fiber; the pool owns the memory.
struct PooledStack {
    ctx::stack_context sc;
    ctx::stack_context allocate() { return sc; }
    void deallocate(ctx::stack_context&) noexcept {}
};

struct Slot {
    enum class State { Ready, Barrier, Warp, Done } state = State::Ready;
    alignas(ctx::fiber) unsigned char fiber_storage[sizeof(ctx::fiber)];
    alignas(ctx::fiber) unsigned char sched_storage[sizeof(ctx::fiber)];
    int predicate = 0;
    unsigned mask = 0;
    std::uint64_t value = 0;
    std::uintptr_t pc = 0;  // where the thread waits: the hook's return address in the kernel's code
    ctx::fiber& fiber() { return *reinterpret_cast<ctx::fiber*>(fiber_storage); }
    ctx::fiber& sched() { return *reinterpret_cast<ctx::fiber*>(sched_storage); }
};

struct Warp {
    std::uint64_t results[32] = {};
    unsigned arrived = 0;
    unsigned generation = 0;  // warp operations released: the race check's order within the warp
};

// What a launch did that CUDA leaves undefined, said after the verdict.
// Shared by the launch's OS threads; the first of each kind is kept.
struct LaunchNotes {
    std::mutex mutex;
    bool partial_mask = false;
    std::uintptr_t partial_mask_pc = 0;
    unsigned partial_mask_lane = 0, partial_mask_mask = 0;
};

struct BlockRun {
    void (*entry)(void**) = nullptr;
    void** args = nullptr;
    WbEmuThread* tls = nullptr;
    WbEmuDim3 block{}, block_dim{}, grid_dim{};
    unsigned threads = 0;
    bool fibers = false;
    std::vector<Slot>* slots = nullptr;
    std::vector<Warp>* warps = nullptr;
    unsigned current = 0;
    int barrier_count = 0;
    unsigned barrier_generation = 0;  // barriers released: the race check's order within the block
    const std::vector<unsigned>* order = nullptr;  // the schedule: the order threads run in
    Sentence deadlock;     // set when the block cannot go on: why
    std::uintptr_t deadlock_warp_pc = 0, deadlock_barrier_pc = 0;  // where its first threads wait
    LaunchNotes* notes = nullptr;
};

// A warp operation whose mask leaves out the lane that calls it: CUDA leaves
// its result undefined, and the emulator says so once per launch.
void note_mask(BlockRun& b, unsigned mask, std::uintptr_t pc) {
    const unsigned lane = b.current % 32;
    if (!b.notes || (mask >> lane) & 1u) return;
    std::lock_guard<std::mutex> lock(b.notes->mutex);
    if (b.notes->partial_mask) return;
    b.notes->partial_mask = true;
    b.notes->partial_mask_pc = pc;
    b.notes->partial_mask_lane = lane;
    b.notes->partial_mask_mask = mask;
}

void set_thread(BlockRun& b, unsigned linear) {
    WbEmuThread& t = *b.tls;
    t.threadIdx.x = linear % b.block_dim.x;
    t.threadIdx.y = (linear / b.block_dim.x) % b.block_dim.y;
    t.threadIdx.z = linear / (b.block_dim.x * b.block_dim.y);
    t.lane = linear % 32;
    t.warp = linear / 32;
    AccessLaunch::enter_thread(linear, b.barrier_generation, b.warps && !b.warps->empty() ? (*b.warps)[linear / 32].generation : 0);
}

void yield_to_scheduler(BlockRun& b) {
    Slot& s = (*b.slots)[b.current];
    s.sched() = std::move(s.sched()).resume();
    // Resumed: the scheduler set this thread's indices again.
}

int hook_syncthreads(int predicate) {
    BlockRun* b = t_block;
    if (!b || !b->fibers) return predicate != 0;  // one thread alone: nothing to wait for
    Slot& s = (*b->slots)[b->current];
    s.state = Slot::State::Barrier;
    s.predicate = predicate;
    s.pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
    yield_to_scheduler(*b);
    return b->barrier_count;
}

const std::uint64_t* hook_warp_exchange(unsigned mask, std::uint64_t mine, unsigned* arrived) {
    BlockRun* b = t_block;
    static thread_local Warp alone;
    const auto pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
    if (b) note_mask(*b, mask, pc);
    if (!b || !b->fibers) {
        alone = Warp{};
        alone.results[b ? b->current % 32 : 0] = mine;
        alone.arrived = 1u << (b ? b->current % 32 : 0);
        if (arrived) *arrived = alone.arrived;
        return alone.results;
    }
    Slot& s = (*b->slots)[b->current];
    s.state = Slot::State::Warp;
    s.mask = mask;
    s.value = mine;
    s.pc = pc;
    const unsigned warp = b->current / 32;
    yield_to_scheduler(*b);
    const Warp& w = (*b->warps)[warp];
    if (arrived) *arrived = w.arrived;
    return w.results;
}

// A trap's words (cuda_emu.h's __trap, __brkpt and assert) as a catalogue phrase.
Phrase trap_phrase(const std::string& what) {
    if (what.rfind("__trap()", 0) == 0) return {"emu.trap.trap", {}};
    if (what.rfind("__brkpt()", 0) == 0) return {"emu.trap.brkpt", {}};
    const std::string open = "Assertion `", close = "` failed.";
    if (what.rfind(open, 0) == 0 && what.size() >= open.size() + close.size() &&
        what.compare(what.size() - close.size(), close.size(), close) == 0)
        return {"emu.trap.assert", {what.substr(open.size(), what.size() - open.size() - close.size())}};
    return verbatim(what);
}

[[noreturn]] void hook_trap(const char* what, const char* file, int line) {
    t_fault = ThreadFault{};
    t_fault.trap = std::string(what ? what : "__trap() was called");
    if (file && *file) t_fault.trap_where = std::string(file) + ":" + std::to_string(line);
    t_fault.signal = -1;
    t_in_kernel = false;
    ::siglongjmp(t_jump, 1);
}

// The launch's device heap; outside a launch (a static initialiser, or a
// destructor as the library is unloaded) the process's own allocator.
void* hook_heap_alloc(std::uint64_t bytes, std::uint64_t align) {
    if (!t_in_kernel) return std::malloc(static_cast<std::size_t>(bytes));
    if (!t_arena) return nullptr;
    return t_arena->heap_alloc(static_cast<std::size_t>(bytes), static_cast<std::size_t>(align));
}

void hook_heap_free(void* p, const void* caller) {
    if (!t_in_kernel) {
        std::free(p);
        return;
    }
    if (t_arena && t_arena->heap_free(p)) return;
    // Not an allocation of this heap, or one already freed: undefined on a
    // GPU, a fault here, at the call (the address just before its return).
    t_fault = ThreadFault{};
    t_fault.signal = kTrapped;
    t_fault.trap = "free()";
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p)));
    t_fault.trap_address = hex;
    t_fault.trap_where = source_line_of(reinterpret_cast<std::uintptr_t>(caller) - 1);
    t_in_kernel = false;
    ::siglongjmp(t_jump, 1);
}

// exit(), quick_exit(), _exit(), abort() or raise() in the kernel (cuda_emu.h's __wrap_ functions).
[[noreturn]] void hook_ended(int how, int value, const void* pc) {
    t_fault = ThreadFault{};
    t_fault.signal = kEnded;
    t_fault.ended_how = how;
    t_fault.ended_value = value;
    t_fault.pc = reinterpret_cast<std::uintptr_t>(pc) - 1;  // the call, not the instruction after it
    t_in_kernel = false;
    ::siglongjmp(t_jump, 1);
}

// An exception that left the kernel (the generated entry caught it, and
// calls this after its catch block has ended, so nothing is left half-caught).
[[noreturn]] void hook_threw(const char* type, const char* what) {
    t_fault = ThreadFault{};
    t_fault.signal = kEnded;
    t_fault.ended_how = kThrew;
    int status = 0;
    char* name = type && *type ? abi::__cxa_demangle(type, nullptr, nullptr, &status) : nullptr;
    t_fault.threw_type = name && status == 0 ? name : (type && *type ? type : "an exception of unknown type");
    std::free(name);
    t_fault.threw_what = what ? what : "";
    t_in_kernel = false;
    ::siglongjmp(t_jump, 1);
}

// A misaligned load, store or atomic (access_check.hpp, which sees every
// access, calls this only inside a launch) ends the launch where it is, as
// error 716 ends a GPU's.
[[noreturn]] void on_misaligned(const void* address, unsigned how, const void* pc) {
    t_fault = ThreadFault{};
    t_fault.signal = kTrapped;
    t_fault.trap = "misaligned";
    t_fault.address = reinterpret_cast<std::uintptr_t>(address);
    t_fault.misaligned_bytes = how & kAccessSizeMask;
    t_fault.write = (how & kAccessWrite) != 0;
    t_fault.trap_where = source_line_of(reinterpret_cast<std::uintptr_t>(pc) - 1);
    t_in_kernel = false;
    ::siglongjmp(t_jump, 1);
}

// [SECTION] static shared variables

constexpr std::size_t kSharedRegionBytes = std::size_t(8) << 20;  // address space, touched only as used
constexpr std::size_t kSharedGuardBytes = 256;  // guard bytes before and after each variable
constexpr std::size_t kSharedChecked = std::size_t(1) << 20;  // the part of the region the access check shadows

// Where this OS thread's blocks keep their static __shared__ variables: one
// mapping between two pages that cannot be touched, used from its start
// again by each block. A GPU allows 48 KiB of static shared memory a block
// (ptxas refuses more), so it is never close to full. Being the emulator's
// own memory, a write far past a variable's end lands in the region, or
// faults, and never on the worker's heap or another thread-local.
class SharedRegion {
public:
    SharedRegion() : memory_(kSharedRegionBytes, page_size()), base_(reinterpret_cast<unsigned char*>(memory_.body())) {}

    void reset() { used_ = 0; }
    unsigned char* base() const { return base_; }
    // `bytes` at a multiple of `align`, filled with the poison, with at least
    // kSharedGuardBytes of the guard pattern before and exactly that after; null when full.
    unsigned char* take(std::size_t bytes, std::size_t align) {
        if (!base_) return nullptr;
        const std::size_t at = (used_ + kSharedGuardBytes + align - 1) / align * align;
        if (at > kSharedRegionBytes || bytes > kSharedRegionBytes - at || kSharedRegionBytes - at - bytes < kSharedGuardBytes)
            return nullptr;
        std::memset(base_ + used_, kSharedGuard, at - used_);
        std::memset(base_ + at, kSharedPoison, bytes);
        std::memset(base_ + at + bytes, kSharedGuard, kSharedGuardBytes);
        used_ = at + bytes + kSharedGuardBytes;
        return base_ + at;
    }

private:
    GuardedMapping memory_;  // null body when the system refused it: take() then says the region is full
    unsigned char* base_ = nullptr;
    std::size_t used_ = 0;
};

// The static __shared__ variables the running block has reached (shared_vars.hpp), and their region.
thread_local std::vector<SharedVar> t_shared_vars;
thread_local std::unique_ptr<SharedRegion> t_shared_region;
// WbEmuThread::block_serial's source: one number per block, for the whole process.
std::atomic<unsigned long long> g_block_serial{0};

void* hook_shared_declared(std::uint64_t bytes, std::uint64_t align, std::uint64_t element_bytes, const char* name,
                           const char* file, int line) {
    if (!t_shared_region) t_shared_region = std::make_unique<SharedRegion>();
    const std::size_t a = std::max<std::size_t>(16, static_cast<std::size_t>(align));
    unsigned char* p = t_shared_region->take(static_cast<std::size_t>(bytes), a);
    if (!p) {
        t_fault = ThreadFault{};
        t_fault.signal = kTrapped;
        t_fault.trap = "__shared__";
        t_fault.trap_where = fs::path(file ? file : "").filename().string() + ":" + std::to_string(line);
        t_in_kernel = false;
        ::siglongjmp(t_jump, 1);
    }
    t_shared_vars.push_back({p, static_cast<std::size_t>(bytes), static_cast<std::size_t>(element_bytes),
                             kSharedGuardBytes, name, file, line});
    return p;
}

// The first static __shared__ variable of the block that just ended (or
// faulted) on this OS thread whose guards changed: a thread wrote past its
// end or before its start. A write that jumped over a guard is not seen
// here: it lands in another variable, or unused region, or faults at the
// region's end (then named as a write to no buffer's address).
std::optional<EmuFault> shared_overflow(const WbEmuDim3& block) {
    for (const SharedVar& v : t_shared_vars) {
        const auto* p = static_cast<const unsigned char*>(v.base);
        bool before = false, after = false;
        for (std::size_t i = 0; i < v.guard && !before; ++i) before = p[-1 - static_cast<std::ptrdiff_t>(i)] != kSharedGuard;
        for (std::size_t i = 0; i < v.guard && !after; ++i) after = p[v.bytes + i] != kSharedGuard;
        if (!before && !after) continue;
        EmuFault f;
        f.kind = EmuFault::Kind::SharedOverflow;
        f.block = {block.x, block.y, block.z};
        f.where = fs::path(v.file ? v.file : "").filename().string() + ":" + std::to_string(v.line);
        const bool scalar = v.bytes == v.element_bytes;
        const char* key = after ? (scalar ? "emu.shared_overflow.past_variable" : "emu.shared_overflow.past")
                                : (scalar ? "emu.shared_overflow.before_variable" : "emu.shared_overflow.before");
        f.said = {{key, {v.name ? v.name : "", f.where, std::to_string(v.bytes)}},
                  {"emu.in_block", {std::to_string(block.x), std::to_string(block.y), std::to_string(block.z)}}};
        f.message = render(f.said, "en");
        return f;
    }
    return std::nullopt;
}

const WbEmuHooks kHooks = {hook_syncthreads, hook_warp_exchange, hook_trap, hook_heap_alloc, hook_heap_free,
                           hook_ended, hook_threw, check_access, hook_shared_declared};
// For a launch that counts for a step's access limits (access_check.hpp).
const WbEmuHooks kCountingHooks = {hook_syncthreads, hook_warp_exchange, hook_trap, hook_heap_alloc, hook_heap_free,
                                   hook_ended, hook_threw, check_access_counted, hook_shared_declared};

// Releases what can go on after every ready thread has run: a block barrier
// when all live threads wait at one, or a warp whose waiting lanes' masks are
// all present. False when nothing can: the block is stuck.
bool release(BlockRun& b) {
    auto& slots = *b.slots;
    unsigned live = 0, at_barrier = 0;
    int count = 0;
    for (auto& s : slots) {
        if (s.state == Slot::State::Done) continue;
        ++live;
        if (s.state == Slot::State::Barrier) ++at_barrier, count += s.predicate != 0;
    }
    if (live == 0) return true;
    if (at_barrier == live) {
        b.barrier_count = count;
        ++b.barrier_generation;
        for (auto& s : slots)
            if (s.state == Slot::State::Barrier) s.state = Slot::State::Ready;
        return true;
    }
    bool any = false;
    const unsigned warps = (b.threads + 31) / 32;
    for (unsigned w = 0; w < warps; ++w) {
        unsigned waiting = 0, live_lanes = 0;
        for (unsigned l = 0; l < 32 && w * 32 + l < b.threads; ++l) {
            const Slot& s = slots[w * 32 + l];
            if (s.state != Slot::State::Done) live_lanes |= 1u << l;
            if (s.state == Slot::State::Warp) waiting |= 1u << l;
        }
        if (!waiting) continue;
        bool ready = true;
        for (unsigned l = 0; l < 32 && ready; ++l)
            if (waiting & (1u << l)) ready = (slots[w * 32 + l].mask & live_lanes & ~waiting) == 0;
        if (!ready) continue;
        Warp& wp = (*b.warps)[w];
        wp.arrived = waiting;
        ++wp.generation;
        for (unsigned l = 0; l < 32; ++l) {
            wp.results[l] = (waiting & (1u << l)) ? slots[w * 32 + l].value : 0;
            if (waiting & (1u << l)) slots[w * 32 + l].state = Slot::State::Ready;
        }
        any = true;
    }
    if (any) return true;
    b.deadlock = {{"emu.deadlock.warp", {std::to_string(live - at_barrier), std::to_string(at_barrier)}}};
    b.deadlock_warp_pc = b.deadlock_barrier_pc = 0;
    for (const auto& s : slots) {
        if (s.state == Slot::State::Warp && !b.deadlock_warp_pc) b.deadlock_warp_pc = s.pc;
        if (s.state == Slot::State::Barrier && !b.deadlock_barrier_pc) b.deadlock_barrier_pc = s.pc;
    }
    return false;
}

void run_block_in_order(BlockRun& b) {
    for (unsigned i = 0; i < b.threads; ++i) {
        const unsigned t = (*b.order)[i];
        b.current = t;
        set_thread(b, t);
        b.entry(b.args);
    }
}

void run_block_as_fibers(BlockRun& b, const StackPool& pool) {
    auto& slots = *b.slots;
    for (unsigned t = 0; t < b.threads; ++t) {
        Slot& s = slots[t];
        s.state = Slot::State::Ready;
        new (s.sched_storage) ctx::fiber();
        new (s.fiber_storage) ctx::fiber(std::allocator_arg, PooledStack{pool.stack(t)}, [&b, t](ctx::fiber&& sched) {
            Slot& me = (*b.slots)[t];
            me.sched() = std::move(sched);
            b.entry(b.args);
            me.state = Slot::State::Done;
            return std::move(me.sched());
        });
    }
    unsigned done = 0;
    while (done < b.threads) {
        bool ran = false;
        for (unsigned i = 0; i < b.threads; ++i) {
            const unsigned t = (*b.order)[i];
            Slot& s = slots[t];
            if (s.state != Slot::State::Ready) continue;
            b.current = t;
            set_thread(b, t);
            const ctx::stack_context sc = pool.stack(t);
            t_stack.low = reinterpret_cast<std::uintptr_t>(sc.sp) - sc.size;
            t_stack.guard = t_stack.low - page_size();
            t_stack.bytes = sc.size;
            s.fiber() = std::move(s.fiber()).resume();
            ran = true;
            if (s.state == Slot::State::Done) ++done;
        }
        if (done == b.threads) break;
        if (!release(b) && !ran) break;
        if (!b.deadlock.empty()) break;
    }
    // Fibers that finished are empty; the others (a stuck block) are left
    // unwound on purpose: their stacks belong to the pool.
    for (auto& s : slots)
        if (s.state == Slot::State::Done) {
            s.fiber().~fiber();
            s.sched().~fiber();
        }
}

}  // namespace

std::size_t emulator_stack_reservation() {
    return std::size_t(std::max(1u, std::thread::hardware_concurrency())) * 1024 * (kFiberStackBytes + page_size());
}

const std::vector<SharedVar>& block_shared_vars() { return t_shared_vars; }

const SharedVar* block_shared_var_at(std::uintptr_t address) {
    for (const SharedVar& v : t_shared_vars) {
        const auto base = reinterpret_cast<std::uintptr_t>(v.base);
        if (address >= base && address - base < v.bytes) return &v;
    }
    return nullptr;
}

// [SECTION] launch

EmuModule::EmuModule(const EmuBuild& build, bool plain)
    : fibers_(build.fibers), library_(plain ? build.plain_library : build.library) {
    handle_ = ::dlopen(library_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_)
        throw Error(ErrorKind::Internal, std::string("cannot load the emulated kernels: ") + ::dlerror(),
                    Location{library_.string(), "", 0, 0});
    auto bind = reinterpret_cast<void (*)(const WbEmuHooks*)>(::dlsym(handle_, "wb_emu_bind"));
    if (!bind) throw Error(ErrorKind::Internal, "the emulated kernel library has no wb_emu_bind");
    bind(&kHooks);
    bind_ = bind;
    statics_ = read_static_shared(library_);
    for (std::size_t i = 0; i < build.entries.size(); ++i) {
        const std::string n = std::to_string(i);
        auto e = reinterpret_cast<void (*)(void**)>(::dlsym(handle_, ("wb_emu_entry_" + n).c_str()));
        auto a = reinterpret_cast<int (*)()>(::dlsym(handle_, ("wb_emu_arity_" + n).c_str()));
        if (!e || !a) throw Error(ErrorKind::Internal, "the emulated kernel library lacks the entry for '" + build.entries[i] + "'");
        entries_.push_back(e);
        arities_.push_back(a());
    }
}

EmuModule::~EmuModule() {
    if (handle_) ::dlclose(handle_);
}

void* EmuModule::symbol(const std::string& name) const { return ::dlsym(handle_, name.c_str()); }

int EmuModule::arity(std::size_t entry) const { return arities_.at(entry); }

namespace {

// The order a block's threads run in under `schedule` (see launch()).
// A core's dynamic shared memory (extern __shared__): the launch's bytes
// end where a page that cannot be touched begins, with another before them,
// so a thread that runs past either end faults there and is named, instead
// of writing over the worker's heap.
class DynamicSharedMemory {
public:
    explicit DynamicSharedMemory(std::size_t bytes)
        : memory_(bytes, page_size()), bytes_(bytes) {
        // 16-byte aligned, its end at the guard page. If the system refused
        // the mapping, data() is null and the first access is a bad address.
        if (memory_.ok()) data_ = memory_.body_end() - (bytes + 15) / 16 * 16;
    }
    std::byte* data() const { return data_; }
    // Whether `address` is in this mapping but not in the launch's bytes: past the end, or before the start.
    bool outside(std::uintptr_t address, bool* past) const {
        const auto d = reinterpret_cast<std::uintptr_t>(data_);
        if (!memory_.contains(address) || (address >= d && address < d + bytes_)) return false;
        *past = address >= d;
        return true;
    }

private:
    GuardedMapping memory_;
    std::byte* data_ = nullptr;
    std::size_t bytes_ = 0;
};

std::vector<unsigned> thread_order(unsigned threads, std::uint32_t schedule) {
    std::vector<unsigned> order(threads);
    std::iota(order.begin(), order.end(), 0u);
    if (schedule == 0) return order;
    std::mt19937 rng(schedule);
    const unsigned warps = (threads + 31) / 32;
    std::vector<unsigned> warp_order(warps);
    std::iota(warp_order.begin(), warp_order.end(), 0u);
    std::shuffle(warp_order.begin(), warp_order.end(), rng);
    order.clear();
    for (unsigned w : warp_order) {
        const std::size_t first = order.size();
        for (unsigned l = 0; l < 32 && w * 32 + l < threads; ++l) order.push_back(w * 32 + l);
        std::shuffle(order.begin() + static_cast<std::ptrdiff_t>(first), order.end(), rng);
    }
    return order;
}

}  // namespace

std::optional<EmuFault> EmuModule::launch(std::size_t entry, const LaunchDims& dims, void** args, EmuArena* arena,
                                          AccessShadow* shadow, std::uint32_t schedule, unsigned threads) {
    const long long blocks = dims.blocks();
    const auto per_block = static_cast<unsigned>(dims.threads_per_block());
    if (blocks <= 0 || per_block == 0) return std::nullopt;
    auto tls_of = reinterpret_cast<WbEmuThread* (*)()>(::dlsym(handle_, "wb_emu_thread"));
    if (!tls_of) throw Error(ErrorKind::Internal, "the emulated kernel library has no wb_emu_thread");
    const unsigned cores = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    const unsigned workers = static_cast<unsigned>(std::min<long long>(cores, blocks));

    FaultHandlers handlers;
    LaunchNotes notes;
    notes_.clear();
    std::atomic<long long> next{0};
    std::atomic<bool> stop{false};
    std::mutex fault_mutex;
    std::optional<EmuFault> fault;
    void (*fn)(void**) = entries_.at(entry);
    const bool fibers = fibers_;
    const std::vector<unsigned> order = thread_order(per_block, schedule);
    set_misaligned_handler(on_misaligned);
    AccessLaunch checks(shadow, static_cast<unsigned long long>(blocks), per_block);
    // The hooks that count, for this launch only, when the run counts for access limits.
    struct Counting {
        void (*bind)(const WbEmuHooks*);
        bool on;
        ~Counting() {
            if (on) bind(&kHooks);
        }
    } counting{bind_, shadow && shadow->counting()};
    if (counting.on) bind_(&kCountingHooks);

    auto worker = [&] {
        AltStack alt;
        WbEmuThread* tls = tls_of();
        DynamicSharedMemory shared(static_cast<std::size_t>(dims.shared_bytes));
        std::unique_ptr<StackPool> pool;
        std::vector<Slot> slots(fibers ? per_block : 0);
        std::vector<Warp> warps(fibers ? (per_block + 31) / 32 : 0);
        if (fibers) pool = take_pool(per_block);
        BlockRun b;
        b.entry = fn;
        b.args = args;
        b.tls = tls;
        b.threads = per_block;
        b.fibers = fibers;
        b.slots = &slots;
        b.warps = &warps;
        b.notes = &notes;
        b.order = &order;
        b.block_dim = {unsigned(dims.block[0]), unsigned(dims.block[1]), unsigned(dims.block[2])};
        b.grid_dim = {unsigned(dims.grid[0]), unsigned(dims.grid[1]), unsigned(dims.grid[2])};
        tls->blockDim = b.block_dim;
        tls->gridDim = b.grid_dim;
        std::byte* aligned = shared.data();
        tls->dynamic_shared = aligned;
        tls->dynamic_shared_bytes = static_cast<unsigned long long>(dims.shared_bytes);
        t_block = &b;
        t_arena = arena;
        // This core's copy of the library's thread-locals: its static __shared__ arrays.
        void* tls_block = nullptr;
        if (::dlinfo(handle_, RTLD_DI_TLS_DATA, &tls_block) != 0) tls_block = nullptr;
        auto* statics_block = static_cast<std::byte*>(tls_block);
        if (!t_shared_region) t_shared_region = std::make_unique<SharedRegion>();
        // The checked part of the region: a block's static shared memory is at most 48 KiB on a GPU (ptxas), with guards.
        checks.bind_core(aligned, static_cast<std::size_t>(dims.shared_bytes),
                         reinterpret_cast<const std::byte*>(t_shared_region->base()), t_shared_region->base() ? kSharedChecked : 0,
                         statics_block, &statics_);
        const StackBounds own_stack = os_thread_stack();
        while (!stop.load(std::memory_order_relaxed)) {
            const long long taken = next.fetch_add(1);
            if (taken >= blocks) break;
            const long long i = schedule ? blocks - 1 - taken : taken;
            checks.enter_block(static_cast<unsigned long long>(i));
            b.block = {unsigned(i % dims.grid[0]), unsigned((i / dims.grid[0]) % dims.grid[1]),
                       unsigned(i / (dims.grid[0] * dims.grid[1]))};
            tls->blockIdx = b.block;
            tls->block_serial = g_block_serial.fetch_add(1, std::memory_order_relaxed) + 1;
            t_shared_vars.clear();
            if (t_shared_region) t_shared_region->reset();
            b.deadlock.clear();
            // A block's dynamic shared memory starts as a GPU leaves it: not
            // zeroed. 0xFF bytes (a NaN in every float, -1 in every int), so a
            // kernel that reads what no thread of its block wrote fails.
            std::memset(aligned, kSharedPoison, static_cast<std::size_t>(dims.shared_bytes));
            // And so do its static __shared__ arrays (this core's copies).
            if (statics_block)
                for (const StaticSharedVar& v : statics_.vars) std::memset(statics_block + v.offset, kSharedPoison, v.bytes);
            t_stack = own_stack;
            if (sigsetjmp(t_jump, 1) == 0) {
                t_in_kernel = true;
                if (fibers) run_block_as_fibers(b, *pool);
                else run_block_in_order(b);
                t_in_kernel = false;
                if (auto overflow = shared_overflow(b.block)) {
                    std::lock_guard<std::mutex> lock(fault_mutex);
                    if (!fault) fault = std::move(overflow);
                    stop = true;
                    break;
                }
                if (b.deadlock.empty()) continue;
                EmuFault f;
                f.kind = EmuFault::Kind::Deadlock;
                f.block = {b.block.x, b.block.y, b.block.z};
                f.said = {{"emu.deadlock", {std::to_string(b.block.x), std::to_string(b.block.y), std::to_string(b.block.z)}}};
                f.said.insert(f.said.end(), b.deadlock.begin(), b.deadlock.end());
                // The return addresses are after the hook's call: one byte back is the call, on the student's line.
                const std::string warp_at = b.deadlock_warp_pc ? source_line_of(b.deadlock_warp_pc - 1) : "";
                const std::string barrier_at = b.deadlock_barrier_pc ? source_line_of(b.deadlock_barrier_pc - 1) : "";
                if (!warp_at.empty()) f.said.push_back({"emu.deadlock.warp_at", {warp_at}});
                if (!barrier_at.empty()) f.said.push_back({"emu.deadlock.barrier_at", {barrier_at}});
                f.where = warp_at;
                f.message = render(f.said, "en");
                std::lock_guard<std::mutex> lock(fault_mutex);
                if (!fault) fault = std::move(f);
                stop = true;
                break;
            }
            // A fault in the kernel: siglongjmp brought us here from the handler.
            // An overflowed static __shared__ array is said first: what it
            // overwrote (another variable, the block's indices) may be why.
            if (auto overflow = shared_overflow(b.block)) {
                std::lock_guard<std::mutex> lock(fault_mutex);
                if (!fault) fault = std::move(overflow);
                stop = true;
                break;
            }
            EmuFault f;
            f.block = {b.block.x, b.block.y, b.block.z};
            f.thread = {tls->threadIdx.x, tls->threadIdx.y, tls->threadIdx.z};
            f.has_thread = true;
            f.address = t_fault.address;
            f.write = t_fault.write;
            const Phrase who{"emu.who", {std::to_string(f.block[0]), std::to_string(f.block[1]), std::to_string(f.block[2]),
                                         std::to_string(f.thread[0]), std::to_string(f.thread[1]), std::to_string(f.thread[2])}};
            if (t_fault.signal == kTrapped && t_fault.trap == "misaligned") {
                f.kind = EmuFault::Kind::Misaligned;
                f.where = t_fault.trap_where;
                char hex[32];
                std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(t_fault.address));
                const auto in = arena ? arena->describe(f.address) : std::nullopt;
                f.said = {{f.write ? "emu.misaligned_write" : "emu.misaligned_read", {std::to_string(t_fault.misaligned_bytes), hex}}};
                if (in) f.said.push_back({"emu.misaligned_in", {in->buffer}});
                f.said.push_back(who);
            } else if (t_fault.signal == kTrapped && t_fault.trap == "__shared__") {
                f.kind = EmuFault::Kind::SharedOverflow;
                f.where = t_fault.trap_where;
                f.said = {{"emu.shared_full", {size_text(kSharedRegionBytes)}}, who};
            } else if (t_fault.signal == kTrapped && t_fault.trap == "free()") {
                f.kind = EmuFault::Kind::BadFree;
                f.where = t_fault.trap_where;
                f.said = {{"emu.bad_free", {t_fault.trap_address}}, who};
            } else if (t_fault.signal == kTrapped) {
                f.kind = EmuFault::Kind::Trap;
                f.where = t_fault.trap_where;
                f.said = {{"emu.trap", {}}, trap_phrase(t_fault.trap), who};
            } else if (t_fault.signal == kEnded && t_fault.ended_how == kThrew) {
                f.kind = EmuFault::Kind::Threw;
                f.said = {{t_fault.threw_what.empty() ? "emu.threw" : "emu.threw_what", {t_fault.threw_type, t_fault.threw_what}},
                          who};
            } else if (t_fault.signal == kEnded) {
                f.kind = EmuFault::Kind::Ended;
                f.where = source_line_of(t_fault.pc);
                const std::string v = std::to_string(t_fault.ended_value);
                switch (t_fault.ended_how) {
                case WB_EMU_EXIT: f.said = {{"emu.ended.exit", {v}}}; break;
                case WB_EMU_QUICK_EXIT: f.said = {{"emu.ended.quick_exit", {v}}}; break;
                case WB_EMU_UNDERSCORE_EXIT: f.said = {{"emu.ended._exit", {v}}}; break;
                case WB_EMU_ABORT: f.said = {{"emu.ended.abort", {}}}; break;
                default: f.said = {{"emu.raised", {v, signal_name(t_fault.ended_value)}}}; break;
                }
                f.said.push_back(who);
            } else if (t_fault.signal == SIGSEGV && t_fault.code == SI_KERNEL && t_fault.address == 0) {
                // A general-protection fault: on x86-64 an aligned vector
                // instruction (movaps) at an address 16 does not divide,
                // whose address the processor does not report.
                f.kind = EmuFault::Kind::Misaligned;
                f.where = source_line_of(t_fault.pc);
                f.said = {{"emu.misaligned_vector", {}}, who};
            } else if (t_fault.code <= 0) {
                // kill() or tgkill() from the kernel's code: no access went wrong, whatever the signal says.
                f.kind = EmuFault::Kind::Ended;
                f.where = source_line_of(t_fault.pc);
                f.said = {{"emu.raised", {std::to_string(t_fault.signal), signal_name(t_fault.signal)}}, who};
            } else if (is_stack_overflow(t_fault, t_stack)) {
                f.kind = EmuFault::Kind::StackOverflow;
                f.where = source_line_of(t_fault.pc);
                f.said = {{"emu.stack_overflow", {size_text(t_stack.bytes)}}, who};
            } else if (t_fault.signal == SIGFPE) {
                f.kind = EmuFault::Kind::Arithmetic;
                f.where = source_line_of(t_fault.pc);
                f.said = {{"emu.divide_by_zero", {}}, who};
            } else if (t_fault.signal == SIGILL) {
                f.kind = EmuFault::Kind::Undefined;
                f.where = source_line_of(t_fault.pc);
                f.said = {{"emu.undefined", {}}, who};
            } else if (bool past = false; shared.outside(f.address, &past)) {
                f.kind = EmuFault::Kind::OutOfBounds;
                f.where = source_line_of(t_fault.pc);
                f.said = {{f.write ? (past ? "emu.dynamic_shared.wrote_past" : "emu.dynamic_shared.wrote_before")
                                   : (past ? "emu.dynamic_shared.read_past" : "emu.dynamic_shared.read_before"),
                           {std::to_string(dims.shared_bytes)}},
                          who};
            } else {
                f.where = source_line_of(t_fault.pc);
                const auto in = arena ? arena->describe(f.address) : std::nullopt;
                f.kind = in ? EmuFault::Kind::OutOfBounds : EmuFault::Kind::BadAddress;
                if (in)
                    f.said = {{f.write ? (in->past_end ? "emu.wrote_past" : "emu.wrote_before")
                                       : (in->past_end ? "emu.read_past" : "emu.read_before"),
                               {in->buffer, std::to_string(in->elements), std::to_string(in->element)}},
                              who};
                else {
                    char hex[32];
                    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(f.address));
                    f.said = {{f.write ? "emu.wrote_nowhere" : "emu.read_nowhere", {hex}}, who};
                }
            }
            if (!f.where.empty()) f.said.push_back({"emu.at", {f.where}});
            if (t_fault.signal == SIGFPE) f.said.push_back({"emu.divide_by_zero.gpu", {}});
            if (f.kind == EmuFault::Kind::Misaligned) f.said.push_back({"emu.misaligned.gpu", {}});
            f.message = render(f.said, "en");
            std::lock_guard<std::mutex> lock(fault_mutex);
            if (!fault) fault = std::move(f);
            stop = true;
            break;
        }
        t_block = nullptr;
        t_arena = nullptr;
        checks.unbind_core();
        t_shared_vars.clear();
        if (pool) give_back_pool(std::move(pool));
    };
    std::vector<std::thread> pool_threads;
    for (unsigned w = 1; w < workers; ++w) pool_threads.emplace_back(worker);
    worker();
    for (auto& t : pool_threads) t.join();
    checks.finish();
    if (notes.partial_mask) {
        char mask[16];
        std::snprintf(mask, sizeof mask, "0x%08x", notes.partial_mask_mask);
        const std::string at = source_line_of(notes.partial_mask_pc - 1);
        notes_.push_back({"emu.partial_mask", {std::to_string(notes.partial_mask_lane), mask}});
        if (!at.empty()) notes_.push_back({"emu.at", {at}});
        notes_.push_back({"emu.partial_mask.undefined", {}});
    }
    return fault;
}

std::string emulated_source_line(std::uintptr_t pc) { return source_line_of(pc); }

std::vector<std::string> emulated_source_lines(const std::vector<std::uintptr_t>& pcs) {
    std::vector<std::string> lines(pcs.size());
    // One addr2line per library, over all of its addresses.
    std::map<std::string, std::vector<std::size_t>> by_library;
    std::map<std::string, std::uintptr_t> bases;
    for (std::size_t i = 0; i < pcs.size(); ++i) {
        Dl_info info{};
        if (pcs[i] == 0 || !::dladdr(reinterpret_cast<void*>(pcs[i]), &info) || !info.dli_fname) continue;
        by_library[info.dli_fname].push_back(i);
        bases[info.dli_fname] = reinterpret_cast<std::uintptr_t>(info.dli_fbase);
    }
    for (const auto& [library, which] : by_library) {
        std::vector<std::uintptr_t> offsets;
        for (std::size_t i : which) offsets.push_back(pcs[i] - bases[library]);
        const auto frames = addr2line_frames(library, offsets);
        for (std::size_t k = 0; k < which.size(); ++k) lines[which[k]] = student_line(frames[k]);
    }
    return lines;
}

EmuTestRun emulate_for_test(const std::string& kernel_source, const std::string& entry, unsigned grid_x, unsigned block_x,
                            std::vector<std::vector<unsigned char>*> buffers, std::vector<long long> int_args) {
    EmuTestRun out;
    SourceText src;
    src.text = kernel_source;
    src.origin = "test.cu";
    EmuBuild b = build_emulated(src, {entry});
    if (b.refusal) {
        out.message = b.refusal->to_string();
        return out;
    }
    if (!b.ok) {
        for (const auto& d : b.diagnostics) out.message += d.to_string() + "\n";
        if (out.message.empty()) out.message = b.log;
        return out;
    }
    EmuModule m(b);
    EmuArena arena;
    std::vector<void*> pointers;
    std::vector<int> ints;
    for (std::size_t i = 0; i < buffers.size(); ++i) {
        std::byte* p = arena.add("b" + std::to_string(i), buffers[i]->size(), 1);
        std::memcpy(p, buffers[i]->data(), buffers[i]->size());
        pointers.push_back(p);
    }
    for (long long v : int_args) ints.push_back(static_cast<int>(v));
    std::vector<void*> args;
    for (auto& p : pointers) args.push_back(&p);
    for (auto& v : ints) args.push_back(&v);
    LaunchDims d;
    d.grid = {grid_x, 1, 1};
    d.block = {block_x, 1, 1};
    d.shared_bytes = 4096;
    auto fault = m.launch(0, d, args.data(), &arena);
    for (std::size_t i = 0; i < buffers.size(); ++i) std::memcpy(buffers[i]->data(), arena.data(i), buffers[i]->size());
    out.notes = render(m.notes(), "en");
    if (fault) {
        out.message = fault->message;
        out.where = fault->where;
        return out;
    }
    out.ok = true;
    return out;
}

}  // namespace wb
