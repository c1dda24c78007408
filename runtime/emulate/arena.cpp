// runtime/emulate/arena.cpp — EmuArena (see emulator.hpp): each buffer of an
// emulated launch between guard regions of reserved, never backed addresses,
// its slack filled with a pattern so a write just past the end is seen, and
// any address told back as buffer, element and side.
#include "emulate/emulator.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

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

}  // namespace wb
