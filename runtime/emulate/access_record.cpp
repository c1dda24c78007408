// runtime/emulate/access_record.cpp — the record of the sampled blocks'
// accesses, and the per-line and per-thread figures made from it (access_record.hpp).
#include "emulate/access_record.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace wb {

namespace {

constexpr unsigned kSectorBytes = 32;
constexpr unsigned kBanks = 32;
constexpr unsigned kWordBytes = 4;

const char* op_name(std::uint8_t kind) {
    switch (kind & AccessRecord::kOpMask) {
    case AccessRecord::kStore: return "store";
    case AccessRecord::kAtomic: return "atomic";
    default: return "load";
    }
}

std::array<long long, 3> xyz(unsigned long long linear, const std::array<long long, 3>& d) {
    const auto x = static_cast<unsigned long long>(std::max(1ll, d[0]));
    const auto y = static_cast<unsigned long long>(std::max(1ll, d[1]));
    return {static_cast<long long>(linear % x), static_cast<long long>((linear / x) % y), static_cast<long long>(linear / (x * y))};
}

// "kernel.cu:12" as file and line; a text without a line number is all file.
std::pair<std::string, int> split_line(const std::string& at) {
    const auto colon = at.rfind(':');
    if (colon == std::string::npos || colon + 1 >= at.size()) return {at, 0};
    int line = 0;
    for (std::size_t i = colon + 1; i < at.size(); ++i) {
        if (at[i] < '0' || at[i] > '9') return {at, 0};
        line = line * 10 + (at[i] - '0');
    }
    return {at.substr(0, colon), line};
}

}  // namespace

std::vector<unsigned long long> sampled_blocks(unsigned long long blocks) {
    std::vector<unsigned long long> v;
    if (blocks <= AccessRecord::kWholeGridBlocks) {
        for (unsigned long long b = 0; b < blocks; ++b) v.push_back(b);
        return v;
    }
    v = {0, blocks / 2, blocks - 1};
    return v;
}

long long request_sectors(const std::vector<std::pair<std::uint64_t, unsigned>>& lanes) {
    std::vector<std::uint64_t> sectors;
    for (const auto& [offset, size] : lanes) {
        const std::uint64_t last = (offset + std::max(1u, size) - 1) / kSectorBytes;
        for (std::uint64_t s = offset / kSectorBytes; s <= last; ++s) sectors.push_back(s);
    }
    std::sort(sectors.begin(), sectors.end());
    return static_cast<long long>(std::unique(sectors.begin(), sectors.end()) - sectors.begin());
}

namespace {
// The distinct 4-byte words the lanes' bytes fall in.
std::vector<std::uint64_t> request_words(const std::vector<std::pair<std::uint64_t, unsigned>>& lanes) {
    std::vector<std::uint64_t> words;
    for (const auto& [offset, size] : lanes) {
        const std::uint64_t last = (offset + std::max(1u, size) - 1) / kWordBytes;
        for (std::uint64_t w = offset / kWordBytes; w <= last; ++w) words.push_back(w);
    }
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    return words;
}
}  // namespace

long long request_wavefronts(const std::vector<std::pair<std::uint64_t, unsigned>>& lanes) {
    unsigned per_bank[kBanks] = {};
    for (std::uint64_t w : request_words(lanes)) ++per_bank[w % kBanks];
    return *std::max_element(std::begin(per_bank), std::end(per_bank));
}

long long request_ideal_wavefronts(const std::vector<std::pair<std::uint64_t, unsigned>>& lanes) {
    const auto words = static_cast<long long>(request_words(lanes).size());
    return std::max(1ll, (words + kBanks - 1) / kBanks);
}

void AccessRecord::clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    launches_.clear();
    blocks_.clear();
    recording_ = false;
    taken_ = 0;
    truncated_ = false;
}

bool AccessRecord::begin_launch(const std::string& kernel, const std::array<long long, 3>& grid,
                                const std::array<long long, 3>& block) {
    std::lock_guard<std::mutex> lock(mutex_);
    recording_ = launches_.size() < kLaunches;
    if (!recording_) return false;
    Launch l;
    l.kernel = kernel;
    l.grid = grid;
    l.block = block;
    l.sampled = sampled_blocks(static_cast<unsigned long long>(std::max(1ll, grid[0]) * std::max(1ll, grid[1]) *
                                                               std::max(1ll, grid[2])));
    launches_.push_back(std::move(l));
    return true;
}

AccessRecord::Block* AccessRecord::enter_block(unsigned long long linear) {
    // The launch's sampled list does not change while its blocks run: no lock to look.
    if (!recording_ || launches_.empty()) return nullptr;
    const auto& sampled = launches_.back().sampled;
    if (!std::binary_search(sampled.begin(), sampled.end(), linear)) return nullptr;
    std::lock_guard<std::mutex> lock(mutex_);
    Block& b = blocks_.emplace_back();
    b.launch = static_cast<int>(launches_.size()) - 1;
    b.linear = linear;
    return &b;
}

