// runtime/data/bytes.cpp — shared, copy-on-write host bytes (bytes.hpp).
#include "data/bytes.hpp"

#include "core/error.hpp"

#include <cerrno>
#include <cstring>
#include <new>
#include <string>
#include <sys/mman.h>

namespace wb {

namespace {

// Blocks this large and over come from mmap; smaller ones from operator new.
constexpr std::size_t kMapFrom = std::size_t(1) << 20;

}  // namespace

Bytes::Block::Block(std::size_t n, Mapping m) : size(n), mapping(m) {
    if (n == 0) return;
    if (m == Mapping::Private && n < kMapFrom) {
        data = new (std::nothrow) std::byte[n]();
        if (!data) throw Error(ErrorKind::Usage, "out of memory for a buffer of " + std::to_string(n) + " bytes");
        return;
    }
    const int flags = MAP_ANONYMOUS | (m == Mapping::SharedWithChildren ? MAP_SHARED : MAP_PRIVATE);
    void* p = ::mmap(nullptr, n, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (p == MAP_FAILED)
        throw Error(ErrorKind::Usage, "cannot map " + std::to_string(n >> 20) + " MiB for a buffer: " + std::strerror(errno),
                    {}, "make the case smaller, or close programs that hold much memory");
    if (m == Mapping::Private) ::madvise(p, n, MADV_HUGEPAGE);  // advice: the kernel may decline
    data = static_cast<std::byte*>(p);
    mapped = n;
}

Bytes::Block::~Block() {
    if (mapped) ::munmap(data, mapped);
    else delete[] data;
}

Bytes::Bytes(std::size_t n, Mapping mapping) {
    if (n) block_ = std::make_shared<Block>(n, mapping);
}

Bytes::Bytes(std::size_t n, std::byte fill) : Bytes(n) {
    if (n && fill != std::byte{0}) std::memset(mutable_data(), int(fill), n);
}

std::byte* Bytes::mutable_data() {
    if (!block_) return nullptr;
    if (block_.use_count() > 1) *this = copy(block_->mapping);
    block_->zero = false;
    return block_->data;
}

Bytes Bytes::copy(Mapping mapping) const {
    Bytes out(size(), mapping);
    if (block_ && !block_->zero) {
        std::memcpy(out.block_->data, block_->data, block_->size);
        out.block_->zero = false;
    }
    return out;
}

void Bytes::hide_from_later_children() {
    if (block_ && block_->mapped && block_->mapping == Mapping::SharedWithChildren)
        ::madvise(block_->data, block_->mapped, MADV_DONTFORK);
}

bool operator==(const Bytes& a, const Bytes& b) {
    if (a.size() != b.size()) return false;
    if (a.block_ == b.block_ || a.size() == 0) return true;
    return std::memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace wb
