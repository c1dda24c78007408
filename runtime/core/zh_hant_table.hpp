// runtime/core/zh_hant_table.hpp — the table scripts/zh-hant-table.py writes at build time
// (zh_hant_table.cpp in the build tree): each Simplified string the workbook ships with its
// Traditional (Taiwan) text, sorted by the Simplified string's bytes. Only core/zh_hant.cpp
// reads it.
#pragma once

#include <cstddef>
#include <string_view>

namespace wb {

struct ZhHantPair {
    std::string_view simplified;
    std::string_view traditional;
};

extern const ZhHantPair kZhHantPairs[];
extern const std::size_t kZhHantPairCount;

}  // namespace wb
