// app/widgets/markdown.cpp — md4c callbacks build MdBlocks; an inline flow lays them out in ImGui.
//
// [SECTION] parse: md4c enter/leave/text callbacks -> flat MdBlock list
// [SECTION] wrap: UTF-8 segmentation and CJK-aware line breaking
// [SECTION] draw: headings, paragraphs, lists, code, links, tables
#include "palette.hpp"
#include "widgets/markdown.hpp"

#include <imgui.h>
#include <md4c.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <list>
#include <utility>

namespace wb::app {

// ---------------------------------------------------------------------------
// [SECTION] parse
// ---------------------------------------------------------------------------
namespace {

struct ListFrame {
    bool ordered = false;
    int next_number = 1;
};

struct Parser {
    std::vector<MdBlock> blocks;
    std::vector<ListFrame> lists;
    int quote_depth = 0;
    int strong = 0, em = 0, code = 0, strike = 0;
    std::vector<std::string> links;  // innermost last
    bool in_code_block = false;
    bool in_table = false, in_thead = false, in_cell = false;
    // The block that inline text goes to; -1 when none is open (e.g. between
    // a list item's nested list and its end, md4c sends no text).
    int current = -1;
    bool item_has_text = false;  // the open ListItem block has not been used by a paragraph yet

    MdBlock& open(MdBlockKind kind) {
        MdBlock b;
        b.kind = kind;
        b.list_depth = static_cast<int>(lists.size());
        b.quote_depth = quote_depth;
        blocks.push_back(std::move(b));
        current = static_cast<int>(blocks.size()) - 1;
        return blocks.back();
    }

    std::vector<MdSpan>* target() {
        if (current < 0) return nullptr;
        MdBlock& b = blocks[static_cast<std::size_t>(current)];
        if (b.kind == MdBlockKind::TableRow) {
            if (!in_cell) return nullptr;
            if (b.cells.empty()) b.cells.emplace_back();
            return &b.cells.back();
        }
        return &b.spans;
    }

    void add_text(std::string_view text) {
        std::vector<MdSpan>* spans = target();
        if (!spans) return;
        MdSpan s;
        s.strong = strong > 0;
        s.em = em > 0;
        s.code = code > 0;
        s.strike = strike > 0;
        if (!links.empty()) s.link = links.back();
        // Runs of one style arrive in pieces (entities, soft breaks); join them.
        if (!spans->empty()) {
            MdSpan& last = spans->back();
            if (!last.line_break && last.strong == s.strong && last.em == s.em && last.code == s.code &&
                last.strike == s.strike && last.link == s.link) {
                last.text.append(text);
                return;
            }
        }
        s.text.assign(text);
        spans->push_back(std::move(s));
    }

