// tests/app/ui_text_test.cpp — the app's labels come from the one catalogue,
// and their two languages agree on their printf arguments, so a Chinese label
// never reads the wrong argument.
#include "ui_text.hpp"

#include "core/phrase.hpp"

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

// Every label is a key of the one catalogue (runtime/core/phrase.cpp), rendered there:
// no label is empty, and none falls back to English in Chinese unless it reads the same.
TEST(UiText, EveryLabelComesFromTheCatalogue) {
    for (int i = 0; i < static_cast<int>(UiText::Count_); ++i) {
        const auto id = static_cast<UiText>(i);
        const std::string_view key = ui_text_key(id);
        EXPECT_EQ(key.substr(0, 3), "ui.") << key;
        EXPECT_TRUE(phrase_known(key)) << key << " is not in the catalogue";
        EXPECT_EQ(tr(id, "en"), render({{std::string(key), {}}}, "en")) << key;
        EXPECT_EQ(tr(id, "zh"), render({{std::string(key), {}}}, "zh")) << key;
        EXPECT_STRNE(tr(id, "en"), "") << key;
        EXPECT_EQ(tr(id, "en"), tr(id, "en")) << "rendered once: the same pointer every time";
    }
    EXPECT_STREQ(tr(UiText::Trust, "zh"), "信任");
    EXPECT_STREQ(tr(UiText::Trust, "fr"), "Trust") << "another language falls back to English";
}

TEST(UiText, PositionalArgumentsAreUnderstood) {
    EXPECT_EQ(conversions("%zu of %s%%"), (std::map<int, std::string>{{1, "zu"}, {2, "s"}}));
    EXPECT_EQ(conversions("%2$s has %1$zu"), (std::map<int, std::string>{{1, "zu"}, {2, "s"}}));
    EXPECT_EQ(conversions("%.3g"), (std::map<int, std::string>{{1, "g"}}));
}

}  // namespace
}  // namespace wb::app
