// runtime/emulate/access_record.cpp — the record of the sampled blocks'
// accesses, and the per-line and per-thread figures made from it (access_record.hpp).
#include "emulate/access_record.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace wb {

namespace {

// The lanes' distinct bytes, and the distinct 4-byte words they fall in.
long long distinct_bytes(const std::vector<std::pair<std::uint64_t, unsigned>>& lanes) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
    for (const auto& [offset, size] : lanes) spans.emplace_back(offset, offset + std::max(1u, size));
    std::sort(spans.begin(), spans.end());
    long long bytes = 0;
    std::uint64_t covered = 0;  // the end of what is counted so far
    for (const auto& [from, to] : spans) {
        const std::uint64_t start = std::max(from, covered);
        if (to > start) bytes += static_cast<long long>(to - start);
        covered = std::max(covered, to);
    }
    return bytes;
}

std::vector<std::uint64_t> distinct_words(const std::vector<std::pair<std::uint64_t, unsigned>>& lanes) {
    std::vector<std::uint64_t> words;
    for (const auto& [offset, size] : lanes) {
        const std::uint64_t last = (offset + std::max(1u, size) - 1) / kBankWordBytes;
        for (std::uint64_t w = offset / kBankWordBytes; w <= last; ++w) words.push_back(w);
    }
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    return words;
}

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

long long request_wavefronts(const std::vector<std::pair<std::uint64_t, unsigned>>& lanes) {
    unsigned per_bank[kSharedBanks] = {};
    for (std::uint64_t w : distinct_words(lanes)) ++per_bank[w % kSharedBanks];
    return *std::max_element(std::begin(per_bank), std::end(per_bank));
}

long long request_least_sectors(const std::vector<std::pair<std::uint64_t, unsigned>>& lanes) {
    return (distinct_bytes(lanes) + kSectorBytes - 1) / kSectorBytes;
}

long long request_least_wavefronts(const std::vector<std::pair<std::uint64_t, unsigned>>& lanes) {
    const auto words = static_cast<long long>(distinct_words(lanes).size());
    return std::max(1ll, (words + kSharedBanks - 1) / kSharedBanks);
}

AccessCost access_cost(const AccessLine& line) {
    const bool shared = line.space == "shared";
    const long long took = shared ? line.wavefronts : line.sectors;
    const long long least = shared ? line.least_wavefronts : line.least_sectors;
    if (least <= 0 || took <= least) return AccessCost::Fits;
    return took <= 2 * least ? AccessCost::Extra : AccessCost::Heavy;
}

