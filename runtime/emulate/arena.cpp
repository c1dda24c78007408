// runtime/emulate/arena.cpp — EmuArena (see emulator.hpp): each buffer of an
// emulated launch between guard regions of reserved, never backed addresses,
// its slack filled with a pattern so a write just past the end is seen, and
// any address told back as buffer, element and side; and the run's device
// heap, a first-fit allocator over one mapping whose bookkeeping lives apart.
//
// [SECTION] buffers
// [SECTION] the device heap
#include "emulate/emulator.hpp"

#include "emulate/guarded_mapping.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>

#include <sys/mman.h>
#include <unistd.h>

namespace wb {

namespace {
std::size_t page_size() {
    static const std::size_t p = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    return p;
}
std::size_t round_up(std::size_t v, std::size_t to) { return (v + to - 1) / to * to; }
constexpr std::size_t kGuardBytes = std::size_t(4) << 20;  // address space only
}  // namespace

// The heap's memory (between guards, as a buffer's) and which of its ranges
// are free and which allocated, by offset. Free ranges never touch: a free
// coalesces with its neighbours.
struct EmuArena::Heap {
    std::mutex mutex;
    GuardedMapping memory;
    std::byte* base = nullptr;  // memory.body(), or null for a heap of 0 bytes
    std::size_t bytes = 0;
    std::map<std::size_t, std::size_t> free_ranges;           // offset -> length
    std::unordered_map<std::size_t, std::size_t> allocated;  // offset -> length
    std::size_t in_use = 0;
    bool touched = false;  // pages may be backed: reset_heap gives them back