    void add_break() {
        if (std::vector<MdSpan>* spans = target()) {
            MdSpan s;
            s.line_break = true;
            spans->push_back(std::move(s));
        }
    }
};

std::string attribute_text(const MD_ATTRIBUTE& a) {
    return a.text ? std::string(a.text, a.size) : std::string();
}

// Enough of the HTML entity set for lesson text; others stay as written.
std::string decode_entity(std::string_view e) {
    if (e == "&amp;") return "&";
    if (e == "&lt;") return "<";
    if (e == "&gt;") return ">";
    if (e == "&quot;") return "\"";
    if (e == "&apos;" || e == "&#39;") return "'";
    if (e == "&nbsp;") return " ";
    if (e.size() > 3 && e[1] == '#') {
        unsigned long cp = 0;
        try {
            cp = (e[2] == 'x' || e[2] == 'X') ? std::stoul(std::string(e.substr(3, e.size() - 4)), nullptr, 16)
                                               : std::stoul(std::string(e.substr(2, e.size() - 3)), nullptr, 10);
        } catch (...) {
            return std::string(e);
        }
        std::string out;
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
        return out;
    }
    return std::string(e);
}

int enter_block(MD_BLOCKTYPE type, void* detail, void* user) {
    auto& p = *static_cast<Parser*>(user);
    switch (type) {
    case MD_BLOCK_QUOTE: ++p.quote_depth; break;
    case MD_BLOCK_UL: p.lists.push_back({false, 1}); p.current = -1; break;
    case MD_BLOCK_OL: {
        auto* d = static_cast<MD_BLOCK_OL_DETAIL*>(detail);
        p.lists.push_back({true, static_cast<int>(d->start)});
        p.current = -1;
        break;
    }
    case MD_BLOCK_LI: {
        MdBlock& b = p.open(MdBlockKind::ListItem);
        if (!p.lists.empty()) {
            b.ordered = p.lists.back().ordered;
            if (b.ordered) b.number = p.lists.back().next_number++;
        }
        p.item_has_text = false;
        break;
    }
    case MD_BLOCK_HR: p.open(MdBlockKind::Rule); p.current = -1; break;
    case MD_BLOCK_H: {
        MdBlock& b = p.open(MdBlockKind::Heading);
        b.level = static_cast<int>(static_cast<MD_BLOCK_H_DETAIL*>(detail)->level);
        break;
    }
    case MD_BLOCK_CODE: {
        MdBlock& b = p.open(MdBlockKind::Code);
        auto* d = static_cast<MD_BLOCK_CODE_DETAIL*>(detail);
        b.code_lang = attribute_text(d->lang);
        p.in_code_block = true;
        break;
    }
    case MD_BLOCK_P: {
        // A loose list item wraps its text in <p>: the first paragraph fills
        // the item's own block, later ones continue under it.
        if (p.current >= 0 && p.blocks[static_cast<std::size_t>(p.current)].kind == MdBlockKind::ListItem &&
            !p.item_has_text) {
            p.item_has_text = true;
            break;
        }
        p.open(MdBlockKind::Paragraph);
        break;
    }
    case MD_BLOCK_TABLE: p.in_table = true; break;
    case MD_BLOCK_THEAD: p.in_thead = true; break;
    case MD_BLOCK_TR: {
        MdBlock& b = p.open(MdBlockKind::TableRow);
        b.header_row = p.in_thead;
        break;
    }
    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
        if (p.current >= 0) p.blocks[static_cast<std::size_t>(p.current)].cells.emplace_back();
        p.in_cell = true;
        break;
    default: break;
    }
    return 0;
}

int leave_block(MD_BLOCKTYPE type, void* /*detail*/, void* user) {
    auto& p = *static_cast<Parser*>(user);
    switch (type) {
    case MD_BLOCK_QUOTE: --p.quote_depth; break;
    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
        if (!p.lists.empty()) p.lists.pop_back();
        p.current = -1;
        break;
    case MD_BLOCK_CODE: p.in_code_block = false; p.current = -1; break;
    case MD_BLOCK_LI:
    case MD_BLOCK_H:
    case MD_BLOCK_P:
    case MD_BLOCK_TR: p.current = -1; break;
    case MD_BLOCK_THEAD: p.in_thead = false; break;
    case MD_BLOCK_TABLE: p.in_table = false; break;
    case MD_BLOCK_TH:
    case MD_BLOCK_TD: p.in_cell = false; break;
    default: break;
    }
    return 0;
}

int enter_span(MD_SPANTYPE type, void* detail, void* user) {
    auto& p = *static_cast<Parser*>(user);
    switch (type) {
    case MD_SPAN_EM: ++p.em; break;
    case MD_SPAN_STRONG: ++p.strong; break;
    case MD_SPAN_CODE: ++p.code; break;
    case MD_SPAN_DEL: ++p.strike; break;
    case MD_SPAN_A: p.links.push_back(attribute_text(static_cast<MD_SPAN_A_DETAIL*>(detail)->href)); break;
    case MD_SPAN_IMG:
        // Images are not drawn; their alt text reads in their place, linked to the file.
        p.links.push_back(attribute_text(static_cast<MD_SPAN_IMG_DETAIL*>(detail)->src));
        break;
    default: break;
    }
    return 0;
}

int leave_span(MD_SPANTYPE type, void* /*detail*/, void* user) {
    auto& p = *static_cast<Parser*>(user);
    switch (type) {
    case MD_SPAN_EM: --p.em; break;
    case MD_SPAN_STRONG: --p.strong; break;
    case MD_SPAN_CODE: --p.code; break;
    case MD_SPAN_DEL: --p.strike; break;
    case MD_SPAN_A:
    case MD_SPAN_IMG:
        if (!p.links.empty()) p.links.pop_back();
        break;
    default: break;
    }
    return 0;
}

int text_cb(MD_TEXTTYPE type, const MD_CHAR* text, MD_SIZE size, void* user) {
    auto& p = *static_cast<Parser*>(user);
    std::string_view t(text, size);
    if (p.in_code_block) {
        if (p.current >= 0) p.blocks[static_cast<std::size_t>(p.current)].code.append(t);
        return 0;
    }
    switch (type) {
    case MD_TEXT_BR: p.add_break(); break;
    case MD_TEXT_SOFTBR: p.add_text(" "); break;
    case MD_TEXT_NULLCHAR: p.add_text("\xEF\xBF\xBD"); break;
    case MD_TEXT_ENTITY: p.add_text(decode_entity(t)); break;
    default: p.add_text(t); break;
    }
    return 0;
}

}  // namespace

std::vector<MdBlock> parse_markdown(const std::string& markdown) {
    Parser p;
    MD_PARSER parser{};
    parser.abi_version = 0;
    parser.flags = MD_DIALECT_GITHUB | MD_FLAG_NOHTML;
    parser.enter_block = enter_block;
    parser.leave_block = leave_block;
    parser.enter_span = enter_span;
    parser.leave_span = leave_span;
    parser.text = text_cb;
    md_parse(markdown.data(), static_cast<MD_SIZE>(markdown.size()), &parser, &p);
    // A tight list item whose only content is a nested list has no text of its
    // own: keep it (it draws its bullet) — that is what the author wrote.
    return std::move(p.blocks);
}

// ---------------------------------------------------------------------------
// [SECTION] wrap
// ---------------------------------------------------------------------------
namespace {

// Length of the UTF-8 sequence starting at s[i] (1 for bytes that do not start one).
std::size_t utf8_len(std::string_view s, std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
    return std::min(n, s.size() - i);
}

uint32_t utf8_decode(std::string_view s, std::size_t i, std::size_t n) {
    const auto b = [&](std::size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(s[i + k])); };
    switch (n) {
    case 2: return ((b(0) & 0x1F) << 6) | (b(1) & 0x3F);
    case 3: return ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
    case 4: return ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
    default: return b(0);
    }
}

// Characters a line may break before and after: CJK ideographs, kana,
// Hangul, and full-width forms and punctuation.
bool is_cjk(uint32_t cp) {
    return (cp >= 0x2E80 && cp <= 0x9FFF) || (cp >= 0xA960 && cp <= 0xA97F) || (cp >= 0xAC00 && cp <= 0xD7FF) ||
           (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFFEF) ||
           (cp >= 0x20000 && cp <= 0x2FFFF);
}

// Closing punctuation never starts a line (kinsoku): it stays with the character before it.
bool is_closing_punct(uint32_t cp) {
    switch (cp) {
    case 0x3001: case 0x3002: case 0xFF0C: case 0xFF0E: case 0xFF1A: case 0xFF1B: case 0xFF1F: case 0xFF01:
    case 0xFF09: case 0x300D: case 0x300F: case 0x300B: case 0x3009: case 0x3011: case 0x201D: case 0x2019:
    case 0x2026: case 0x30FC:
        return true;
    default: return cp == ',' || cp == '.' || cp == ';' || cp == ':' || cp == '!' || cp == '?' || cp == ')';
    }
}

// One unbreakable piece: [begin, end) holds its characters, [end, end_space)
// the spaces after it (which may hang past the right edge).
struct Segment {
    std::size_t begin, end, end_space;
};

std::vector<Segment> segments(std::string_view s) {
    std::vector<Segment> out;
    std::size_t i = 0;
    const auto skip_spaces = [&](std::size_t j) {
        while (j < s.size() && (s[j] == ' ' || s[j] == '\t')) ++j;
        return j;
    };
    const auto take_closers = [&](std::size_t j) {
        while (j < s.size()) {
            const std::size_t n = utf8_len(s, j);
            if (!is_closing_punct(utf8_decode(s, j, n))) break;
            j += n;
        }
        return j;
    };
    i = skip_spaces(0);
    if (i > 0) out.push_back({0, 0, i});  // leading spaces: a segment of nothing that hangs
    while (i < s.size()) {
        const std::size_t begin = i;
        std::size_t n = utf8_len(s, i);
        if (is_cjk(utf8_decode(s, i, n))) {
            i = take_closers(i + n);
        } else {
            while (i < s.size() && s[i] != ' ' && s[i] != '\t') {
                n = utf8_len(s, i);
                if (is_cjk(utf8_decode(s, i, n))) {
                    // A CJK closer right after a Latin word stays with it.
                    if (is_closing_punct(utf8_decode(s, i, n))) { i = take_closers(i); }
                    break;
                }
                i += n;
            }
        }
        const std::size_t end = i;
        i = skip_spaces(i);
        out.push_back({begin, end, i});
    }
    return out;
}

float measure(const ImFont* font, float size, std::string_view s) {
    if (s.empty()) return 0.0f;
    return font->CalcTextSizeA(size, 1e9f, 0.0f, s.data(), s.data() + s.size()).x;
}

}  // namespace

