// runtime/emulate/guarded_mapping.hpp — memory the emulator hands to kernels,
// between addresses that cannot be touched.
//
// `bytes` (rounded up to whole pages) readable and writable, with `guard`
// bytes of reserved, never backed address space on each side, so a thread
// that runs off either end faults where it happens and is named, instead of
// writing over the worker's own memory. Backed only as it is touched. The
// device heap, a core's dynamic shared memory and its static-variable region
// are each one.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wb {

class GuardedMapping {
public:
    GuardedMapping() = default;
    // ok() is false when the system refused the mapping (nothing is held then).
    GuardedMapping(std::size_t bytes, std::size_t guard);
    ~GuardedMapping();
    GuardedMapping(GuardedMapping&& o) noexcept;
    GuardedMapping& operator=(GuardedMapping&& o) noexcept;
    GuardedMapping(const GuardedMapping&) = delete;
    GuardedMapping& operator=(const GuardedMapping&) = delete;

    bool ok() const { return body_ != nullptr; }
    std::byte* body() const { return body_; }          // the first usable byte, page aligned
    std::byte* body_end() const { return body_ + body_bytes_; }  // where the guard after it begins
    std::size_t body_bytes() const { return body_bytes_; }
    // Whether `address` is anywhere in the mapping, guards included.
    bool contains(std::uintptr_t address) const;

private:
    void release();
    std::byte* map_ = nullptr;
    std::size_t map_bytes_ = 0;
    std::byte* body_ = nullptr;
    std::size_t body_bytes_ = 0;
};

}  // namespace wb
