// runtime/emulate/access_record.hpp — what each thread of a few sampled blocks
// read and wrote, and the per-line memory figures made from it.
//
// When a run asks for it (RunRequest::access), the emulator's first, checked
// validation run records every load, store and atomic that the threads of a
// few blocks of each launch (a small grid's every block) make to its global buffers and to the
// block's shared memory: which thread, the code address, the offset in the
// buffer (or in the shared region), the size and the kind. The access check
// (access_check.hpp) sees every access already; this record is kept beside it,
// only for the sampled blocks, so a run costs little more than a checked one.
// Accesses to anything else (a thread's own stack, the device heap,
// __constant__ and __device__ variables) are not recorded.
//
// summarise() turns the record into what the front ends show, with the
// definitions of Nsight Compute's counters (docs/memory-access.md):
//   - a warp-level request is the k-th execution of one instruction by the
//     lanes of a warp (the emulator runs a warp's lanes one after another, so
//     the k-th time each lane reached that code address);
//   - global memory: the distinct 32-byte sectors the request's bytes touch,
//     counted from the buffer's start (cudaMalloc's 256-byte alignment);
//   - shared memory: 32 banks of 4-byte words; lanes that touch the same word
//     share it; the request takes as many passes (wavefronts) as the most
//     distinct words any one bank is asked for; the bank-conflict ways are those
//     passes over the fewest its distinct words need (one per 32 words, as
//     Nsight Compute's ideal wavefronts): 1 is no conflict, 32 a 32-way one.
// The figures are summed per source line, kind of access and memory space,
// beside the fewest the same bytes could take (AccessCost compares the two).
// Each sampled thread's reads, writes and atomics are counted too. So that a
// front end can draw a warp's request and a thread's accesses, the summary
// also keeps each line's first requests lane by lane and each thread's first
// accesses by buffer and element, both capped (kExampleRequests, kThreadAccesses).
#pragma once

#include "emulate/access_summary.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace wb {

// The record of one validation run, filled by the access check.
class AccessRecord {
public:
    // A grid of at most this many blocks is recorded whole (the small cases
    // whose figures a student compares with Nsight Compute's, which counts
    // every block); of a larger one, the first, the middle and the last
    // block, so a run of a big grid stays fast.
    static constexpr std::size_t kWholeGridBlocks = 8;
    // Launches recorded per run (a launch's passes count one each).
    static constexpr std::size_t kLaunches = 8;
    // Accesses kept in all, at most (24 bytes each).
    static constexpr std::size_t kAccesses = std::size_t(1) << 21;
    // What the summary keeps lane by lane, so its JSON stays small: each
    // line's first requests (kExampleRequests shared out among the lines, at
    // most kRequestsPerLine each), and each thread's first accesses
    // (kThreadAccesses shared out among the sampled threads, at most
    // kAccessesPerThread each).
    static constexpr std::size_t kRequestsPerLine = 16;
    static constexpr std::size_t kExampleRequests = 128;
    static constexpr std::size_t kAccessesPerThread = 32;
    static constexpr std::size_t kThreadAccesses = 4096;

    struct Access {
        std::uintptr_t pc;      // the hook's return address
        std::uint64_t offset;   // from the buffer's start, or the shared region's
        std::uint16_t thread;   // in its block, linear
        std::uint16_t size;
        std::uint16_t region;   // global: the buffer's index; shared: Core's shared region (0 dynamic, 1, 2 static)
        std::uint8_t kind;      // kLoad, kStore, kAtomic, | kShared
        std::uint8_t variable;  // shared: 1 + its index in the block's `variables`; 0: not known
    };
    enum : std::uint8_t { kLoad = 0, kStore = 1, kAtomic = 2, kOpMask = 3, kShared = 4 };

    // A static __shared__ array an access fell in, so the summary can name it
    // and count its elements rather than the region's bytes.
    struct Variable {
        const void* key = nullptr;  // the same pointer for the same array: its name's (a function body's), its description's (namespace scope)
        std::string name;
        std::uint16_t region = 0;
        std::uint64_t offset = 0;   // its first byte, from the region's start
        unsigned element_bytes = 0; // 0: not known
    };

    struct Block {
        int launch = 0;
        unsigned long long linear = 0;
        std::vector<Access> accesses;  // in the order the threads made them
        std::vector<Variable> variables;
        // For the access check: the 1-based index of the array `key` (added when new), 0 past 255 of them.
        std::uint8_t variable(const void* key, const char* name, std::uint16_t region, std::uint64_t offset, unsigned element_bytes) {
            for (std::size_t i = 0; i < variables.size(); ++i)
                if (variables[i].key == key) return static_cast<std::uint8_t>(i + 1);
            if (variables.size() >= 255) return 0;
            variables.push_back({key, name ? name : "", region, offset, element_bytes});
            return static_cast<std::uint8_t>(variables.size());
        }
    };

    AccessRecord() = default;
    AccessRecord(const AccessRecord&) = delete;
    AccessRecord& operator=(const AccessRecord&) = delete;

    void clear();  // a run starts again
    // The next launch (or pass): which of its blocks are sampled. False when
    // the run has had kLaunches already; nothing of it is recorded then.
    bool begin_launch(const std::string& kernel, const std::array<long long, 3>& grid, const std::array<long long, 3>& block);
    // For the access check: the log of block `linear` of the current launch
    // when it is sampled, else null. Each block runs on one core, which alone appends to its log.
    Block* enter_block(unsigned long long linear);
    // For the access check: whether one more access may be kept (counts it).
    bool take_one() {
        if (taken_.fetch_add(1, std::memory_order_relaxed) < kAccesses) return true;
        truncated_.store(true, std::memory_order_relaxed);
        return false;
    }

    // The figures, with `lines_of(pcs)` giving "file:line" for each code
    // address ("" when unknown), and `globals` naming the global buffers by
    // their index (AccessShadow::add_buffer's order; a missing one is "buffer N").
    using LinesOf = std::function<std::vector<std::string>(const std::vector<std::uintptr_t>&)>;
    AccessSummary summarise(const LinesOf& lines_of, const std::vector<AccessBuffer>& globals = {}) const;

private:
    struct Launch {
        std::string kernel;
        std::array<long long, 3> grid{}, block{};
        std::vector<unsigned long long> sampled;  // linear block numbers, ascending
    };
    std::mutex mutex_;
    std::vector<Launch> launches_;
    bool recording_ = false;  // the current launch is one of the recorded ones
    std::deque<Block> blocks_;  // stable addresses for the cores' logs
    std::atomic<std::size_t> taken_{0};
    std::atomic<bool> truncated_{false};
};

// Which blocks of a grid of `blocks` are recorded: all of at most
// kWholeGridBlocks, else the first, the middle and the last.
std::vector<unsigned long long> sampled_blocks(unsigned long long blocks);

// The figures of one warp-level request: the lanes' (offset, size) in one
// buffer (sectors) or one shared region (the most distinct 4-byte words of one bank).
long long request_sectors(const std::vector<std::pair<std::uint64_t, unsigned>>& lanes);
long long request_wavefronts(const std::vector<std::pair<std::uint64_t, unsigned>>& lanes);
// The fewest the same bytes could take: their distinct bytes in whole
// sectors; their distinct words in passes of 32 (at least 1).
long long request_least_sectors(const std::vector<std::pair<std::uint64_t, unsigned>>& lanes);
long long request_least_wavefronts(const std::vector<std::pair<std::uint64_t, unsigned>>& lanes);

}  // namespace wb
