// runtime/emulate/access_check.hpp — what the CPU emulator checks at every
// load and store of an emulated kernel: races, reads of memory nobody wrote,
// and misaligned accesses.
//
// The kernel library is compiled with GCC's -fsanitize=thread, which puts a
// call before each memory access the optimiser keeps (`__tsan_read4(p)`,
// `__tsan_write16(p)`, `__tsan_atomic32_fetch_add(p, ...)`). No ThreadSanitizer
// runtime is linked: cuda_emu.h defines those functions, and each hands the
// address, size and kind of access, and the code address of the access, to
// check_access() here, through WbEmuHooks::access.
//
// The record is a shadow cell per granule of each checked region: the launch's
// global buffers (a granule is the buffer's element, at most 8 bytes) and the
// running block's dynamic shared memory (a granule is a byte). A cell keeps the
// last write and a read since it: which block and thread, between which two
// barriers of the block (and warp operations of the warp), whether atomic, and
// at which code address. A conflict is a write together with a read or a write
// of the same granule by another thread, both between the same two barriers of
// their block, or by threads of different blocks (global memory), unless both
// are atomic. Whatever order the emulator runs the threads in, the second access
// of a conflicting pair finds the first in the cell, so a race is found on every
// run. Global cells are shared by the cores without locks: two blocks touching
// the same element within nanoseconds can hide one access from the other, and
// a race is still found through the kernel's other accesses to it.
//
// Alongside the cells, a byte per granule says whether the granule was ever
// written: inputs are, outputs the lesson does not fill are not, and a block's
// shared memory is not at its start. A read of a granule nobody wrote is what
// compute-sanitizer's initcheck reports.
//
// The findings are kept per launch, the lowest (region, element) of each kind,
// so what is said does not depend on which core got there first.
//
// For a step's access limits (lesson checks.access) the check also counts, in
// a run that asks for it (AccessShadow::count): per thread of every block, a
// word per limit on the core (no sharing, no lock), tallied into the highest
// and lowest counts when the core's next block starts; per element of a
// named buffer, a counter added to atomically. A launch without limits runs
// check_access, which has none of the counting in it; one with them,
// check_access_counted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace wb {

struct StaticShared;
class AccessRecord;

// The `how` word an access hook passes: its size in bytes, and flags.
enum : unsigned {
    kAccessSizeMask = 0xFFFFu,
    kAccessWrite = 1u << 16,
    kAccessAtomic = 1u << 17,
    // The compiler assumed the access naturally aligned (a plain __tsan_readN,
    // an atomic): a GPU stops at a misaligned one (error 716).
    kAccessAligned = 1u << 18,
};

// One side of a finding: who, and where in the code.
struct AccessSide {
    std::uint32_t block = 0;   // linear, within the launch
    std::uint32_t thread = 0;  // linear, within the block
    std::uintptr_t pc = 0;     // the code address (0: not known)
    bool write = false;
    bool atomic = false;
};

struct AccessFinding {
    enum class Kind { Race, Uninitialised };
    Kind kind = Kind::Race;
    bool shared = false;        // the block's shared memory, else a global buffer
    std::size_t region = 0;     // global: the buffer's index; shared: 0 dynamic, 1 a static array, 2 a namespace-scope one
    std::string name;           // the buffer's or the static array's name
    long long element = 0;      // the element (global: the buffer's element type; shared: the access's size)
    long long byte_offset = 0;  // from the region's start (a static array's: from the library's TLS block)
    unsigned element_bytes = 1; // what `element` counts in
    AccessSide earlier;         // a race's first access (its pc from pinpoint(); none for an unwritten read)
    AccessSide later;           // the access that found it
    long long granules = 0;     // how many accesses of that kind were found in the launch
};

// What a step's access limits count (lesson checks.access), over every
// thread of every launch of a run, or every element of one global buffer:
// its accesses of one kind (a read, a write, an atomic; shared or global
// memory). An access is one hook call: a float4 load is one read (of four
// elements, per element). Counting is on only for a run that asks
// (AccessShadow::count); a run that does not pays one untaken branch per access.
struct AccessCounter {
    enum class Op : std::uint8_t { Read, Write, Atomic };
    Op op = Op::Read;
    bool shared = false;       // shared memory (per thread only), else global buffers
    bool per_element = false;  // each element of `buffer`, else each thread
    long long buffer = -1;     // the buffer's index (AccessShadow::add_buffer's order); per thread, -1 = any
    // Bounds, to count how many threads or elements break them.
    std::optional<long long> at_most, at_least;
};

// Who a count is of: a thread (the run's launch number, counted from 0 over
// every launch and pass, and its linear block and thread) or an element.
struct AccessCounted {
    int launch = 0;
    unsigned long long block = 0;
    unsigned thread = 0;
    long long element = 0;
};

// What a counter found over the run.
struct AccessCountResult {
    long long counted = 0;  // threads, or elements
    long long outside = 0;  // of them, how many broke a bound
    long long max = 0, min = 0;
    AccessCounted max_at, min_at;  // the first (lowest launch, block, thread; or element) with each
};

// The shadow of a run's global buffers, kept for the whole run (so what was
// written by one launch is known to the next), and each core's shadow of its
// block's shared memory. Owned by the executor; the emulator points its
// launches at it.
//
// A cell is two words (the last write, and a read since it): a race is found
// from them, with the second access's code address. The first access's is
// found by pinpoint(): the run is repeated with only that element recorded,
// every access to it in order, and the first conflicting pair is named.
class AccessShadow {
public:
    // Global buffers whose cells would need more than this are not checked
    // (the run says so): a case of 16 million floats would need 256 MiB a buffer.
    static constexpr std::size_t kBudgetBytes = std::size_t(256) << 20;

