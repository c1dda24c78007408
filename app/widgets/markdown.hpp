// app/widgets/markdown.hpp — lesson instructions: Markdown parsed with md4c, drawn with Dear ImGui.
//
// Two halves on purpose. parse_markdown() turns the text into a flat list of
// blocks (headings, paragraphs, list items with their nesting depth, code
// blocks, rules, table rows), each holding styled spans; it needs no ImGui
// context, so tests assert the structure directly. draw_markdown() lays those
// blocks out in the current window. ImGui 1.86 wraps only at spaces, which
// leaves Chinese paragraphs as one overlong line, so line breaking is ours
// (wrap_text): we break between words and between CJK characters, keeping
// closing punctuation such as "，" and "。" on the line before it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

struct ImFont;

namespace wb::app {

// Any of these may be null; a null font falls back to the current font.
struct MarkdownFonts {
    ImFont* regular = nullptr;
    ImFont* bold = nullptr;
    ImFont* heading = nullptr;
    ImFont* mono = nullptr;
};

// What the renderer asks of its host. The default opens nothing: a lesson
// link leaves the app only when the host decides it should.
struct MarkdownCallbacks {
    virtual ~MarkdownCallbacks() = default;
    virtual void open_link(const std::string& url) { (void)url; }
    // Each piece of link text as it is drawn: its text, target and screen
    // rectangle (a link wrapped over two lines is two pieces). Nothing needs
    // it to draw; the widget tests use it to find a link and click it.
    virtual void link_drawn(const std::string& text, const std::string& url, float x0, float y0, float x1, float y1) {
        (void)text, (void)url, (void)x0, (void)y0, (void)x1, (void)y1;
    }
};

// One run of inline text with one style.
struct MdSpan {
    std::string text;
    bool strong = false;
    bool em = false;
    bool code = false;         // `inline code`
    bool strike = false;       // ~~deleted~~
    bool line_break = false;   // a hard break (two spaces / backslash before a newline); text is empty
    std::string link;          // target URL when inside [text](url), else empty
};

enum class MdBlockKind { Heading, Paragraph, ListItem, Code, Rule, TableRow };

struct MdBlock {
    MdBlockKind kind = MdBlockKind::Paragraph;
    int level = 0;            // Heading: 1..6
    int list_depth = 0;       // 0 outside lists; 1 for a top-level item, 2 for an item nested in it ...
    bool ordered = false;     // ListItem: numbered list
    int number = 0;           // ListItem in an ordered list: its number
    int quote_depth = 0;      // > block quote nesting
    bool header_row = false;  // TableRow: the table's header
    std::string code;         // Code: the block's text, newline-terminated lines
    std::string code_lang;    // Code: the fence's info word ("cuda", "cpp", ...)
    std::vector<MdSpan> spans;                // Heading / Paragraph / ListItem
    std::vector<std::vector<MdSpan>> cells;   // TableRow
};

// Never throws for any input; text md4c cannot parse comes back as far as it got.
std::vector<MdBlock> parse_markdown(const std::string& markdown);

// Breaks `text` into lines no wider than `width` pixels in `font` at
// `font_size` (0 = the font's own size). Breaks at spaces and between CJK
// characters; a word wider than the line is cut between characters. The
// first line may start `first_line_x` pixels in (text flowing after other
// text). Lines carry no trailing spaces. Needs a built font, not a frame.
std::vector<std::string> wrap_text(const ImFont* font, float font_size, std::string_view text, float width,
                                   float first_line_x = 0.0f);

// Draws the document in the current ImGui window at its content width.
void draw_markdown(const std::string& markdown, const MarkdownFonts& fonts, MarkdownCallbacks* callbacks = nullptr);

// The same for text already parsed (parse once, draw every frame).
void draw_markdown_blocks(const std::vector<MdBlock>& blocks, const MarkdownFonts& fonts,
                          MarkdownCallbacks* callbacks = nullptr);

}  // namespace wb::app
