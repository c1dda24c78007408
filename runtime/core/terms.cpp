// runtime/core/terms.cpp — the Chinese term list (terms.hpp).
#include "core/terms.hpp"

namespace wb {

const std::vector<ReplacedTerm>& replaced_chinese_terms() {
    static const std::vector<ReplacedTerm> list = {
        {"基线", "基准"},         // baseline
        {"脊点", "拐点"},         // ridge point
        {"本地内存", "局部内存"}, // local memory
        {"二级缓存", "L2 缓存"},  // L2 cache
        {"内核", "核函数"},       // kernel
        {"走三遍", "遍历三遍"},
        {"本书", "本课程"},
        {"线程簇", "线程束"},     // warp
        {"流多处理器", "流式多处理器"},  // SM
        {"合并访存", "合并访问"}, // coalesced access
        {"bank 冲突", "存储体冲突"},
    };
    return list;
}

std::vector<ReplacedTerm> chinese_term_problems(std::string_view text) {
    std::vector<ReplacedTerm> found;
    for (const ReplacedTerm& t : replaced_chinese_terms())
        if (text.find(t.word) != std::string_view::npos) found.push_back(t);
    return found;
}

}  // namespace wb
