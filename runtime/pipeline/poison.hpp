// runtime/pipeline/poison.hpp — what makes an unwritten cell or a stray write
// visible, the same for every executor and for the CPU reference.
//
// Outputs start each validation run filled with a poison byte (kPoisonA, then
// kPoisonB: data/buffers.hpp), so a cell a kernel never writes fails the
// comparison instead of passing as whatever was there. Guard zones around
// each buffer hold a pattern of their own in each run, so a write past either
// end is found and named.
#pragma once

#include "compare/compare.hpp"
#include "core/phrase.hpp"
#include "data/buffers.hpp"
#include "lesson/lesson.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace wb {

// Guard zones around every device (or emulated) buffer, and the two patterns
// they hold in the two validation runs (a write of exactly one pattern is still seen).
constexpr std::size_t kGuardBytes = 64 * 1024;
constexpr unsigned char kGuardA = 0xA5, kGuardB = 0x5A;

// Each buffer's guard has a pattern of its own, so a kernel that copies an
// input's guard bytes into an output's guard (a grayscale kernel without its
// bounds test averages three equal bytes into that same byte) still changes it.
inline unsigned char guard_pattern(unsigned char run_pattern, std::size_t buffer) {
    return static_cast<unsigned char>(run_pattern + 29 * buffer);
}

// The sentence for the first guard byte a run changed, over every buffer;
// `first_write(i, pattern)` is buffer i's changed byte offset, if any.
template <class FirstWrite>
Sentence guard_report(const std::vector<HostBuffer>& host, unsigned char run_pattern, FirstWrite&& first_write) {
    for (std::size_t i = 0; i < host.size(); ++i) {
        const auto at = first_write(i, guard_pattern(run_pattern, i));
        if (!at) continue;
        const long long element = element_at(*at, static_cast<long long>(dtype_size(host[i].type)));
        return {{*at >= 0 ? "run.out_of_bounds_after" : "run.out_of_bounds_before",
                 {host[i].name, std::to_string(host[i].count()), std::to_string(element)}}};
    }
    return {};
}

// The outputs the reference must write: those compared, unless the lesson fills them. A scratch
// output that is never compared (lesson 10's block sums) is the kernel's business alone.
bool reference_writes(const Step& step, const std::vector<CompareSpec>& compare, const HostBuffer& b);

// Those outputs set to `poison`, byte by byte.
void poison_reference_outputs(const Step& step, const std::vector<CompareSpec>& compare, std::vector<HostBuffer>& buffers,
                              std::uint8_t poison);

// Whether any of those outputs has an element that is `poison` in every byte.
bool has_poisoned_element(const Step& step, const std::vector<CompareSpec>& compare, const std::vector<HostBuffer>& buffers,
                          std::uint8_t poison);

// The lesson's error: the first output with elements the reference left unwritten in both
// runs (poison A in the first, poison B in the second), named with the reference; empty when none.
Sentence reference_unwritten(const Step& step, const std::vector<CompareSpec>& compare, const std::vector<HostBuffer>& a,
                             const std::vector<HostBuffer>& b);

}  // namespace wb