std::vector<std::string> wrap_text(const ImFont* font, float font_size, std::string_view text, float width,
                                   float first_line_x) {
    std::vector<std::string> lines;
    if (!font) {
        lines.emplace_back(text);
        return lines;
    }
    const float size = font_size > 0 ? font_size : font->FontSize;
    width = std::max(width, 1.0f);
    std::string line;
    float x = first_line_x;
    bool line_has_text = false;
    std::string pending_space;  // spaces after the last segment, written only if more follows on the line
    const auto end_line = [&] {
        lines.push_back(line);
        line.clear();
        pending_space.clear();
        x = 0;
        line_has_text = false;
    };
    for (const Segment& seg : segments(text)) {
        const std::string_view word = text.substr(seg.begin, seg.end - seg.begin);
        const std::string_view space = text.substr(seg.end, seg.end_space - seg.end);
        const float space_w = measure(font, size, pending_space);
        float w = measure(font, size, word);
        if (line_has_text && x + space_w + w > width) end_line();
        else if (!line_has_text && x > 0 && x + w > width && w <= width) end_line();  // does not fit after earlier text
        if (line_has_text) {
            line += pending_space;
            x += space_w;
        }
        if (x + w > width) {
            // Wider than a whole line: cut it between characters.
            std::size_t i = 0;
            while (i < word.size()) {
                const std::size_t n = utf8_len(word, i);
                const float cw = measure(font, size, word.substr(i, n));
                if (x + cw > width && (line_has_text || x > 0)) end_line();
                line.append(word.substr(i, n));
                x += cw;
                line_has_text = true;
                i += n;
            }
        } else if (!word.empty()) {
            line.append(word);
            x += w;
            line_has_text = true;
        }
        pending_space.assign(space);
    }
    if (line_has_text || lines.empty()) lines.push_back(line);
    return lines;
}

