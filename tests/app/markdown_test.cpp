// tests/app/markdown_test.cpp — the Markdown widget: md4c structure, CJK line breaking, headless drawing.
#include "widgets/markdown.hpp"

#include <gtest/gtest.h>
#include <imgui.h>

#include <cfloat>
#include <string>
#include <vector>

namespace wb::app {
namespace {

// A headless ImGui context with the default font built (no window, no GL).
class HeadlessImGui {
public:
    HeadlessImGui() {
        ctx_ = ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = {1280, 800};
        io.IniFilename = nullptr;
        unsigned char* px = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&px, &w, &h);
    }
    ~HeadlessImGui() { ImGui::DestroyContext(ctx_); }
    ImFont* font() const { return ImGui::GetIO().Fonts->Fonts[0]; }

private:
    ImGuiContext* ctx_;
};

std::string joined(const MdBlock& b) {
    std::string s;
    for (const MdSpan& sp : b.spans) s += sp.text;
    return s;
}

TEST(Markdown, HeadingsKeepTheirLevelsAndText) {
    const auto blocks = parse_markdown("# Vector addition\n\nIntro.\n\n### Step 2\n");
    ASSERT_EQ(blocks.size(), 3u);
    EXPECT_EQ(blocks[0].kind, MdBlockKind::Heading);
    EXPECT_EQ(blocks[0].level, 1);
    EXPECT_EQ(joined(blocks[0]), "Vector addition");
    EXPECT_EQ(blocks[1].kind, MdBlockKind::Paragraph);
    EXPECT_EQ(blocks[2].level, 3);
    EXPECT_EQ(joined(blocks[2]), "Step 2");
}

TEST(Markdown, NestedListsRecordDepthAndNumbers) {
    const auto blocks = parse_markdown("1. first\n   - inner a\n   - inner b\n2. second\n");
    ASSERT_EQ(blocks.size(), 4u);
    EXPECT_EQ(blocks[0].kind, MdBlockKind::ListItem);
    EXPECT_TRUE(blocks[0].ordered);
    EXPECT_EQ(blocks[0].number, 1);
    EXPECT_EQ(blocks[0].list_depth, 1);
    EXPECT_EQ(joined(blocks[0]), "first");
    EXPECT_EQ(blocks[1].list_depth, 2);
    EXPECT_FALSE(blocks[1].ordered);
    EXPECT_EQ(joined(blocks[1]), "inner a");
    EXPECT_EQ(blocks[2].list_depth, 2);
    EXPECT_EQ(blocks[3].list_depth, 1);
    EXPECT_EQ(blocks[3].number, 2);
    EXPECT_EQ(joined(blocks[3]), "second");
}

TEST(Markdown, LooseListItemTextStaysInTheItem) {
    const auto blocks = parse_markdown("- one\n\n- two\n");
    ASSERT_EQ(blocks.size(), 2u);
    EXPECT_EQ(blocks[0].kind, MdBlockKind::ListItem);
    EXPECT_EQ(joined(blocks[0]), "one");
    EXPECT_EQ(joined(blocks[1]), "two");
}

TEST(Markdown, FencedCodeKeepsItsTextAndLanguage) {
    const auto blocks = parse_markdown("Text\n\n```cuda\nint i = threadIdx.x;\nc[i] = a[i];\n```\n");
    ASSERT_EQ(blocks.size(), 2u);
    EXPECT_EQ(blocks[1].kind, MdBlockKind::Code);
    EXPECT_EQ(blocks[1].code_lang, "cuda");
    EXPECT_EQ(blocks[1].code, "int i = threadIdx.x;\nc[i] = a[i];\n");
}

TEST(Markdown, InlineStylesAndLinksBecomeSpans) {
    const auto blocks = parse_markdown("Use **blockIdx** and *carefully* call `f()`; see [the guide](https://docs.nvidia.com).");
    ASSERT_EQ(blocks.size(), 1u);
    const auto& s = blocks[0].spans;
    bool strong = false, em = false, code = false, link = false;
    for (const MdSpan& sp : s) {
        if (sp.strong && sp.text == "blockIdx") strong = true;
        if (sp.em && sp.text == "carefully") em = true;
        if (sp.code && sp.text == "f()") code = true;
        if (sp.text == "the guide" && sp.link == "https://docs.nvidia.com") link = true;
    }
    EXPECT_TRUE(strong);
    EXPECT_TRUE(em);
    EXPECT_TRUE(code);
    EXPECT_TRUE(link);
    EXPECT_EQ(joined(blocks[0]), "Use blockIdx and carefully call f(); see the guide.");
}

TEST(Markdown, EntitiesAndTablesAreReadable) {
    const auto blocks = parse_markdown("a &lt; b &amp;&amp; c\n\n| x | y |\n|---|---|\n| 1 | 2 |\n");
    ASSERT_EQ(blocks.size(), 3u);
    EXPECT_EQ(joined(blocks[0]), "a < b && c");
    EXPECT_EQ(blocks[1].kind, MdBlockKind::TableRow);
    EXPECT_TRUE(blocks[1].header_row);
    ASSERT_EQ(blocks[2].cells.size(), 2u);
    EXPECT_EQ(blocks[2].cells[1][0].text, "2");
}

TEST(Markdown, LongChineseTextBreaksBetweenCharactersWithinTheWidth) {
    HeadlessImGui imgui;
    const std::string zh =
        "每个线程计算输出向量中的一个元素。线程的全局索引由块索引、块大小和线程索引共同决定，"
        "超出范围的线程必须什么也不做，否则会越界写入内存。";
    const float width = 200.0f;
    const auto lines = wrap_text(imgui.font(), 0.0f, zh, width);
    ASSERT_GE(lines.size(), 3u);
    std::string rejoined;
    for (const auto& l : lines) {
        const float w = imgui.font()->CalcTextSizeA(imgui.font()->FontSize, 1e9f, 0, l.c_str()).x;
        EXPECT_LE(w, width) << l;
        EXPECT_FALSE(l.empty());
        rejoined += l;
        // Closing punctuation never starts a line.
        EXPECT_NE(l.rfind("，", 0), 0u) << l;
        EXPECT_NE(l.rfind("。", 0), 0u) << l;
    }
    EXPECT_EQ(rejoined, zh);  // nothing lost or duplicated
}

TEST(Markdown, LatinTextBreaksAtSpacesOnly) {
    HeadlessImGui imgui;
    const auto lines = wrap_text(imgui.font(), 0.0f, "alpha beta gamma delta epsilon zeta eta theta", 100.0f);
    ASSERT_GE(lines.size(), 2u);
    for (const auto& l : lines) {
        EXPECT_NE(l.front(), ' ');
        EXPECT_NE(l.back(), ' ');
    }
    // Every line is made of whole words: no word was cut.
    const std::string words = " alpha beta gamma delta epsilon zeta eta theta ";
    for (const auto& l : lines) EXPECT_NE(words.find(" " + l + " "), std::string::npos) << l;
}

// Records what the widget tells its host about links.
struct LinkRecorder : MarkdownCallbacks {
    struct Piece {
        std::string text, url;
        ImVec2 min, max;
    };
    std::vector<Piece> drawn;  // this frame's link pieces
    std::vector<std::string> opened;
    void link_drawn(const std::string& text, const std::string& url, float x0, float y0, float x1, float y1) override {
        drawn.push_back({text, url, {x0, y0}, {x1, y1}});
    }
    void open_link(const std::string& url) override { opened.push_back(url); }
};

// One frame of `md` in a fixed 300x600 window at the origin, with the mouse
// at `mouse` and the left button up or down.
void draw_frame(const std::string& md, LinkRecorder& cb, ImVec2 mouse = {-FLT_MAX, -FLT_MAX}, bool button = false) {
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = 1.0f / 60.0f;
    io.MousePos = mouse;
    io.MouseDown[0] = button;
    cb.drawn.clear();
    ImGui::NewFrame();
    ImGui::SetNextWindowPos({0, 0});
    ImGui::SetNextWindowSize({300, 600});
    ImGui::Begin("md");
    draw_markdown(md, MarkdownFonts{}, &cb);  // all fonts null: the current font everywhere
    ImGui::End();
    ImGui::Render();
}

// Moves the mouse to `at`, presses and releases the left button there.
void click_at(const std::string& md, LinkRecorder& cb, ImVec2 at) {
    draw_frame(md, cb, at, false);  // hover first: the window under the mouse is found from the last frame
    draw_frame(md, cb, at, true);
    draw_frame(md, cb, at, false);
}

ImVec2 centre(const LinkRecorder::Piece& p) { return {(p.min.x + p.max.x) * 0.5f, (p.min.y + p.max.y) * 0.5f}; }

TEST(Markdown, DrawsEveryKindOfBlockHeadlessAndOpensNothingUnclicked) {
    HeadlessImGui imgui;
    const std::string md =
        "# Title\n\nSome *text* with `code` and [a link](https://example.com).\n\n"
        "- a\n  1. b\n\n```\ncode\n```\n\n---\n\n| h |\n|---|\n| v |\n\n> quoted 中文文本\n";
    LinkRecorder cb;
    for (int frame = 0; frame < 3; ++frame) draw_frame(md, cb);
    // The one link was drawn, as a visible piece of text with its target.
    ASSERT_EQ(cb.drawn.size(), 1u);
    EXPECT_EQ(cb.drawn[0].text, "a link");
    EXPECT_EQ(cb.drawn[0].url, "https://example.com");
    EXPECT_GT(cb.drawn[0].max.x, cb.drawn[0].min.x);
    EXPECT_GT(cb.drawn[0].max.y, cb.drawn[0].min.y);
    EXPECT_TRUE(cb.opened.empty());  // nothing clicked, nothing opened
}

TEST(Markdown, ClickingALinkReportsItsUrlAndClickingTextDoesNot) {
    HeadlessImGui imgui;
    const std::string md = "Read [the guide](https://docs.nvidia.com/cuda/) or [the samples](https://github.com/NVIDIA/cuda-samples).\n";
    LinkRecorder cb;
    draw_frame(md, cb);
    draw_frame(md, cb);
    ASSERT_EQ(cb.drawn.size(), 2u);
    EXPECT_EQ(cb.drawn[0].text, "the guide");
    EXPECT_EQ(cb.drawn[0].url, "https://docs.nvidia.com/cuda/");
    EXPECT_EQ(cb.drawn[1].text, "the samples");
    EXPECT_EQ(cb.drawn[1].url, "https://github.com/NVIDIA/cuda-samples");
    const LinkRecorder::Piece guide = cb.drawn[0], samples = cb.drawn[1];

    // "Read" lies left of the first link on the same line: plain text opens nothing.
    click_at(md, cb, {guide.min.x - 12.0f, centre(guide).y});
    EXPECT_TRUE(cb.opened.empty());

    click_at(md, cb, centre(samples));
    EXPECT_EQ(cb.opened, std::vector<std::string>{"https://github.com/NVIDIA/cuda-samples"});

    cb.opened.clear();
    click_at(md, cb, centre(guide));
    EXPECT_EQ(cb.opened, std::vector<std::string>{"https://docs.nvidia.com/cuda/"});

    // Hovering alone opens nothing.
    cb.opened.clear();
    for (int frame = 0; frame < 3; ++frame) draw_frame(md, cb, centre(guide), false);
    EXPECT_TRUE(cb.opened.empty());
}

TEST(Markdown, ALinkWrappedOverTwoLinesIsClickableOnBoth) {
    HeadlessImGui imgui;
    const std::string md =
        "Start [a link whose words run well past the width of one line of this narrow window]"
        "(https://example.com/wrapped) end.\n";
    LinkRecorder cb;
    draw_frame(md, cb);
    draw_frame(md, cb);
    ASSERT_GE(cb.drawn.size(), 2u);
    std::string text;
    for (const auto& p : cb.drawn) {
        EXPECT_EQ(p.url, "https://example.com/wrapped");
        text += (text.empty() ? "" : " ") + p.text;
    }
    EXPECT_EQ(text, "a link whose words run well past the width of one line of this narrow window");
    EXPECT_GT(cb.drawn.back().min.y, cb.drawn.front().min.y);  // on a later line
    const auto last = cb.drawn.back();
    click_at(md, cb, centre(last));
    EXPECT_EQ(cb.opened, std::vector<std::string>{"https://example.com/wrapped"});
}

}  // namespace
}  // namespace wb::app