    AccessShadow();
    ~AccessShadow();
    AccessShadow(const AccessShadow&) = delete;
    AccessShadow& operator=(const AccessShadow&) = delete;

    // A global buffer at `data`, `bytes` long, whose elements are
    // `element_size` bytes; its index is the order of the calls. An `input`'s
    // reads are not recorded while no kernel writes it (most read many times
    // over, as a blur's image): a write to one sets inputs_written(), and the
    // run is then repeated with check_inputs(true), every read recorded.
    void add_buffer(const std::string& name, const std::byte* data, std::size_t bytes, std::size_t element_size,
                    bool input = false);
    bool inputs_written() const { return inputs_written_.load(std::memory_order_relaxed); }
    void clear_inputs_written() { inputs_written_ = false; }  // at a run's start
    void check_inputs(bool all) { check_inputs_ = all; }
    // Whether buffer `i`'s contents count as written (an input, or an output the
    // lesson fills) or not (an output the kernel must write), for the next run.
    void set_written(std::size_t i, bool written);
    // Whether global memory is checked: false past kBudgetBytes of cells;
    // `cell_bytes()` then says how much it would have taken.
    bool checks_global() const { return cell_bytes_ <= kBudgetBytes; }
    std::size_t cell_bytes() const { return cell_bytes_; }

    // What the last launch found: at most one of each kind, the lowest.
    const std::vector<AccessFinding>& findings() const { return findings_; }

    // For the next launch only: record nothing but the accesses to the
    // element of `f` (in its block, for shared memory), then pinned() gives
    // `f` with the first conflicting pair among them.
    void pinpoint(const AccessFinding& f);
    std::optional<AccessFinding> pinned() const { return pinned_; }

    // From the next launch on: also keep every access of the sampled blocks
    // in `record` (access_record.hpp); null stops it. A pinpointing launch records nothing.
    void record(AccessRecord* record) { record_ = record; }

    // From the next launch on: count with `counters`, from zero (a run starts
    // its counts again); an empty list stops counting. At most 32 of them
    // count per thread (a step has at most kMaxAccessLimits). A pinpointing launch
    // counts nothing. counts() gives each counter's result, in their order,
    // over the launches since.
    void count(std::vector<AccessCounter> counters);
    bool counting() const { return counting_ != nullptr && pin_ == nullptr; }
    std::vector<AccessCountResult> counts() const;

    struct Region;
    struct Launch;
    struct Pin;
    struct Counting;

private:
    friend class AccessLaunch;
    friend struct AccessHook;
    std::vector<Region*> buffers_;
    std::size_t cell_bytes_ = 0;
    std::atomic<bool> inputs_written_{false};
    bool check_inputs_ = false;
    std::vector<AccessFinding> findings_;
    Pin* pin_ = nullptr;  // set by pinpoint(), for one launch
    std::optional<AccessFinding> pinned_;
    AccessRecord* record_ = nullptr;
    Counting* counting_ = nullptr;  // set by count(), while it counts
};

// One launch's use of a shadow, on the emulator's side: constructed before
// the first block, each core binds itself and says which block and thread
// run; finish() gathers the findings.
class AccessLaunch {
public:
    AccessLaunch(AccessShadow* shadow, unsigned long long blocks, unsigned threads_per_block);
    ~AccessLaunch();
    AccessLaunch(const AccessLaunch&) = delete;
    AccessLaunch& operator=(const AccessLaunch&) = delete;
    void finish();  // the findings into the shadow's findings() (or pinned())

    // Per core, before its first block: its dynamic shared memory, its region
    // for the static __shared__ variables of function bodies (shared_vars.hpp;
    // the checked part of it), and its block of the library's thread-local
    // storage, where `statics` (namespace-scope __shared__ arrays) are.
    void bind_core(const std::byte* dynamic_shared, std::size_t bytes, const std::byte* static_region,
                   std::size_t static_region_bytes, std::byte* static_block, const StaticShared* statics);
    void unbind_core();
    // A block starts on this core: its shared memory is unwritten again.
    void enter_block(unsigned long long linear_block);
    // The thread about to run on this core, and the barrier and warp
    // generations it is in.
    static void enter_thread(unsigned thread, unsigned barrier_generation, unsigned warp_generation);

private:
    friend struct AccessShadow::Launch;
    AccessShadow* shadow_;
    std::mutex mutex_;
    std::vector<AccessFinding> found_;  // the lowest of each kind
    std::vector<long long> counts_;
    std::uint32_t base_ = 0;  // this launch's first block number in the cells
    unsigned long long blocks_ = 0;
    unsigned threads_ = 0;         // per block
    AccessShadow::Counting* counting_ = nullptr;  // the shadow's, when this launch counts
    int number_ = 0;               // its launch number among those counted
};

// The check, for WbEmuHooks::access. A misaligned access (for a GPU) goes
// to `on_misaligned`, which ends the launch as error 716 would and does not return.
// check_access_counted also counts for the access limits: the hook of a
// launch whose shadow counts (AccessShadow::counting()), so that a launch
// without limits runs none of the counting.
void check_access(const void* address, unsigned how, const void* pc);
void check_access_counted(const void* address, unsigned how, const void* pc);
void set_misaligned_handler(void (*on_misaligned)(const void* address, unsigned how, const void* pc));

}  // namespace wb
