// runtime/emulate/access_check.cpp — the shadow cells and the check at every
// access of an emulated kernel (access_check.hpp).
#include "emulate/access_check.hpp"

#include "emulate/access_record.hpp"
#include "emulate/shared_vars.hpp"
#include "emulate/static_shared.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <memory>
#include <tuple>

#include <sys/mman.h>

namespace wb {

namespace {

// A cell's word for one access: who, between which barriers, and how.
//   bit 63 valid, 62 atomic, 61 more than one reader, 50..59 the block's
//   barrier generation (mod 1024), 42..49 the warp's (mod 256), 32..41 the
//   thread in its block, 0..31 the block's number (the launch's base + linear).
constexpr std::uint64_t kValid = 1ull << 63;
constexpr std::uint64_t kAtomic = 1ull << 62;
constexpr std::uint64_t kMany = 1ull << 61;

constexpr std::uint32_t block_of(std::uint64_t w) { return static_cast<std::uint32_t>(w); }
constexpr std::uint32_t thread_of(std::uint64_t w) { return static_cast<std::uint32_t>(w >> 32) & 0x3FF; }
constexpr std::uint32_t wgen_of(std::uint64_t w) { return static_cast<std::uint32_t>(w >> 42) & 0xFF; }
constexpr std::uint32_t bgen_of(std::uint64_t w) { return static_cast<std::uint32_t>(w >> 50) & 0x3FF; }

struct Cell {
    std::uint64_t w;  // the last write
    std::uint64_t r;  // a read since (or before it, in an earlier generation)
};

std::uint64_t load(const std::uint64_t& v) { return __atomic_load_n(&v, __ATOMIC_RELAXED); }
void store(std::uint64_t& v, std::uint64_t x) { __atomic_store_n(&v, x, __ATOMIC_RELAXED); }

// An array mapped lazily: untouched pages cost nothing, and start zeroed.
template <class T>
class LazyArray {
public:
    LazyArray() = default;
    ~LazyArray() { release(); }
    LazyArray(const LazyArray&) = delete;
    LazyArray& operator=(const LazyArray&) = delete;
    void resize(std::size_t n) {
        if (n <= n_) return;
        release();
        bytes_ = std::max<std::size_t>(n, 1) * sizeof(T);
        void* m = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        items_ = m == MAP_FAILED ? nullptr : static_cast<T*>(m);
        n_ = items_ ? n : 0;
    }
    T* data() const { return items_; }
    std::size_t size() const { return n_; }

private:
    void release() {
        if (items_) ::munmap(items_, bytes_);
        items_ = nullptr;
        n_ = bytes_ = 0;
    }
    T* items_ = nullptr;
    std::size_t n_ = 0, bytes_ = 0;
};

// The shadow cells (empty when zero).
using CellMap = LazyArray<Cell>;

}  // namespace

struct AccessShadow::Region {
    std::string name;
    std::size_t index = 0;  // in the shadow's buffers
    bool input = false;     // reads unrecorded until a kernel writes it (AccessShadow::add_buffer)
    std::uintptr_t begin = 0, end = 0;
    unsigned shift = 0;  // a granule is 1 << shift bytes
    std::size_t element_bytes = 1;  // the buffer's element, for a count per element
    CellMap cells;
    std::vector<std::uint8_t> written;  // per granule
};

// pinpoint()'s element, and every access to it in the launch, in order.
struct AccessShadow::Pin {
    AccessFinding finding;
    std::uintptr_t begin = 0, end = 0;  // the bytes recorded (global; shared: offsets from the shared base)
    struct Access {
        std::uint64_t who;
        std::uintptr_t pc;
        bool write;
    };
    std::mutex mutex;
    std::vector<Access> log;
};

// The counts of a run's access limits (AccessShadow::count): the counters,
// each per-thread counter's result as the cores merge theirs in, and each
// per-element counter's array.
struct AccessShadow::Counting {
    std::vector<AccessCounter> counters;
    // The per-thread counters: their index in `counters`, the class of access
    // each counts (class_of) and the buffer it keeps (-1 any).
    std::vector<std::size_t> per_thread;
    std::vector<unsigned> thread_class;
    std::vector<long long> thread_buffer;
    struct Elements {
        std::size_t counter = 0;
        unsigned access_class = 0;
        const Region* region = nullptr;
        std::size_t element_bytes = 1;
        std::size_t elements = 0;
        LazyArray<std::uint32_t> counts;
    };
    std::deque<Elements> per_element;
    std::mutex mutex;
    std::vector<AccessCountResult> thread_results;  // per per-thread counter
    int launches = 0;                               // numbered so far
};

namespace {

// An access's class for counting: read 0, write 1, atomic 2; +3 in shared memory.
constexpr unsigned access_class(bool write, bool atomic, bool shared) { return (atomic ? 2u : write ? 1u : 0u) + (shared ? 3u : 0u); }
unsigned class_of(const AccessCounter& k) { return static_cast<unsigned>(k.op) + (k.shared ? 3u : 0u); }

bool breaks(const AccessCounter& k, long long v) { return (k.at_most && v > *k.at_most) || (k.at_least && v < *k.at_least); }

auto who_key(const AccessCounted& w) { return std::make_tuple(w.launch, w.block, w.thread, w.element); }

// `v` at `who` into a result: the count, how many break the bounds, and the
// first of the highest and of the lowest.
void tally(AccessCountResult& t, const AccessCounter& k, long long v, const AccessCounted& who) {
    if (t.counted == 0 || v > t.max || (v == t.max && who_key(who) < who_key(t.max_at))) t.max = v, t.max_at = who;
    if (t.counted == 0 || v < t.min || (v == t.min && who_key(who) < who_key(t.min_at))) t.min = v, t.min_at = who;
    ++t.counted;
    if (breaks(k, v)) ++t.outside;
}

// Two results of one counter, as one.
void merge_tally(AccessCountResult& into, const AccessCountResult& from) {
    if (from.counted == 0) return;
    if (into.counted == 0) {
        into = from;
        return;
    }
    if (from.max > into.max || (from.max == into.max && who_key(from.max_at) < who_key(into.max_at))) into.max = from.max, into.max_at = from.max_at;
    if (from.min < into.min || (from.min == into.min && who_key(from.min_at) < who_key(into.min_at))) into.min = from.min, into.min_at = from.min_at;
    into.counted += from.counted;
    into.outside += from.outside;
}

constexpr std::size_t kMaxThreadCounters = 32;  // per-thread counters a run counts with, at most

constexpr std::size_t kPinLog = std::size_t(1) << 20;  // accesses kept for pinpoint(), at most

// The running core's view: its launch, its shared memory, and the thread it runs now.
struct Core {
    AccessLaunch* launch = nullptr;
    AccessShadow* shadow = nullptr;
    bool global = false;  // global buffers are checked
    AccessShadow::Pin* pin = nullptr;
    std::uint32_t base = 0;
    unsigned long long blocks = 0;
    // The block's shared memory, checked byte by byte: [0] the dynamic
    // (extern __shared__); [1] the static variables of function bodies, in
    // this OS thread's shared-memory region (shared_vars.hpp), whose bytes
    // count as written once a write of this block is in their cell; [2] a
    // namespace-scope __shared__ (the library's TLS block; its bytes that are
    // not a __shared__ array count as written, so reading the thread's own
    // indices there is never a finding).
    struct Shared {
        std::uintptr_t begin = 0, end = 0;
        CellMap cells;
        bool written_in_cells = false;               // [1]
        std::vector<std::uint8_t> written;           // [0], [2]
        std::vector<std::uint8_t> written_at_start;  // [2]: 0 in an array, 1 elsewhere
    } shared[3];
    const StaticShared* statics = nullptr;
    // Who runs now.
    std::uint32_t block = 0;  // base + linear
    std::uint64_t me = 0;     // the cell word of a plain access by the running thread
    const AccessShadow::Region* last = nullptr;  // the global region hit last
    // The run's record of sampled blocks (access_record.hpp), and the running
    // block's log in it when the block is sampled.
    AccessRecord* record = nullptr;
    AccessRecord::Block* log = nullptr;
    // The access limits' counts (AccessShadow::count), while the launch
    // counts: per thread of the running block, a word per per-thread
    // counter; `mine` is the running thread's. A block's words are tallied
    // when the next starts on this core, and when the core leaves the launch.
    AccessShadow::Counting* counting = nullptr;
    unsigned count_classes = 0;    // bit access_class() set: some counter counts that class
    unsigned element_classes = 0;  // the same for the per-element counters
    std::uint32_t thread_slots[6] = {};  // per class: the per-thread counters (bit i: per_thread[i]) that count it
    const long long* thread_buffer = nullptr;  // per per-thread counter: its buffer, -1 any
    int launch_number = 0;
    unsigned threads = 0;  // per block
    std::vector<std::uint32_t> thread_counts;
    std::uint32_t* mine = nullptr;
    bool block_counted = false;
    unsigned long long counted_block = 0;
    std::vector<AccessCountResult> tallies;  // this core's blocks, per per-thread counter
    // What this core found in the launch: the lowest of each kind, merged
    // into the launch's when the core leaves it (no lock per finding: a racy
    // kernel can conflict millions of times).
    struct Found {
        bool has = false;
        AccessFinding finding;
        long long count = 0;
    } found[2];
};
// The hot path reads a plain pointer: a thread_local of a class type would be
// reached through a wrapper that checks its initialisation at every access.
thread_local Core* t_core = nullptr;
thread_local std::unique_ptr<Core> t_core_owned;  // t_core's storage, for the OS thread's life

Core& core() {
    if (!t_core) {
        t_core_owned = std::make_unique<Core>();
        t_core = t_core_owned.get();
    }
    return *t_core;
}

std::atomic<std::uint32_t> g_next_block{1};

// Whether `a`, a cell's word, is an access of this launch (global) or of this
// block (shared) that conflicts with `me`, given that one of the two writes.
[[gnu::always_inline]] inline bool conflicts(const Core& c, std::uint64_t a, std::uint64_t me, bool shared) {
    if (!(a & kValid)) return false;
    const std::uint32_t ab = block_of(a), mb = block_of(me);
    if (shared ? ab != mb : static_cast<std::uint32_t>(ab - c.base) >= c.blocks) return false;  // not this launch's
    if ((a & kAtomic) && (me & kAtomic)) return false;
    if (ab != mb) return true;  // two blocks: nothing orders them
    const std::uint32_t at = thread_of(a), mt = thread_of(me);
    if (at == mt || bgen_of(a) != bgen_of(me)) return false;
    if (at / 32 == mt / 32 && wgen_of(a) != wgen_of(me)) return false;  // a warp operation between them
    return true;
}

// Whether read `r` is one that a later write by `me` could still conflict
// with: another block's in this launch, or another thread's of this block
// between the same barriers. Kept over `me`'s own read, so a cell read by
// many threads is written once, not at every read.
[[gnu::always_inline]] inline bool keep_reader(const Core& c, std::uint64_t r, std::uint64_t me, bool shared) {
    if (!(r & kValid)) return false;
    const std::uint32_t rb = block_of(r), mb = block_of(me);
    if (shared ? rb != mb : static_cast<std::uint32_t>(rb - c.base) >= c.blocks) return false;
    if (rb != mb) return true;
    return thread_of(r) != thread_of(me) && bgen_of(r) == bgen_of(me);
}

AccessSide side_of(std::uint64_t w, std::uintptr_t pc, bool write) {
    AccessSide s;
    s.block = block_of(w);
    s.thread = thread_of(w);
    s.pc = pc;
    s.write = write;
    s.atomic = (w & kAtomic) != 0;
    return s;
}

struct Where {
    bool shared;
    int shared_kind;              // Core::shared's index
    const StaticShared* statics;  // for a namespace-scope __shared__: names the array
    std::size_t region;
    const std::string* name;
    std::uintptr_t begin;      // the region's start
    std::uintptr_t address;    // the granule's (global) or the access's (shared)
    unsigned element_bytes;
};

}  // namespace

// What a launch found, as the cores report it (under the launch's mutex).
using FindingKey = std::tuple<bool, std::size_t, long long, std::uint32_t, std::uint32_t>;

// The order findings are kept in: the lowest element, and in it the lowest
// (block, thread), so what is said does not depend on which core came first.
FindingKey key_of(const AccessFinding& f) {
    return {!f.shared, f.region, f.byte_offset, f.later.block, f.later.thread};
}

struct AccessShadow::Launch {
    static void found(Core& c, AccessFinding::Kind kind, const Where& at, std::uint64_t earlier, bool earlier_write,
                      std::uint64_t me, std::uintptr_t pc, bool write) {
        Core::Found& best = c.found[static_cast<std::size_t>(kind)];
        ++best.count;
        const auto offset = static_cast<long long>(at.address - at.begin);
        const FindingKey key{!at.shared, at.shared ? std::size_t(at.shared_kind) : at.region, offset, block_of(me), thread_of(me)};
        if (best.has && !(key < key_of(best.finding))) return;
        AccessFinding f;
        f.kind = kind;
        f.shared = at.shared;
        f.region = at.region;
        f.name = *at.name;
        f.byte_offset = offset;
        f.element_bytes = std::max(1u, at.element_bytes);
        f.element = f.byte_offset / f.element_bytes;
        if (at.shared_kind == 1) {
            // A function body's static __shared__ variable: its name, and the element in it.
            if (const SharedVar* v = block_shared_var_at(at.address)) {
                f.name = v->name ? v->name : "";
                f.element_bytes = static_cast<unsigned>(std::max<std::size_t>(v->element_bytes, 1));
                f.element = static_cast<long long>(at.address - reinterpret_cast<std::uintptr_t>(v->base)) / f.element_bytes;
            }
            f.region = 1;
        } else if (at.statics) {
            // An offset in the TLS block: the array's name, and the element in it.
            if (const StaticSharedVar* v = at.statics->at(static_cast<std::size_t>(f.byte_offset))) {
                f.name = v->name;
                f.element = (f.byte_offset - static_cast<long long>(v->offset)) / f.element_bytes;
            }
            f.region = 2;
        }
        if (earlier) f.earlier = side_of(earlier, 0, earlier_write);
        f.later = side_of(me, pc, write);
        best.finding = std::move(f);
        best.has = true;
    }

