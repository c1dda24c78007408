// runtime/pipeline/poison.cpp — poisoned outputs and the reference's unwritten cells (poison.hpp).
#include "pipeline/poison.hpp"

#include "lesson/resolve.hpp"

#include <cstring>

namespace wb {

namespace {

// Whether element i of `b` is `poison` in every byte.
bool element_is(const HostBuffer& b, std::size_t i, std::uint8_t poison) {
    const std::size_t size = dtype_size(b.type);
    const auto* p = static_cast<const std::uint8_t*>(b.data()) + i * size;
    for (std::size_t k = 0; k < size; ++k)
        if (p[k] != poison) return false;
    return true;
}

}  // namespace

bool reference_writes(const Step& step, const std::vector<CompareSpec>& compare, const HostBuffer& b) {
    if (b.role != BufferRole::Output || filled_by_lesson(step, b)) return false;
    for (const CompareSpec& c : compare)
        if (c.buffer == b.name) return true;
    return false;
}

// Those outputs set to `poison`, byte by byte.
void poison_reference_outputs(const Step& step, const std::vector<CompareSpec>& compare, std::vector<HostBuffer>& buffers,
                              std::uint8_t poison) {
    for (HostBuffer& b : buffers)
        if (reference_writes(step, compare, b)) std::memset(b.mutable_data(), poison, b.size_bytes());
}

bool has_poisoned_element(const Step& step, const std::vector<CompareSpec>& compare, const std::vector<HostBuffer>& buffers,
                          std::uint8_t poison) {
    for (const HostBuffer& b : buffers)
        if (reference_writes(step, compare, b))
            for (std::size_t i = 0; i < b.count(); ++i)
                if (element_is(b, i, poison)) return true;
    return false;
}

// The lesson's error: the first output with elements the reference left unwritten in both
// runs (poison A in the first, poison B in the second), named with the reference; empty when none.
Sentence reference_unwritten(const Step& step, const std::vector<CompareSpec>& compare, const std::vector<HostBuffer>& a,
                             const std::vector<HostBuffer>& b) {
    for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) {
        const HostBuffer& x = a[k];
        if (!reference_writes(step, compare, x)) continue;
        std::size_t unwritten = 0, first = 0;
        for (std::size_t i = 0; i < x.count(); ++i)
            if (element_is(x, i, kPoisonA) && element_is(b[k], i, kPoisonB) && unwritten++ == 0) first = i;
        if (unwritten == 0) continue;
        std::string at;
        for (std::size_t d : x.unflatten(first)) at += (at.empty() ? "" : ", ") + std::to_string(d);
        return {{"reference.unwritten", {step.reference.entry, step.reference.source.origin, x.name, std::to_string(unwritten),
                                          std::to_string(x.count()), at, step.reference.json_path}}};
    }
    return {};
}

}  // namespace wb
