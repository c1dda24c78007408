// runtime/lesson/lesson.cpp — lookups on the lesson model (see lesson.hpp).
//
// The model is plain data filled by the loader; these are the few queries the
// pipeline, the CLI and the GUI share: text in the student's language, and
// params, buffers, cases and steps by name.
#include "lesson/lesson.hpp"

#include "core/zh_hant.hpp"

#include <charconv>

namespace wb {

namespace {

// "zh-Hans" -> "zh", so a request for "zh" finds text written as "zh-Hans" and back.
std::string primary_subtag(const std::string& lang) { return lang.substr(0, lang.find('-')); }

}  // namespace

const char* baseline_kind_name(BaselineKind k) {
    switch (k) {
    case BaselineKind::CublasSgemm: return "cublas_sgemm";
    case BaselineKind::Memcpy: return "memcpy";
    case BaselineKind::CubReduceSum: return "cub_reduce_sum";
    case BaselineKind::CubScanSum: return "cub_scan_sum";
    }
    return "?";
}

const char* baseline_output_role(BaselineKind k) {
    switch (k) {
    case BaselineKind::CublasSgemm: return "c";
    case BaselineKind::Memcpy: return "to";
    case BaselineKind::CubReduceSum:
    case BaselineKind::CubScanSum: return "out";
    }
    return "?";
}

const char* target_measure_name(TargetMeasure m) {
    switch (m) {
    case TargetMeasure::Wall: return "wall";
    case TargetMeasure::Copies: return "copies";
    case TargetMeasure::Kernels: return "kernels";
    }
    return "?";
}

const char* access_count_name(AccessCount c) {
    switch (c) {
    case AccessCount::GlobalReads: return "global_reads";
    case AccessCount::GlobalWrites: return "global_writes";
    case AccessCount::GlobalAtomics: return "global_atomics";
    case AccessCount::SharedReads: return "shared_reads";
    case AccessCount::SharedWrites: return "shared_writes";
    case AccessCount::SharedAtomics: return "shared_atomics";
    }
    return "?";
}

bool access_count_shared(AccessCount c) {
    return c == AccessCount::SharedReads || c == AccessCount::SharedWrites || c == AccessCount::SharedAtomics;
}

const char* access_figure_name(AccessFigure f) {
    switch (f) {
    case AccessFigure::SectorsPerRequest: return "sectors_per_request";
    case AccessFigure::BankConflictWays: return "bank_conflict_ways";
    }
    return "?";
}

const std::vector<std::string>& host_libraries_known() {
    static const std::vector<std::string> known = {"cublas", "curand", "cufft"};
    return known;
}

const std::string& LocalizedText::get(const std::string& lang) const {
    static const std::string kEmpty;
    if (by_lang.empty()) return kEmpty;
    if (auto it = by_lang.find(lang); it != by_lang.end()) return it->second;
    if (!lang.empty()) {
        const std::string primary = primary_subtag(lang);
        // Traditional asked, Simplified written: the build's conversion of it, where it made one.
        for (const auto& [key, text] : by_lang)
            if (!key.empty() && primary_subtag(key) == primary) return for_reader(text, key, lang);
    }
    if (auto it = by_lang.find("en"); it != by_lang.end()) return it->second;
    if (auto it = by_lang.find(""); it != by_lang.end()) return it->second;
    return by_lang.begin()->second;
}

const Param* Step::find_param(const std::string& name) const {
    for (const auto& p : params)
        if (p.name == name) return &p;
    return nullptr;
}

const Buffer* Step::find_buffer(const std::string& name) const {
    for (const auto& b : buffers)
        if (b.name == name) return &b;
    return nullptr;
}

const TestCase* Step::find_case(const std::string& name) const {
    for (const auto& c : checks.cases)
        if (c.name == name) return &c;
    return nullptr;
}

std::size_t Step::tuned_launch() const {
    for (std::size_t i = 0; i < launches.size(); ++i)
        if (launches[i].tuned) return i;
    return 0;
}

const Step* Lesson::find_step(const std::string& id_or_number) const {
    for (const auto& s : steps)
        if (s.id == id_or_number) return &s;
    // Ids win over numbers, so a step whose id is "1" is still found by name.
    // Numbers are 1-based, as the GUI shows them ("Step 1 of 2"): "0" is no step.
    std::size_t number = 0;
    const char* first = id_or_number.data();
    const char* last = first + id_or_number.size();
    auto [ptr, ec] = std::from_chars(first, last, number);
    if (ec == std::errc() && ptr == last && first != last && number >= 1 && number <= steps.size())
        return &steps[number - 1];
    return nullptr;
}

}  // namespace wb
