// runtime/data/bytes.hpp — the bytes of a host buffer: shared until written, zero pages free.
//
// A run holds the same inputs in several places at once: the worker's cache of
// recent inputs, the reference's arguments, the result the GUI draws. At 10^8
// floats each copy is 400 MB. So a Bytes is a handle: copying it shares the
// block, and the first write through mutable_data() gives the writer a copy of
// its own (copy on write). Readers use data(), which never copies.
//
// Large blocks come straight from mmap: a zero-filled block costs no memory
// until its pages are written, and a private one asks for transparent huge
// pages (one fault per 2 MiB instead of per 4 KiB). A block mapped
// SharedWithChildren stays shared with a forked child, which is how the CPU
// reference's child process writes its outputs where the worker reads them.
#pragma once

#include <cstddef>
#include <memory>

namespace wb {

class Bytes {
public:
    enum class Mapping {
        Private,             // copy on write across fork: a child's writes stay in the child
        SharedWithChildren,  // a forked child's writes are seen here
    };

    Bytes() = default;
    // `n` zero bytes. Their pages cost nothing until written.
    explicit Bytes(std::size_t n, Mapping mapping = Mapping::Private);
    Bytes(std::size_t n, std::byte fill);

    std::size_t size() const { return block_ ? block_->size : 0; }
    bool empty() const { return size() == 0; }
    const std::byte* data() const { return block_ ? block_->data : nullptr; }
    // For writing: copies the block first when another Bytes shares it.
    std::byte* mutable_data();
    Mapping mapping() const { return block_ ? block_->mapping : Mapping::Private; }
    // Made as zeros and never written through mutable_data() since.
    bool known_zero() const { return !block_ || block_->zero; }
    bool shares_block_with(const Bytes& o) const { return block_ && block_ == o.block_; }

    // A copy of these bytes in a block of its own, mapped as asked.
    Bytes copy(Mapping mapping) const;
    // A SharedWithChildren block that children forked from now on do not
    // map: once the child that wrote it is done, no later child can.
    void hide_from_later_children();

    friend bool operator==(const Bytes& a, const Bytes& b);

private:
    struct Block {
        std::byte* data = nullptr;
        std::size_t size = 0;
        std::size_t mapped = 0;  // the mapping's length; 0 = from operator new
        Mapping mapping = Mapping::Private;
        bool zero = true;
        Block(std::size_t n, Mapping m);
        ~Block();
        Block(const Block&) = delete;
        Block& operator=(const Block&) = delete;
    };
    std::shared_ptr<Block> block_;
};

}  // namespace wb
