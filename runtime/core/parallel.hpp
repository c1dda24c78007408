// runtime/core/parallel.hpp — split a loop over [0, n) across the machine's cores.
//
// For the host-side work that grows with a case: drawing inputs, comparing
// outputs. Each thread gets one contiguous range, in order, so a caller that
// keeps per-range results can merge them in index order. Small loops run on
// the calling thread.
#pragma once

#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace wb {

// Loops under this many elements stay on the calling thread.
constexpr std::size_t kParallelFrom = std::size_t(1) << 18;

// The ranges parallel_for splits [0, n) into: one per thread, in order.
// `cost` is each item's work in elements (a row of an image: its width).
inline std::size_t parallel_parts(std::size_t n, std::size_t cost = 1) {
    const std::size_t work = n * std::max<std::size_t>(cost, 1);
    if (work < kParallelFrom) return 1;
    const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    return std::max<std::size_t>(1, std::min({cores, n, work / (kParallelFrom / 4)}));
}

// Calls body(part, begin, end) for each of parallel_parts(n, cost) ranges, the
// first on this thread. An exception from any part is rethrown here, after
// every part has finished.
template <typename Body>
void parallel_for(std::size_t n, Body&& body, std::size_t cost = 1) {
    const std::size_t parts = parallel_parts(n, cost);
    auto range = [&](std::size_t p, std::size_t& b, std::size_t& e) {
        b = n * p / parts;
        e = n * (p + 1) / parts;
    };
    if (parts <= 1) {
        body(std::size_t(0), std::size_t(0), n);
        return;
    }
    std::vector<std::exception_ptr> errors(parts);
    auto run_part = [&](std::size_t p) {
        std::size_t b, e;
        range(p, b, e);
        try {
            body(p, b, e);
        } catch (...) {
            errors[p] = std::current_exception();
        }
    };
    std::vector<std::thread> threads;
    threads.reserve(parts - 1);
    for (std::size_t p = 1; p < parts; ++p) {
        try {
            threads.emplace_back(run_part, p);
        } catch (...) {  // no thread to be had: this one does the part
            run_part(p);
        }
    }
    run_part(0);
    for (auto& t : threads) t.join();
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
}

}  // namespace wb
