// runtime/core/zh_hant.cpp — lookups in the build's Traditional Chinese table (zh_hant.hpp).
#include "core/zh_hant.hpp"

#include "core/zh_hant_table.hpp"

#include <cctype>
#include <unordered_map>

namespace wb {

namespace {

bool tag_equal(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

// Whether a subtag after the first is `subtag`: "zh-Hant-TW" has "Hant" and "TW".
bool has_subtag(std::string_view lang, std::string_view subtag) {
    std::size_t start = 0;
    while (start <= lang.size()) {
        std::size_t end = lang.find('-', start);
        if (end == std::string_view::npos) end = lang.size();
        if (start > 0 && tag_equal(lang.substr(start, end - start), subtag)) return true;
        start = end + 1;
    }
    return false;
}

const std::unordered_map<std::string_view, std::string>& table() {
    static const std::unordered_map<std::string_view, std::string> t = [] {
        std::unordered_map<std::string_view, std::string> m;
        m.reserve(kZhHantPairCount);
        for (std::size_t i = 0; i < kZhHantPairCount; ++i)
            m.emplace(kZhHantPairs[i].simplified, std::string(kZhHantPairs[i].traditional));
        return m;
    }();
    return t;
}

}  // namespace

bool is_chinese(std::string_view lang) {
    return lang.size() >= 2 && tag_equal(lang.substr(0, 2), "zh") && (lang.size() == 2 || lang[2] == '-');
}

bool is_traditional_chinese(std::string_view lang) {
    if (!is_chinese(lang)) return false;
    if (has_subtag(lang, "Hans")) return false;
    return has_subtag(lang, "Hant") || has_subtag(lang, "TW") || has_subtag(lang, "HK") || has_subtag(lang, "MO");
}

std::string_view workbook_language(std::string_view lang) {
    return !is_chinese(lang) ? "en" : is_traditional_chinese(lang) ? "zh-Hant" : "zh";
}

const std::string& for_reader(const std::string& text, std::string_view written, std::string_view asked) {
    if (is_traditional_chinese(asked) && is_chinese(written) && !is_traditional_chinese(written))
        if (const std::string* t = traditional_text(text)) return *t;
    return text;
}

const std::string* traditional_text(std::string_view simplified) {
    const auto& t = table();
    auto it = t.find(simplified);
    return it == t.end() ? nullptr : &it->second;
}

std::string_view to_traditional(std::string_view simplified) {
    const std::string* t = traditional_text(simplified);
    return t ? std::string_view(*t) : simplified;
}

std::size_t traditional_text_count() { return kZhHantPairCount; }

}  // namespace wb