AccessSummary AccessRecord::summarise(const LinesOf& lines_of) const {
    AccessSummary s;
    s.truncated = truncated_.load(std::memory_order_relaxed);
    for (std::size_t i = 0; i < launches_.size(); ++i) {
        const Launch& l = launches_[i];
        AccessSampledLaunch out;
        out.number = static_cast<int>(i);
        out.kernel = l.kernel;
        out.blocks = std::max(1ll, l.grid[0]) * std::max(1ll, l.grid[1]) * std::max(1ll, l.grid[2]);
        for (unsigned long long b : l.sampled) out.sampled.push_back(xyz(b, l.grid));
        s.launches.push_back(std::move(out));
    }

    // Per instruction (code address, kind, space): requests, sectors, wavefronts.
    struct Figures {
        long long requests = 0, sectors = 0, wavefronts = 0, ideal = 0;
    };
    std::map<std::tuple<std::uintptr_t, std::uint8_t>, Figures> per_pc;

    std::vector<const Block*> blocks;
    for (const Block& b : blocks_) blocks.push_back(&b);
    std::sort(blocks.begin(), blocks.end(),
              [](const Block* a, const Block* b) { return std::tie(a->launch, a->linear) < std::tie(b->launch, b->linear); });
    for (const Block* b : blocks) {
        const Launch& l = launches_[static_cast<std::size_t>(b->launch)];
        const long long per_block = std::max(1ll, l.block[0]) * std::max(1ll, l.block[1]) * std::max(1ll, l.block[2]);
        // Each thread's counts.
        std::vector<AccessThread> threads(static_cast<std::size_t>(per_block));
        for (long long t = 0; t < per_block; ++t) {
            AccessThread& th = threads[static_cast<std::size_t>(t)];
            th.launch = b->launch;
            th.block = xyz(b->linear, l.grid);
            th.thread = xyz(static_cast<unsigned long long>(t), l.block);
        }
        // The requests: per warp, the k-th access of each (pc, kind) by each
        // lane. Key: (warp, pc, kind, region, k); value: the lanes' (offset, size).
        using Key = std::tuple<unsigned, std::uintptr_t, std::uint8_t, std::uint16_t, unsigned>;
        std::map<Key, std::vector<std::pair<std::uint64_t, unsigned>>> requests;
        // Per thread: (pc, kind) -> how many times it ran so far. A user-space
        // code address has at most 47 bits, so pc << 3 | kind is unique.
        std::vector<std::unordered_map<std::uint64_t, unsigned>> seen(threads.size());
        for (const Access& a : b->accesses) {
            if (a.thread < threads.size()) {
                AccessThread& th = threads[a.thread];
                const bool shared = (a.kind & kShared) != 0;
                switch (a.kind & kOpMask) {
                case kLoad: ++(shared ? th.shared_reads : th.global_reads); break;
                case kStore: ++(shared ? th.shared_writes : th.global_writes); break;
                default: ++(shared ? th.shared_atomics : th.global_atomics); break;
                }
            }
            if (a.thread >= threads.size()) continue;
            const unsigned k = seen[a.thread][(std::uint64_t(a.pc) << 3) | a.kind]++;
            requests[{a.thread / 32u, a.pc, a.kind, a.region, k}].emplace_back(a.offset, a.size);
        }
        for (const auto& [key, lanes] : requests) {
            Figures& f = per_pc[{std::get<1>(key), std::get<2>(key)}];
            ++f.requests;
            if (std::get<2>(key) & kShared) {
                f.wavefronts += request_wavefronts(lanes);
                f.ideal += request_ideal_wavefronts(lanes);
            } else {
                f.sectors += request_sectors(lanes);
            }
        }
        s.threads.insert(s.threads.end(), threads.begin(), threads.end());
    }

    // Per line: the instructions of one line, kind and space summed.
    std::map<std::tuple<std::string, int, std::string, std::string>, Figures> per_line;
    // The hook's return address is after its call: one byte back is the call, on the student's line.
    std::vector<std::uintptr_t> pcs;
    for (const auto& entry : per_pc) {
        const std::uintptr_t pc = std::get<0>(entry.first);
        if (pcs.empty() || pcs.back() != (pc ? pc - 1 : 0)) pcs.push_back(pc ? pc - 1 : 0);
    }
    const std::vector<std::string> found = lines_of(pcs);
    std::unordered_map<std::uintptr_t, std::pair<std::string, int>> lines;
    for (std::size_t i = 0; i < pcs.size(); ++i) lines[pcs[i]] = split_line(i < found.size() ? found[i] : std::string());
    for (const auto& [key, f] : per_pc) {
        const std::uintptr_t pc = std::get<0>(key);
        const auto it = lines.find(pc ? pc - 1 : 0);
        const std::uint8_t kind = std::get<1>(key);
        Figures& sum = per_line[{it->second.first, it->second.second, op_name(kind), (kind & kShared) ? "shared" : "global"}];
        sum.requests += f.requests;
        sum.sectors += f.sectors;
        sum.wavefronts += f.wavefronts;
        sum.ideal += f.ideal;
    }
    for (const auto& [key, f] : per_line) {
        AccessLine line;
        std::tie(line.file, line.line, line.op, line.space) = key;
        line.requests = f.requests;
        line.sectors = f.sectors;
        line.wavefronts = f.wavefronts;
        line.ideal_wavefronts = f.ideal;
        if (f.requests > 0) line.sectors_per_request = double(f.sectors) / double(f.requests);
        if (f.ideal > 0) line.bank_conflict_ways = double(f.wavefronts) / double(f.ideal);
        s.lines.push_back(std::move(line));
    }
    return s;
}

}  // namespace wb
