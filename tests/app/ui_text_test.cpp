// tests/app/ui_text_test.cpp — the UI table's two languages agree on their
// printf arguments, so a Chinese label never reads the wrong argument.
#include "ui_text.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <string>

namespace wb::app {
namespace {

// Argument position -> conversion ("zu", "s", ".3g" loses its precision: "g").
// Positional ("%2$s") and plain conversions are both understood.
std::map<int, std::string> conversions(const std::string& f) {
    std::map<int, std::string> out;
    int next = 1;
    for (std::size_t i = 0; i < f.size(); ++i) {
        if (f[i] != '%') continue;
        if (i + 1 < f.size() && f[i + 1] == '%') {
            ++i;
            continue;
        }
        std::size_t j = i + 1;
        int pos = 0;
        std::size_t k = j;
        while (k < f.size() && std::isdigit(static_cast<unsigned char>(f[k]))) pos = pos * 10 + (f[k++] - '0');
        if (k < f.size() && f[k] == '$' && pos > 0) j = k + 1;
        else pos = next++;
        while (j < f.size() && std::string_view("-+ #0.123456789").find(f[j]) != std::string_view::npos) ++j;
        std::string conv;
        while (j < f.size() && std::string_view("hlLqjzt").find(f[j]) != std::string_view::npos) conv += f[j++];
        if (j < f.size()) conv += f[j];
        out[pos] = conv;
        i = j;
    }
    return out;
}

TEST(UiText, BothLanguagesTakeTheSameArgumentsInTheSameRoles) {
    for (int i = 0; i < static_cast<int>(UiText::Count_); ++i) {
        const auto id = static_cast<UiText>(i);
        EXPECT_EQ(conversions(tr(id, "en")), conversions(tr(id, "zh")))
            << "entry " << i << ": \"" << tr(id, "en") << "\" / \"" << tr(id, "zh") << "\"";
    }
}

TEST(UiText, PositionalArgumentsAreUnderstood) {
    EXPECT_EQ(conversions("%zu of %s%%"), (std::map<int, std::string>{{1, "zu"}, {2, "s"}}));
    EXPECT_EQ(conversions("%2$s has %1$zu"), (std::map<int, std::string>{{1, "zu"}, {2, "s"}}));
    EXPECT_EQ(conversions("%.3g"), (std::map<int, std::string>{{1, "g"}}));
}

}  // namespace
}  // namespace wb::app