    // A core leaves the launch: its findings into the launch's.
    static void merge(Core& c, AccessLaunch& l) {
        std::lock_guard<std::mutex> lock(l.mutex_);
        for (std::size_t k = 0; k < 2; ++k) {
            Core::Found& best = c.found[k];
            if (l.counts_.size() <= k) l.counts_.resize(k + 1, 0);
            l.counts_[k] += best.count;
            if (!best.has) continue;
            bool placed = false;
            for (auto& have : l.found_)
                if (have.kind == best.finding.kind) {
                    if (key_of(best.finding) < key_of(have)) have = best.finding;
                    placed = true;
                }
            if (!placed) l.found_.push_back(best.finding);
            best = Core::Found{};
        }
    }
};

namespace {

// The running block's per-thread counts into the core's tallies.
void tally_block(Core& c) {
    if (!c.counting || !c.block_counted) return;
    c.block_counted = false;
    const AccessShadow::Counting& k = *c.counting;
    const std::size_t n = k.per_thread.size();
    AccessCounted who;
    who.launch = c.launch_number;
    who.block = c.counted_block;
    for (unsigned t = 0; t < c.threads; ++t) {
        who.thread = t;
        for (std::size_t i = 0; i < n; ++i) tally(c.tallies[i], k.counters[k.per_thread[i]], c.thread_counts[t * n + i], who);
    }
}

// An access of a global buffer, counted by each element counter of that buffer and class.
[[gnu::noinline]] void count_elements(const AccessShadow::Counting& k, unsigned access_class, std::uintptr_t a, unsigned size,
                                      const AccessShadow::Region* region) {
    for (const AccessShadow::Counting::Elements& e : k.per_element) {
        if (e.region != region || e.access_class != access_class || !e.counts.data()) continue;
        const std::uintptr_t end = std::min<std::uintptr_t>(a + size, region->end);
        for (std::size_t n = (a - region->begin) / e.element_bytes, last = (end - 1 - region->begin) / e.element_bytes; n <= last; ++n)
            __atomic_fetch_add(e.counts.data() + n, 1u, __ATOMIC_RELAXED);
    }
}

// One access, counted: by the running thread's counters that count its
// class (and its buffer), and by the element counters of its buffer.
// The per-thread part is a few instructions for the one or two counters of
// the access's class (an emulated access costs a few nanoseconds in all).
[[gnu::always_inline]] inline void count_access(Core& c, unsigned access_class, long long buffer, std::uintptr_t a, unsigned size,
                                                const AccessShadow::Region* region) {
    if (std::uint32_t* mine = c.mine)
        for (std::uint32_t m = c.thread_slots[access_class]; m != 0; m &= m - 1) {
            const int i = __builtin_ctz(m);
            if (c.thread_buffer[i] < 0 || c.thread_buffer[i] == buffer) ++mine[i];
        }
    if (region && (c.element_classes >> access_class & 1u)) count_elements(*c.counting, access_class, a, size, region);
}

}  // namespace

AccessShadow::AccessShadow() = default;
AccessShadow::~AccessShadow() {
    for (Region* r : buffers_) delete r;
    delete pin_;
    delete counting_;
}

void AccessShadow::add_buffer(const std::string& name, const std::byte* data, std::size_t bytes, std::size_t element_size,
                              bool input) {
    auto* r = new Region;
    r->name = name;
    r->input = input;
    r->index = buffers_.size();
    r->begin = reinterpret_cast<std::uintptr_t>(data);
    r->end = r->begin + bytes;
    r->element_bytes = std::max<std::size_t>(element_size, 1);
    std::size_t g = std::min<std::size_t>(std::max<std::size_t>(element_size, 1), 8);
    while (g & (g - 1)) g &= g - 1;  // a power of two
    while ((std::size_t(1) << r->shift) < g) ++r->shift;
    const std::size_t n = (bytes + g - 1) >> r->shift;
    cell_bytes_ += n * sizeof(Cell);
    buffers_.push_back(r);
    // Past the budget nothing global is checked: no cells are made (those made are kept unused).
    if (!checks_global()) return;
    r->cells.resize(n);
    r->written.assign(n, 0);
}

void AccessShadow::set_written(std::size_t i, bool written) {
    Region& r = *buffers_.at(i);
    std::fill(r.written.begin(), r.written.end(), written ? 1 : 0);
}

void AccessShadow::count(std::vector<AccessCounter> counters) {
    delete counting_;
    counting_ = nullptr;
    if (counters.empty()) return;
    auto* k = new Counting;
    k->counters = std::move(counters);
    for (std::size_t i = 0; i < k->counters.size(); ++i) {
        const AccessCounter& c = k->counters[i];
        if (!c.per_element) {
            if (k->per_thread.size() == kMaxThreadCounters) continue;  // Core::thread_slots' bits
            k->per_thread.push_back(i);
            k->thread_class.push_back(class_of(c));
            k->thread_buffer.push_back(c.buffer);
            continue;
        }
        if (c.buffer < 0 || std::size_t(c.buffer) >= buffers_.size()) continue;  // no such buffer: counts nothing
        Counting::Elements& e = k->per_element.emplace_back();
        e.counter = i;
        e.access_class = class_of(c);
        e.region = buffers_[std::size_t(c.buffer)];
        e.element_bytes = e.region->element_bytes;
        e.elements = (e.region->end - e.region->begin + e.element_bytes - 1) / e.element_bytes;
        e.counts.resize(e.elements);
    }
    k->thread_results.resize(k->per_thread.size());
    counting_ = k;
}

std::vector<AccessCountResult> AccessShadow::counts() const {
    std::vector<AccessCountResult> out;
    if (!counting_) return out;
    const Counting& k = *counting_;
    out.resize(k.counters.size());
    for (std::size_t i = 0; i < k.per_thread.size(); ++i) out[k.per_thread[i]] = k.thread_results[i];
    for (const Counting::Elements& e : k.per_element) {
        AccessCountResult& t = out[e.counter];
        const std::uint32_t* counts = e.counts.data();
        for (std::size_t n = 0; counts && n < e.elements; ++n) {
            AccessCounted who;
            who.element = static_cast<long long>(n);
            tally(t, k.counters[e.counter], counts[n], who);
        }
    }
    return out;
}

void AccessShadow::pinpoint(const AccessFinding& f) {
    delete pin_;
    pin_ = new Pin;
    pin_->finding = f;
    if (f.shared) {
        pin_->begin = static_cast<std::uintptr_t>(f.byte_offset);
        pin_->end = pin_->begin + 1;
    } else {
        const Region& r = *buffers_.at(f.region);
        pin_->begin = r.begin + static_cast<std::uintptr_t>(f.byte_offset);
        pin_->end = pin_->begin + (std::uintptr_t(1) << r.shift);
    }
    pinned_.reset();
}

AccessLaunch::AccessLaunch(AccessShadow* shadow, unsigned long long blocks, unsigned threads_per_block)
    : shadow_(shadow), blocks_(blocks), threads_(threads_per_block) {
    // Each launch numbers its blocks apart from every earlier launch's, so a
    // cell from an earlier launch reads as empty without clearing any cell.
    base_ = g_next_block.fetch_add(static_cast<std::uint32_t>(std::min<unsigned long long>(blocks, 0x7FFFFFFFull)));
    if (shadow_) shadow_->findings_.clear();
    // A pinpointing launch repeats what was counted already: it counts nothing.
    if (shadow_ && shadow_->counting_ && !shadow_->pin_) {
        counting_ = shadow_->counting_;
        number_ = counting_->launches++;
    }
}

AccessLaunch::~AccessLaunch() = default;

void AccessLaunch::finish() {
    if (!shadow_) return;
    if (AccessShadow::Pin* pin = shadow_->pin_) {
        // The element's accesses in order, through one cell that keeps code
        // addresses: the first conflict is the pair to name.
        AccessFinding f = pin->finding;
        Core c;
        c.base = base_;
        c.blocks = blocks_;
        std::uint64_t w = 0, r = 0;
        std::uintptr_t wpc = 0, rpc = 0;
        bool named = false;
        for (const auto& a : pin->log) {
            const std::uint64_t earlier = conflicts(c, w, a.who, f.shared) ? w
                                          : a.write && conflicts(c, r, a.who, f.shared) ? r : 0;
            if (earlier) {
                f.earlier = side_of(earlier, earlier == w ? wpc : rpc, earlier == w);
                f.later = side_of(a.who, a.pc, a.write);
                f.earlier.block -= base_;
                f.later.block -= base_;
                named = true;
                break;
            }
            if (!a.write || (a.who & kAtomic)) {
                if (!keep_reader(c, r, a.who, f.shared)) r = a.who, rpc = a.pc;
            }
            if (a.write) w = a.who, wpc = a.pc;
        }
        if (named) shadow_->pinned_ = std::move(f);
        delete pin;
        shadow_->pin_ = nullptr;
        return;
    }
    for (auto& f : found_) {
        const auto k = static_cast<std::size_t>(f.kind);
        f.granules = k < counts_.size() ? counts_[k] : 1;
        // Blocks back to the launch's own numbering.
        f.earlier.block -= base_;
        f.later.block -= base_;
    }
    std::sort(found_.begin(), found_.end(), [](const AccessFinding& a, const AccessFinding& b) { return a.kind < b.kind; });
    shadow_->findings_ = found_;
}

void AccessLaunch::bind_core(const std::byte* dynamic_shared, std::size_t bytes, const std::byte* static_region,
                             std::size_t static_region_bytes, std::byte* static_block, const StaticShared* statics) {
    Core& c = core();
    c.launch = this;
    c.shadow = shadow_;
    c.global = shadow_ && shadow_->checks_global();
    c.pin = shadow_ ? shadow_->pin_ : nullptr;
    c.record = shadow_ && !c.pin ? shadow_->record_ : nullptr;
    c.log = nullptr;
    c.base = base_;
    c.blocks = blocks_;
    c.last = nullptr;
    c.statics = statics;
    c.counting = counting_;
    c.count_classes = 0;
    c.mine = nullptr;
    c.block_counted = false;
    std::fill(std::begin(c.thread_slots), std::end(c.thread_slots), 0u);
    c.element_classes = 0;
    if (counting_) {
        for (std::size_t i = 0; i < counting_->per_thread.size(); ++i) c.thread_slots[counting_->thread_class[i]] |= 1u << i;
        for (const auto& e : counting_->per_element) c.element_classes |= 1u << e.access_class;
        for (unsigned cls = 0; cls < 6; ++cls)
            if (c.thread_slots[cls] != 0 || (c.element_classes >> cls & 1u)) c.count_classes |= 1u << cls;
        c.thread_buffer = counting_->thread_buffer.data();
        c.launch_number = number_;
        c.threads = threads_;
        c.thread_counts.assign(std::size_t(threads_) * counting_->per_thread.size(), 0);
        c.tallies.assign(counting_->per_thread.size(), AccessCountResult{});
    }
    for (auto& f : c.found) f = Core::Found{};
    for (auto& sh : c.shared) sh.begin = sh.end = 0;
    if (!shadow_) return;  // nothing recorded: only misaligned accesses are caught
    Core::Shared& dyn = c.shared[0];
    dyn.begin = reinterpret_cast<std::uintptr_t>(dynamic_shared);
    dyn.end = dyn.begin + bytes;
    dyn.cells.resize(bytes);
    dyn.written.assign(bytes, 0);
    dyn.written_at_start.assign(bytes, 0);
    if (static_region) {
        Core::Shared& region = c.shared[1];
        region.begin = reinterpret_cast<std::uintptr_t>(static_region);
        region.end = region.begin + static_region_bytes;
        region.cells.resize(static_region_bytes);
        region.written_in_cells = true;
    }
    if (static_block && statics && !statics->vars.empty()) {
        Core::Shared& st = c.shared[2];
        st.begin = reinterpret_cast<std::uintptr_t>(static_block);
        st.end = st.begin + statics->tls_bytes;
        st.cells.resize(statics->tls_bytes);
        st.written_at_start.assign(statics->tls_bytes, 1);
        for (const auto& v : statics->vars)
            std::fill_n(st.written_at_start.begin() + static_cast<std::ptrdiff_t>(v.offset), v.bytes, 0);
        st.written = st.written_at_start;
    }
}

void AccessLaunch::unbind_core() {
    Core& c = core();
    if (c.launch) AccessShadow::Launch::merge(c, *c.launch);
    if (c.counting) {
        tally_block(c);
        std::lock_guard<std::mutex> lock(c.counting->mutex);
        for (std::size_t i = 0; i < c.tallies.size(); ++i) merge_tally(c.counting->thread_results[i], c.tallies[i]);
    }
    c.counting = nullptr;
    c.count_classes = 0;
    c.mine = nullptr;
    c.launch = nullptr;
    c.shadow = nullptr;
    c.pin = nullptr;
    c.record = nullptr;
    c.log = nullptr;
    c.global = false;
    c.statics = nullptr;
    for (auto& sh : c.shared) sh.begin = sh.end = 0;
    c.last = nullptr;
}

void AccessLaunch::enter_block(unsigned long long linear_block) {
    Core& c = core();
    c.block = base_ + static_cast<std::uint32_t>(linear_block);
    c.log = c.record ? c.record->enter_block(linear_block) : nullptr;
    if (c.counting) {
        tally_block(c);
        std::fill(c.thread_counts.begin(), c.thread_counts.end(), 0u);
        c.block_counted = true;
        c.counted_block = linear_block;
        c.mine = nullptr;
    }
    for (auto& sh : c.shared)
        if (!sh.written_in_cells) std::copy(sh.written_at_start.begin(), sh.written_at_start.end(), sh.written.begin());
}

void AccessLaunch::enter_thread(unsigned thread, unsigned barrier_generation, unsigned warp_generation) {
    if (!t_core) return;  // not a launch's core
    Core& c = *t_core;
    c.me = kValid | (std::uint64_t(barrier_generation & 0x3FF) << 50) | (std::uint64_t(warp_generation & 0xFF) << 42) |
           (std::uint64_t(thread & 0x3FF) << 32) | c.block;
    if (c.counting && thread < c.threads) c.mine = c.thread_counts.data() + std::size_t(thread) * c.counting->per_thread.size();
}

namespace {

// One granule's cell: the checks, then the record.
// `written` is the granule's byte, or null where the cell says it: written
// once a write of this block is in it (a static variable, fresh each block).
[[gnu::always_inline]] inline void check_cell(Core& c, Cell& cell, std::uint8_t* written, const Where& at, std::uint64_t me, std::uintptr_t pc, bool write,
                bool atomic, bool check_written) {
    const std::uint64_t w = load(cell.w);
    const std::uint64_t r = load(cell.r);
    if (conflicts(c, w, me, at.shared))
        AccessShadow::Launch::found(c, AccessFinding::Kind::Race, at, w, true, me, pc, write);
    else if (write && conflicts(c, r, me, at.shared))
        AccessShadow::Launch::found(c, AccessFinding::Kind::Race, at, r, false, me, pc, write);
    if (!write || atomic) {
        const bool was_written = written ? *written != 0 : (w & kValid) && block_of(w) == block_of(me);
        if (check_written && !was_written)
            AccessShadow::Launch::found(c, AccessFinding::Kind::Uninitialised, at, 0, false, me, pc, false);
        // Keep a reader that another thread's write could conflict with; a
        // store only when the cell changes, so reading an input costs no write.
        if (keep_reader(c, r, me, at.shared)) {
            if (!(r & kMany)) store(cell.r, r | kMany);
        } else if (r != me) {
            store(cell.r, me);
        }
    }
    if (write) {
        if (w != me) store(cell.w, me);
        if (written && !*written) *written = 1;
    }
}

// A sampled block's access, into its log: a global buffer's (by its index) or
// the block's shared memory's (by its region), at its offset there.
[[gnu::noinline]] void record_access(Core& c, const std::vector<AccessShadow::Region*>& buffers, std::uintptr_t a, unsigned size,
                                     bool write, bool atomic, std::uintptr_t pc) {
    AccessRecord::Access rec;
    rec.pc = pc;
    rec.thread = static_cast<std::uint16_t>(thread_of(c.me));
    rec.size = static_cast<std::uint16_t>(size);
    rec.kind = atomic ? AccessRecord::kAtomic : write ? AccessRecord::kStore : AccessRecord::kLoad;
    rec.variable = 0;
    bool found = false;
    for (std::uint16_t k = 0; k < 3 && !found; ++k)
        if (a >= c.shared[k].begin && a < c.shared[k].end) {
            rec.offset = a - c.shared[k].begin;
            rec.region = k;
            rec.kind |= AccessRecord::kShared;
            found = true;
            // The static array it is in, by name (the dynamic region has none).
            if (k == 1) {
                if (const SharedVar* v = block_shared_var_at(a))
                    rec.variable = c.log->variable(v->name, v->name, k, reinterpret_cast<std::uintptr_t>(v->base) - c.shared[k].begin,
                                                   static_cast<unsigned>(v->element_bytes));
            } else if (k == 2 && c.statics) {
                if (const StaticSharedVar* v = c.statics->at(static_cast<std::size_t>(rec.offset)))
                    rec.variable = c.log->variable(v, v->name.c_str(), k, v->offset, 0);
            }
        }
    if (!found)
        for (const AccessShadow::Region* q : buffers)
            if (a >= q->begin && a < q->end) {
                rec.offset = a - q->begin;
                rec.region = static_cast<std::uint16_t>(q->index);
                found = true;
                break;
            }
    if (!found || !c.record->take_one()) return;
    c.log->accesses.push_back(rec);
}

void pin_log(Core& c, std::uint64_t me, std::uintptr_t pc, bool write) {
    std::lock_guard<std::mutex> lock(c.pin->mutex);
    if (c.pin->log.size() < kPinLog) c.pin->log.push_back({me, pc, write});
}

}  // namespace

namespace {
void (*g_on_misaligned)(const void*, unsigned, const void*) = nullptr;
const std::string kDynamicShared = "extern __shared__";  // the dynamic region's name in a finding
}

void set_misaligned_handler(void (*on_misaligned)(const void*, unsigned, const void*)) { g_on_misaligned = on_misaligned; }

// The check at one access; with kCount, also the access limits' counts
// (AccessShadow::count). The launch picks the variant by the hook it binds
// (AccessShadow::counting()): a run without limits runs none of the counting.
struct AccessHook {
    template <bool kCount>
    static void check(const void* address, unsigned how, const void* pc) { body<kCount>(address, how, pc); }
    template <bool kCount>
    [[gnu::always_inline]] static inline void body(const void* address, unsigned how, const void* pc_ptr) {
        const auto a = reinterpret_cast<std::uintptr_t>(address);
        const unsigned size = how & kAccessSizeMask;
        Core* cp = t_core;
        if (!cp || !cp->launch || size == 0) return;
        Core& c = *cp;
        if ((how & kAccessAligned) && size > 1 && (a & (size - 1)) != 0 && g_on_misaligned) g_on_misaligned(address, how, pc_ptr);
        const auto pc = reinterpret_cast<std::uintptr_t>(pc_ptr);
        const bool write = (how & kAccessWrite) != 0;
        const bool atomic = (how & kAccessAtomic) != 0;
        const std::uint64_t me = c.me | (atomic ? kAtomic : 0);
        if (c.log) record_access(c, c.shadow->buffers_, a, size, write, atomic, pc);
        for (int k = 0; k < 3; ++k) {
            Core::Shared& sh = c.shared[k];
            if (a < sh.begin || a >= sh.end) continue;
            if constexpr (kCount)
                if (const unsigned cls = access_class(write, atomic, true); c.count_classes >> cls & 1u) [[unlikely]]
                        count_access(c, cls, -1, a, size, nullptr);
            if (!write && !atomic && !c.pin) {
                // The common case, a tiled loop's reads: a granule written earlier in
                // this block, which this read cannot conflict with, and whose reader
                // the cell already keeps. Nothing to record.
                const std::size_t g = a - sh.begin;
                const Cell& cell = sh.cells.data()[g];
                const std::uint64_t w = load(cell.w), r = load(cell.r);
                const bool written = sh.written_in_cells ? (w & kValid) && block_of(w) == block_of(me) : sh.written[g] != 0;
                if (written && !conflicts(c, w, me, true) && (r == me || ((r & kMany) && keep_reader(c, r, me, true)))) return;
            }
            if (c.pin) {
                const AccessFinding& f = c.pin->finding;
                if (f.shared && f.region == std::size_t(k) && c.block - c.base == f.later.block && a - sh.begin <= c.pin->begin &&
                    c.pin->begin < a - sh.begin + size)
                    pin_log(c, me, pc, write);
                return;
            }
            const Where at{true, k, k == 2 ? c.statics : nullptr, 0, &kDynamicShared, sh.begin, a, size};
            // A read is checked by its first byte (a struct read whole may hold
            // padding nobody wrote); a write records every byte it covers.
            const std::uintptr_t end = write ? std::min<std::uintptr_t>(a + size, sh.end) : a + 1;
            for (std::uintptr_t p = a; p < end; ++p) {
                const std::size_t g = p - sh.begin;
                check_cell(c, sh.cells.data()[g], sh.written_in_cells ? nullptr : &sh.written[g], at, me, pc, write, atomic, p == a);
            }
            return;
        }
        // Past the cells' budget a buffer's accesses are still counted.
        if (!c.global && !(kCount && c.counting)) return;
        if (c.pin) {
            if (!c.pin->finding.shared && a < c.pin->end && c.pin->begin < a + size) pin_log(c, me, pc, write);
            return;
        }
        const AccessShadow::Region* r = c.last;
        if (!r || a < r->begin || a >= r->end) {
            r = nullptr;
            for (const AccessShadow::Region* q : c.shadow->buffers_)
                if (a >= q->begin && a < q->end) {
                    r = q;
                    break;
                }
            if (!r) return;
            c.last = r;
        }
        if constexpr (kCount) {
            if (const unsigned cls = access_class(write, atomic, false); c.count_classes >> cls & 1u) [[unlikely]]
                count_access(c, cls, static_cast<long long>(r->index), a, size, r);
            if (!c.global) return;
        }
        if (r->input && !c.shadow->check_inputs_) {
            if (!write) return;  // an input nothing has written: its reads cannot race yet
            c.shadow->inputs_written_.store(true, std::memory_order_relaxed);
        }
        auto* region = const_cast<AccessShadow::Region*>(r);
        const std::uintptr_t end = std::min<std::uintptr_t>(a + size, r->end);
        for (std::uintptr_t g = (a - r->begin) >> r->shift, last = (end - 1 - r->begin) >> r->shift; g <= last; ++g) {
            const Where at{false, 0, nullptr, r->index, &r->name, r->begin, r->begin + (g << r->shift), 1u << r->shift};
            check_cell(c, region->cells.data()[g], &region->written[g], at, me, pc, write, atomic, true);
        }
        return;
    }
};

// The plain check is the hook's own body; the counting one a function of its
// own that the hook jumps to. Built so, each measured fastest
// (bench/access_limits.cpp): the compiler lays the code out differently, and
// that moved a run's time by a fifth.
void check_access(const void* address, unsigned how, const void* pc) { AccessHook::body<false>(address, how, pc); }
void check_access_counted(const void* address, unsigned how, const void* pc) { AccessHook::check<true>(address, how, pc); }

}  // namespace wb