// ---------------------------------------------------------------------------
// [SECTION] draw
// ---------------------------------------------------------------------------
namespace {

constexpr float kBulletIndent = 18.0f;  // hanging indent per list level, in pixels at scale 1
constexpr float kQuoteIndent = 14.0f;

ImU32 link_colour() { return palette::theme().link.u32(); }
ImU32 em_colour() { return palette::theme().emphasis.u32(); }
ImU32 code_bg_colour() { return palette::theme().code_background.u32(); }

ImFont* or_current(ImFont* f) { return f ? f : ImGui::GetFont(); }

// Lays inline spans out left to right, wrapping at the content width. Each
// piece of text is one ImGui item so links can be hovered and clicked.
class InlineFlow {
public:
    InlineFlow(const MarkdownFonts& fonts, MarkdownCallbacks* cb, ImFont* base) : fonts_(fonts), cb_(cb), base_(base) {
        width_ = std::max(ImGui::GetContentRegionAvail().x, 40.0f);
    }

    void add(const MdSpan& span) {
        if (span.line_break) {
            on_line_ = false;
            x_ = 0;
            gap_ = 0;
            if (!emitted_any_) ImGui::NewLine();
            return;
        }
        ImFont* font = base_;
        if (span.code) font = or_current(fonts_.mono);
        else if (span.strong) font = or_current(fonts_.bold);
        const float size = font->FontSize;
        std::string_view text = span.text;
        const std::size_t lead = text.find_first_not_of(' ');
        if (lead == std::string_view::npos) {  // only spaces: a gap before whatever follows
            if (on_line_) gap_ = std::max(gap_, space_width(font));
            return;
        }
        if (lead > 0 && on_line_) gap_ = std::max(gap_, space_width(font));
        text.remove_prefix(lead);
        const std::size_t last = text.find_last_not_of(' ');
        const bool trailing_space = last + 1 < text.size();
        text = text.substr(0, last + 1);

        const float code_pad = span.code ? 3.0f : 0.0f;
        const std::vector<std::string> lines =
            wrap_text(font, size, text, width_ - 2 * code_pad, on_line_ ? x_ + gap_ + code_pad : 0.0f);
        ImGui::PushFont(font);
        for (std::size_t i = 0; i < lines.size(); ++i) {
            if (i > 0) {  // wrapped: the next piece starts a new line
                on_line_ = false;
                x_ = 0;
                gap_ = 0;
            }
            if (lines[i].empty()) continue;
            if (on_line_) ImGui::SameLine(0.0f, gap_ + code_pad);
            else if (code_pad > 0) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + code_pad);
            emit(lines[i], span, font);
            x_ += (on_line_ ? gap_ : 0.0f) + code_pad + ImGui::GetItemRectSize().x + code_pad;
            on_line_ = true;
            gap_ = code_pad;
        }
        ImGui::PopFont();
        if (trailing_space) gap_ = std::max(gap_, space_width(font));
    }

private:
    static float space_width(ImFont* font) { return font->CalcTextSizeA(font->FontSize, 1e9f, 0, " ").x; }

