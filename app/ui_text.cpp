// app/ui_text.cpp — the English and Chinese labels (ui_text.hpp).
#include "ui_text.hpp"

#include <array>
#include <cstddef>

namespace wb::app {
namespace {

struct Entry {
    const char* en;
    const char* zh;
};

constexpr std::array<Entry, static_cast<std::size_t>(UiText::Count_)> kTable{{
    {"Lessons", "课程"},
    {"Language", "语言"},
    {"English", "English"},
    {"中文", "中文"},  // each language names itself, so it can be found from the other
    {"Step", "步骤"},
    {"Instructions", "说明"},
    {"Starter code", "初始代码"},
    {"This lesson could not be loaded:", "此课程无法加载："},
    {"No lessons found in this folder.", "此文件夹中没有课程。"},
    {"This lesson has no steps.", "此课程没有步骤。"},
    {"Lessons folder", "课程文件夹"},
    {"lessons", "个课程"},
    {"with problems", "个有问题"},
    {"read-only for now", "暂为只读"},
    {"View", "视图"},
}};

}  // namespace

const char* tr(UiText id, const std::string& lang) {
    const Entry& e = kTable[static_cast<std::size_t>(id)];
    return lang == "zh" ? e.zh : e.en;
}

std::string all_ui_text() {
    std::string all;
    for (const Entry& e : kTable) {
        all += e.en;
        all += e.zh;
    }
    return all;
}

}  // namespace wb::app