    void clear() {
        free_ranges.clear();
        allocated.clear();
        in_use = 0;
        if (bytes) free_ranges[0] = bytes;
    }
};

// [SECTION] buffers

EmuArena::~EmuArena() {
    for (auto& r : buffers_)
        if (r.map) ::munmap(r.map, r.map_bytes);
}

std::byte* EmuArena::add(const std::string& name, std::size_t bytes, std::size_t element_size) {
    const std::size_t page = page_size();
    const std::size_t body = round_up(std::max<std::size_t>(bytes, 1), 16);
    const std::size_t data_pages = round_up(body, page);
    Region r;
    r.name = name;
    r.bytes = bytes;
    r.element_size = std::max<std::size_t>(element_size, 1);
    // Addresses that cannot be touched (kGuard on each side: reserved, never
    // backed by memory), then the buffer's pages. A stray index lands in a
    // guard unless it is more than kGuard off.
    const std::size_t guard = kGuardBytes;
    r.map_bytes = guard + data_pages + guard;
    void* m = ::mmap(nullptr, r.map_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        throw Error(ErrorKind::Io, "cannot reserve " + std::to_string(r.map_bytes) + " bytes for buffer '" + name +
                                       "' of the CPU emulator: " + std::strerror(errno));
    r.map = static_cast<std::byte*>(m);
    if (::mprotect(r.map + guard, data_pages, PROT_READ | PROT_WRITE) != 0) {
        ::munmap(r.map, r.map_bytes);
        throw Error(ErrorKind::Io, "cannot map buffer '" + name + "' of the CPU emulator: " + std::strerror(errno));
    }
    std::byte* end = r.map + guard + data_pages;  // the last guard starts here
    r.data = end - body;                          // 16-byte aligned: body and the page are multiples of 16
    r.slack_begin = r.map + guard;
    r.slack_end = end;
    buffers_.push_back(r);
    return r.data;
}

void EmuArena::fill_guards(std::size_t i, unsigned char pattern) {
    const Region& r = buffers_.at(i);
    std::memset(r.slack_begin, pattern, static_cast<std::size_t>(r.data - r.slack_begin));
    std::memset(r.data + r.bytes, pattern, static_cast<std::size_t>(r.slack_end - (r.data + r.bytes)));
}

std::optional<long long> EmuArena::first_guard_write(std::size_t i, unsigned char pattern) const {
    const Region& r = buffers_.at(i);
    const auto p = static_cast<std::byte>(pattern);
    for (std::byte* q = r.data + r.bytes; q < r.slack_end; ++q)
        if (*q != p) return static_cast<long long>(q - r.data);
    for (std::byte* q = r.data; q-- > r.slack_begin;)
        if (*q != p) return static_cast<long long>(q - r.data);
    return std::nullopt;
}

std::optional<EmuArena::Place> EmuArena::describe(std::uintptr_t address) const {
    for (const Region& r : buffers_) {
        const auto begin = reinterpret_cast<std::uintptr_t>(r.map);
        if (address < begin || address >= begin + r.map_bytes) continue;
        const auto data = reinterpret_cast<std::uintptr_t>(r.data);
        const long long offset = static_cast<long long>(address) - static_cast<long long>(data);
        const long long element = element_at(offset, static_cast<long long>(r.element_size));
        const long long n = static_cast<long long>(r.bytes / r.element_size);
        return Place{r.name, n, element, offset >= 0};
    }
    return std::nullopt;
}

// [SECTION] the device heap

EmuArena::EmuArena(std::size_t heap_bytes) : heap_(std::make_unique<Heap>()) {
    Heap& h = *heap_;
    h.bytes = round_up(heap_bytes, 16);
    if (h.bytes) {
        h.memory = GuardedMapping(h.bytes, kGuardBytes);
        if (!h.memory.ok())
            throw Error(ErrorKind::Io, "cannot reserve the CPU emulator's device heap (" + std::to_string(h.bytes) +
                                           " bytes): " + std::strerror(errno));
        h.base = h.memory.body();
    }
    h.clear();
}

void* EmuArena::heap_alloc(std::size_t bytes, std::size_t align) {
    Heap& h = *heap_;
    align = std::max<std::size_t>(align, 16);
    if (align & (align - 1)) return nullptr;
    if (bytes > h.bytes) return nullptr;  // also keeps the rounding below from overflowing
    const std::size_t length = round_up(std::max<std::size_t>(bytes, 1), 16);
    std::lock_guard<std::mutex> lock(h.mutex);
    for (auto it = h.free_ranges.begin(); it != h.free_ranges.end(); ++it) {
        const std::size_t offset = it->first, range = it->second;
        // The heap's base is page-aligned, so offsets carry the alignment.
        const std::size_t start = round_up(offset, align);
        if (start - offset > range || range - (start - offset) < length) continue;
        h.free_ranges.erase(it);
        if (start > offset) h.free_ranges[offset] = start - offset;
        if (start + length < offset + range) h.free_ranges[start + length] = offset + range - (start + length);
        h.allocated[start] = length;
        h.in_use += length;
        h.touched = true;
        return h.base + start;
    }
    return nullptr;
}

bool EmuArena::heap_free(void* p) {
    Heap& h = *heap_;
    auto* b = static_cast<std::byte*>(p);
    if (!h.base || b < h.base || b >= h.base + h.bytes) return false;
    const std::size_t offset = static_cast<std::size_t>(b - h.base);
    std::lock_guard<std::mutex> lock(h.mutex);
    const auto found = h.allocated.find(offset);
    if (found == h.allocated.end()) return false;
    std::size_t start = offset, length = found->second;
    h.allocated.erase(found);
    h.in_use -= length;
    auto next = h.free_ranges.lower_bound(start);
    if (next != h.free_ranges.end() && next->first == start + length) {
        length += next->second;
        next = h.free_ranges.erase(next);
    }
    if (next != h.free_ranges.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second == start) {
            start = prev->first;
            length += prev->second;
            h.free_ranges.erase(prev);
        }
    }
    h.free_ranges[start] = length;
    return true;
}

void EmuArena::reset_heap() {
    Heap& h = *heap_;
    std::lock_guard<std::mutex> lock(h.mutex);
    h.clear();
    if (h.touched && h.base) ::madvise(h.base, round_up(h.bytes, page_size()), MADV_DONTNEED);
    h.touched = false;
}

std::size_t EmuArena::heap_bytes() const { return heap_->bytes; }

std::size_t EmuArena::heap_in_use() const {
    std::lock_guard<std::mutex> lock(heap_->mutex);
    return heap_->in_use;
}

}  // namespace wb