    void emit(const std::string& text, const MdSpan& span, ImFont* font) {
        emitted_any_ = true;
        const ImVec2 pos = ImGui::GetCursorScreenPos();
        const ImVec2 size = font->CalcTextSizeA(font->FontSize, 1e9f, 0, text.c_str());
        ImDrawList* dl = ImGui::GetWindowDrawList();
        if (span.code) dl->AddRectFilled({pos.x - 3, pos.y - 1}, {pos.x + size.x + 3, pos.y + size.y + 1}, code_bg_colour(), 3.0f);
        const bool is_link = !span.link.empty();
        if (is_link) ImGui::PushStyleColor(ImGuiCol_Text, link_colour());
        else if (span.em) ImGui::PushStyleColor(ImGuiCol_Text, em_colour());
        ImGui::TextUnformatted(text.c_str());
        if (is_link || span.em) ImGui::PopStyleColor();
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        if (span.strike) dl->AddLine({a.x, (a.y + b.y) * 0.5f}, {b.x, (a.y + b.y) * 0.5f}, ImGui::GetColorU32(ImGuiCol_Text));
        if (is_link) {
            if (cb_) cb_->link_drawn(text, span.link, a.x, a.y, b.x, b.y);
            if (ImGui::IsItemHovered()) {
                dl->AddLine({a.x, b.y}, {b.x, b.y}, link_colour());
                ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
                ImGui::SetTooltip("%s", span.link.c_str());
            }
            if (ImGui::IsItemClicked(ImGuiMouseButton_Left) && cb_) cb_->open_link(span.link);
        }
    }