const char* access_cost_name(AccessCost cost) {
    switch (cost) {
    case AccessCost::Fits: return "fits";
    case AccessCost::Extra: return "extra";
    case AccessCost::Heavy: return "heavy";
    }
    return "?";
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

AccessSummary AccessRecord::summarise(const LinesOf& lines_of, const std::vector<AccessBuffer>& globals) const {
    AccessSummary s;
    s.truncated = truncated_.load(std::memory_order_relaxed);
    for (std::size_t i = 0; i < launches_.size(); ++i) {
        const Launch& l = launches_[i];
        AccessSampledLaunch out;
        out.number = static_cast<int>(i);
        out.kernel = l.kernel;
        out.blocks = std::max(1ll, l.grid[0]) * std::max(1ll, l.grid[1]) * std::max(1ll, l.grid[2]);
        for (unsigned long long b : l.sampled) out.sampled.push_back(xyz(b, l.grid));
        out.block_dim = l.block;
        s.launches.push_back(std::move(out));
    }
    const auto threads_per_block = [&](const Block& b) {
        const Launch& l = launches_[static_cast<std::size_t>(b.launch)];
        return std::max(1ll, l.block[0]) * std::max(1ll, l.block[1]) * std::max(1ll, l.block[2]);
    };

    // The buffers the accesses touched, in the order met: a global buffer by
    // its index, shared memory by its region (0 dynamic, 1, 2 static) and, when
    // known, the static array in it. An access's element counts from the
    // buffer's (the array's) start.
    struct Place {
        int buffer;
        long long origin;  // the buffer's first byte, in the offsets' frame
    };
    std::vector<int> global_index;
    std::map<std::pair<std::uint16_t, std::string>, int> shared_index;
    const auto place_of = [&](const Block& b, const Access& a) -> Place {
        if (a.kind & kShared) {
            const Variable* v = a.variable > 0 && a.variable <= b.variables.size() ? &b.variables[a.variable - 1u] : nullptr;
            const auto [it, added] = shared_index.try_emplace({a.region, v ? v->name : std::string()}, int(s.buffers.size()));
            if (added) s.buffers.push_back({v && !v->name.empty() ? v->name : "shared", "shared", v ? int(v->element_bytes) : 0});
            return {it->second, v ? static_cast<long long>(v->offset) : 0};
        }
        if (global_index.size() <= a.region) global_index.resize(a.region + 1u, -1);
        int& index = global_index[a.region];
        if (index < 0) {
            index = static_cast<int>(s.buffers.size());
            if (a.region < globals.size()) s.buffers.push_back(globals[a.region]);
            else s.buffers.push_back({"buffer " + std::to_string(a.region), "global", 0});
        }
        return {index, 0};
    };

    // Per instruction (code address and kind, numbered as met): requests, sectors, wavefronts, and its first requests.
    struct Example {
        unsigned long long block;  // linear, in its launch
        std::size_t first;         // where in the block's log its first lane's access is
        AccessRequest request;
    };
    struct Figures {
        std::uintptr_t pc = 0;
        std::uint8_t kind = 0;
        long long requests = 0, sectors = 0, wavefronts = 0, least_sectors = 0, least_wavefronts = 0;
        long long uneven_requests = 0;  // AccessLine::uneven_requests
        std::vector<Example> examples;  // by launch and block, then as met
    };
    std::vector<Figures> instructions;
    // A user-space code address has at most 47 bits, so pc << 3 | kind is unique.
    std::unordered_map<std::uint64_t, int> instruction_of;

    std::vector<const Block*> blocks;
    long long sampled_threads = 0;
    for (const Block& b : blocks_) {
        blocks.push_back(&b);
        sampled_threads += threads_per_block(b);
    }
    // Each thread's share of kThreadAccesses.
    const auto per_thread = static_cast<std::size_t>(std::clamp<long long>(
        static_cast<long long>(kThreadAccesses) / std::max(1ll, sampled_threads), 1, static_cast<long long>(kAccessesPerThread)));
    std::sort(blocks.begin(), blocks.end(),
              [](const Block* a, const Block* b) { return std::tie(a->launch, a->linear) < std::tie(b->launch, b->linear); });
    for (const Block* b : blocks) {
        const Launch& l = launches_[static_cast<std::size_t>(b->launch)];
        const long long per_block = threads_per_block(*b);
        // Each thread's counts.
        std::vector<AccessThread> threads(static_cast<std::size_t>(per_block));
        for (long long t = 0; t < per_block; ++t) {
            AccessThread& th = threads[static_cast<std::size_t>(t)];
            th.launch = b->launch;
            th.block = xyz(b->linear, l.grid);
            th.thread = xyz(static_cast<unsigned long long>(t), l.block);
        }
        // The requests: per warp, the k-th access of each (pc, kind) by each
        // lane. Key: (warp, instruction, region, k); value: the lanes and their (offset, size).
        struct Lanes {
            std::size_t first = 0;
            std::vector<int> lane;
            std::vector<std::pair<std::uint64_t, unsigned>> bytes;
        };
        using Key = std::tuple<unsigned, int, std::uint16_t, unsigned>;
        std::map<Key, Lanes> requests;
        // Per thread: instruction -> how many times it ran so far.
        std::vector<std::unordered_map<int, unsigned>> seen(threads.size());
        for (std::size_t i = 0; i < b->accesses.size(); ++i) {
            const Access& a = b->accesses[i];
            if (a.thread >= threads.size()) continue;
            AccessThread& th = threads[a.thread];
            const bool shared = (a.kind & kShared) != 0;
            switch (a.kind & kOpMask) {
            case kLoad: ++(shared ? th.shared_reads : th.global_reads); break;
            case kStore: ++(shared ? th.shared_writes : th.global_writes); break;
            default: ++(shared ? th.shared_atomics : th.global_atomics); break;
            }
            const auto [it, added] = instruction_of.try_emplace((std::uint64_t(a.pc) << 3) | a.kind, int(instructions.size()));
            if (added) {
                instructions.emplace_back();
                instructions.back().pc = a.pc;
                instructions.back().kind = a.kind;
            }
            const int instruction = it->second;
            const Place place = place_of(*b, a);
            if (th.accesses.size() < per_thread) {
                const int element_bytes = s.buffers[static_cast<std::size_t>(place.buffer)].element_bytes;
                const long long from_start = static_cast<long long>(a.offset) - place.origin;
                // `row` holds the instruction until the lines are known.
                th.accesses.push_back({instruction, place.buffer, element_bytes > 0 ? from_start / element_bytes : from_start});
            } else {
                ++th.accesses_left_out;
            }
            const unsigned k = seen[a.thread][instruction]++;
            Lanes& lanes = requests[{a.thread / unsigned(kWarpLanes), instruction, a.region, k}];
            if (lanes.lane.empty()) lanes.first = i;
            lanes.lane.push_back(static_cast<int>(a.thread % kWarpLanes));
            lanes.bytes.emplace_back(a.offset, a.size);
        }
        // The (warp, instruction) pairs whose lanes ran it different numbers
        // of times (a lane that never ran it is only inactive).
        std::set<std::pair<unsigned, int>> uneven;
        {
            std::map<std::pair<unsigned, int>, std::pair<unsigned, unsigned>> runs;  // least and most
            for (std::size_t t = 0; t < seen.size(); ++t)
                for (const auto& [instruction, n] : seen[t]) {
                    const auto [it, added] = runs.try_emplace({unsigned(t / kWarpLanes), instruction}, n, n);
                    it->second.first = std::min(it->second.first, n);
                    it->second.second = std::max(it->second.second, n);
                }
            for (const auto& [key, range] : runs)
                if (range.first != range.second) uneven.insert(key);
        }
        std::vector<std::pair<const Key*, const Lanes*>> met;
        for (const auto& [key, lanes] : requests) met.emplace_back(&key, &lanes);
        std::sort(met.begin(), met.end(), [](const auto& a, const auto& b) { return a.second->first < b.second->first; });
        for (const auto& [key, lanes] : met) {
            Figures& f = instructions[static_cast<std::size_t>(std::get<1>(*key))];
            const bool shared = (f.kind & kShared) != 0;
            ++f.requests;
            if (uneven.count({std::get<0>(*key), std::get<1>(*key)})) ++f.uneven_requests;
            const long long took = shared ? request_wavefronts(lanes->bytes) : request_sectors(lanes->bytes);
            if (shared) {
                f.wavefronts += took;
                f.least_wavefronts += request_least_wavefronts(lanes->bytes);
            } else {
                f.sectors += took;
                f.least_sectors += request_least_sectors(lanes->bytes);
            }
            if (f.examples.size() >= kRequestsPerLine) continue;
            Example e;
            e.block = b->linear;
            e.first = lanes->first;
            AccessRequest& r = e.request;
            r.launch = b->launch;
            r.block = xyz(b->linear, l.grid);
            r.warp = static_cast<int>(std::get<0>(*key));
            const Place place = place_of(*b, b->accesses[lanes->first]);
            r.buffer = place.buffer;
            r.origin = place.origin;
            (shared ? r.wavefronts : r.sectors) = took;
            for (std::size_t n = 0; n < lanes->lane.size(); ++n) {
                r.size = std::max(r.size, static_cast<int>(lanes->bytes[n].second));
                r.lanes.push_back({lanes->lane[n], static_cast<long long>(lanes->bytes[n].first)});
            }
            std::sort(r.lanes.begin(), r.lanes.end(), [](const AccessLane& a, const AccessLane& b) { return a.lane < b.lane; });
            f.examples.push_back(std::move(e));
        }
        s.threads.insert(s.threads.end(), std::make_move_iterator(threads.begin()), std::make_move_iterator(threads.end()));
    }

    // Per line: the instructions of one line, kind and space summed.
    // The hook's return address is after its call: one byte back is the call, on the student's line.
    std::vector<std::uintptr_t> pcs;
    for (const Figures& f : instructions) pcs.push_back(f.pc ? f.pc - 1 : 0);
    const std::vector<std::string> found = lines_of(pcs);
    using LineKey = std::tuple<std::string, int, std::string, std::string>;
    std::map<LineKey, std::vector<int>> per_line;  // the instructions of each
    for (std::size_t i = 0; i < instructions.size(); ++i) {
        const auto [file, line] = split_line(i < found.size() ? found[i] : std::string());
        const std::uint8_t kind = instructions[i].kind;
        per_line[{file, line, op_name(kind), (kind & kShared) ? "shared" : "global"}].push_back(static_cast<int>(i));
    }
    // Each line's share of kExampleRequests.
    const std::size_t examples_per_line =
        std::clamp<std::size_t>(kExampleRequests / std::max<std::size_t>(1, per_line.size()), 1, kRequestsPerLine);
    std::vector<int> row_of(instructions.size(), 0);
    for (const auto& [key, members] : per_line) {
        AccessLine line;
        std::tie(line.file, line.line, line.op, line.space) = key;
        std::vector<const Example*> examples;
        for (int i : members) {
            const Figures& f = instructions[static_cast<std::size_t>(i)];
            line.requests += f.requests;
            line.sectors += f.sectors;
            line.wavefronts += f.wavefronts;
            line.least_sectors += f.least_sectors;
            line.least_wavefronts += f.least_wavefronts;
            line.uneven_requests += f.uneven_requests;
            for (const Example& e : f.examples) examples.push_back(&e);
            row_of[static_cast<std::size_t>(i)] = static_cast<int>(s.lines.size());
        }
        if (line.requests > 0) line.sectors_per_request = double(line.sectors) / double(line.requests);
        // As Nsight Compute: the wavefronts over the fewest the same words need, so a
        // warp of float4 (4 passes, 4 needed) is not a conflict.
        if (line.least_wavefronts > 0) line.bank_conflict_ways = double(line.wavefronts) / double(line.least_wavefronts);
        // In the order the warps met them: by launch, block, then place in the block's log.
        std::sort(examples.begin(), examples.end(), [](const Example* a, const Example* b) {
            return std::tie(a->request.launch, a->block, a->first) < std::tie(b->request.launch, b->block, b->first);
        });
        for (std::size_t n = 0; n < examples.size() && n < examples_per_line; ++n) line.examples.push_back(examples[n]->request);
        s.lines.push_back(std::move(line));
    }
    for (AccessThread& t : s.threads)
        for (ThreadAccess& a : t.accesses) a.row = row_of[static_cast<std::size_t>(a.row)];
    return s;
}

}  // namespace wb
