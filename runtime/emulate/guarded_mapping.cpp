// runtime/emulate/guarded_mapping.cpp — GuardedMapping (guarded_mapping.hpp).
#include "emulate/guarded_mapping.hpp"

#include <utility>

#include <sys/mman.h>
#include <unistd.h>

namespace wb {

namespace {
std::size_t page_bytes() {
    static const std::size_t p = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    return p;
}
}  // namespace

GuardedMapping::GuardedMapping(std::size_t bytes, std::size_t guard) {
    const std::size_t page = page_bytes();
    const std::size_t body = (bytes + page - 1) / page * page;
    guard = (guard + page - 1) / page * page;
    const std::size_t total = guard + body + guard;
    void* m = ::mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) return;
    auto* map = static_cast<std::byte*>(m);
    if (body && ::mprotect(map + guard, body, PROT_READ | PROT_WRITE) != 0) {
        ::munmap(map, total);
        return;
    }
    map_ = map;
    map_bytes_ = total;
    body_ = map + guard;
    body_bytes_ = body;
}

GuardedMapping::~GuardedMapping() { release(); }

GuardedMapping::GuardedMapping(GuardedMapping&& o) noexcept { *this = std::move(o); }

GuardedMapping& GuardedMapping::operator=(GuardedMapping&& o) noexcept {
    if (this != &o) {
        release();
        map_ = std::exchange(o.map_, nullptr);
        map_bytes_ = std::exchange(o.map_bytes_, 0);
        body_ = std::exchange(o.body_, nullptr);
        body_bytes_ = std::exchange(o.body_bytes_, 0);
    }
    return *this;
}

bool GuardedMapping::contains(std::uintptr_t address) const {
    const auto b = reinterpret_cast<std::uintptr_t>(map_);
    return map_ && address >= b && address < b + map_bytes_;
}

void GuardedMapping::release() {
    if (map_) ::munmap(map_, map_bytes_);
    map_ = body_ = nullptr;
    map_bytes_ = body_bytes_ = 0;
}

}  // namespace wb