    const MarkdownFonts& fonts_;
    MarkdownCallbacks* cb_;
    ImFont* base_;
    float width_ = 0;
    float x_ = 0;      // pixels used on the current line
    float gap_ = 0;    // space owed before the next piece on this line
    bool on_line_ = false;
    bool emitted_any_ = false;
};

void draw_spans(const std::vector<MdSpan>& spans, const MarkdownFonts& fonts, MarkdownCallbacks* cb, ImFont* base) {
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, {0.0f, ImGui::GetStyle().ItemSpacing.y * 0.5f});
    InlineFlow flow(fonts, cb, base);
    for (const MdSpan& s : spans) flow.add(s);
    ImGui::PopStyleVar();
}

void draw_code_block(const MdBlock& b, const MarkdownFonts& fonts) {
    ImFont* mono = or_current(fonts.mono);
    std::string code = b.code;
    while (!code.empty() && code.back() == '\n') code.pop_back();
    const float pad = 6.0f;
    const ImVec2 text = mono->CalcTextSizeA(mono->FontSize, 1e9f, 0, code.c_str());
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const float w = std::max(ImGui::GetContentRegionAvail().x, text.x + 2 * pad);
    ImGui::GetWindowDrawList()->AddRectFilled(pos, {pos.x + w, pos.y + text.y + 2 * pad}, code_bg_colour(), 4.0f);
    ImGui::SetCursorScreenPos({pos.x + pad, pos.y + pad});
    ImGui::PushFont(mono);
    ImGui::TextUnformatted(code.c_str(), code.c_str() + code.size());
    ImGui::PopFont();
    ImGui::SetCursorScreenPos({pos.x, pos.y + text.y + 2 * pad});
    ImGui::Dummy({w, 0.0f});
}

// Draws the table rows blocks[first, last) as one ImGui table.
void draw_table(const std::vector<MdBlock>& blocks, std::size_t first, std::size_t last, const MarkdownFonts& fonts,
                MarkdownCallbacks* cb, int id) {
    std::size_t columns = 1;
    for (std::size_t i = first; i < last; ++i) columns = std::max(columns, blocks[i].cells.size());
    ImGui::PushID(id);
    if (ImGui::BeginTable("##md_table", static_cast<int>(std::min<std::size_t>(columns, 64)),
                          ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchProp)) {
        for (std::size_t i = first; i < last; ++i) {
            ImGui::TableNextRow(blocks[i].header_row ? ImGuiTableRowFlags_Headers : 0);
            for (std::size_t c = 0; c < blocks[i].cells.size() && c < 64; ++c) {
                ImGui::TableSetColumnIndex(static_cast<int>(c));
                draw_spans(blocks[i].cells[c], fonts,
                           cb, blocks[i].header_row ? or_current(fonts.bold) : or_current(fonts.regular));
            }
        }
        ImGui::EndTable();
    }
    ImGui::PopID();
}

}  // namespace

void draw_markdown_blocks(const std::vector<MdBlock>& blocks, const MarkdownFonts& fonts, MarkdownCallbacks* cb) {
    ImFont* regular = or_current(fonts.regular);
    ImGui::PushID(&blocks);
    ImGui::PushFont(regular);
    const float block_gap = ImGui::GetTextLineHeight() * 0.4f;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const MdBlock& b = blocks[i];
        ImGui::PushID(static_cast<int>(i));
        const float indent = b.quote_depth * kQuoteIndent + b.list_depth * kBulletIndent;
        if (indent > 0) ImGui::Indent(indent);
        const ImVec2 block_start = ImGui::GetCursorScreenPos();
        switch (b.kind) {
        case MdBlockKind::Heading: {
            if (i > 0) ImGui::Dummy({0, block_gap});
            ImFont* f = b.level <= 2 ? or_current(fonts.heading) : or_current(fonts.bold);
            draw_spans(b.spans, fonts, cb, f);
            if (b.level <= 2) ImGui::Separator();
            break;
        }
        case MdBlockKind::Paragraph: draw_spans(b.spans, fonts, cb, regular); break;
        case MdBlockKind::ListItem: {
            // The marker hangs in the indent, so wrapped lines align with the text.
            const ImVec2 p = ImGui::GetCursorScreenPos();
            ImDrawList* dl = ImGui::GetWindowDrawList();
            const float h = ImGui::GetTextLineHeight();
            if (b.ordered) {
                char num[16];
                std::snprintf(num, sizeof num, "%d.", b.number);
                const float w = ImGui::CalcTextSize(num).x;
                dl->AddText({p.x - w - 4.0f, p.y}, ImGui::GetColorU32(ImGuiCol_Text), num);
            } else {
                const float r = h * (b.list_depth > 1 ? 0.14f : 0.18f);
                const ImVec2 c{p.x - kBulletIndent * 0.5f, p.y + h * 0.5f};
                if (b.list_depth > 1) dl->AddCircle(c, r, ImGui::GetColorU32(ImGuiCol_Text));
                else dl->AddCircleFilled(c, r, ImGui::GetColorU32(ImGuiCol_Text));
            }
            if (b.spans.empty()) ImGui::NewLine();
            else draw_spans(b.spans, fonts, cb, regular);
            break;
        }
        case MdBlockKind::Code: draw_code_block(b, fonts); break;
        case MdBlockKind::Rule: ImGui::Separator(); break;
        case MdBlockKind::TableRow: {
            std::size_t last = i;
            while (last < blocks.size() && blocks[last].kind == MdBlockKind::TableRow) ++last;
            draw_table(blocks, i, last, fonts, cb, static_cast<int>(i));
            ImGui::PopID();
            ImGui::PushID(static_cast<int>(last - 1));
            i = last - 1;
            break;
        }
        }
        if (b.quote_depth > 0) {
            const ImVec2 end = ImGui::GetCursorScreenPos();
            const float x = block_start.x - indent + kQuoteIndent * 0.3f;
            ImGui::GetWindowDrawList()->AddLine({x, block_start.y}, {x, end.y}, ImGui::GetColorU32(ImGuiCol_Border), 3.0f);
        }
        if (indent > 0) ImGui::Unindent(indent);
        // Items in a tight list sit close; other blocks get a paragraph gap.
        const bool next_is_item = i + 1 < blocks.size() && blocks[i + 1].kind == MdBlockKind::ListItem;
        if (!(b.kind == MdBlockKind::ListItem && next_is_item)) ImGui::Dummy({0, block_gap});
        ImGui::PopID();
    }
    ImGui::PopFont();
    ImGui::PopID();
}

void draw_markdown(const std::string& markdown, const MarkdownFonts& fonts, MarkdownCallbacks* cb) {
    // Instructions are redrawn every frame but change rarely: keep the last
    // few parses (one per panel showing Markdown is typical).
    struct Entry {
        std::string text;
        std::vector<MdBlock> blocks;
    };
    static std::list<Entry> cache;
    auto it = std::find_if(cache.begin(), cache.end(), [&](const Entry& e) { return e.text == markdown; });
    if (it == cache.end()) {
        cache.push_front({markdown, parse_markdown(markdown)});
        if (cache.size() > 8) cache.pop_back();
        it = cache.begin();
    } else if (it != cache.begin()) {
        cache.splice(cache.begin(), cache, it);
        it = cache.begin();
    }
    draw_markdown_blocks(it->blocks, fonts, cb);
}

}  // namespace wb::app
