// app/widgets/code_editor.cpp — the kernel editor's text model and its ImGui drawing.
//
// [SECTION] helpers   — UTF-8 stepping, case-insensitive search, palette
// [SECTION] text      — set_text/text, positions, raw insert/erase
// [SECTION] caret     — movement and selection
// [SECTION] editing   — typed text, Enter, Backspace/Delete, Tab, clipboard
// [SECTION] history   — snapshot undo/redo
// [SECTION] find, markers, tokens
// [SECTION] drawing   — keys, mouse, find bar, painting
//
// Undo keeps whole-text snapshots: kernels are a few kilobytes, so a snapshot per edit is
// cheap and makes undo trivially right, which matters more here than memory.
#include "widgets/code_editor.hpp"

#include "palette.hpp"
#include "widgets/keys.hpp"
#include "widgets/widget_text.hpp"

#include <imgui.h>

#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace wb::app {
namespace {

constexpr std::size_t kMaxUndo = 1000;
const std::string kIndent(CodeEditor::kTabWidth, ' ');

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }
bool is_word(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
           static_cast<unsigned char>(c) >= 0x80;
}
bool is_blank(char c) { return c == ' ' || c == '\t'; }

int leading_blanks(const std::string& s) {
    int n = 0;
    while (n < static_cast<int>(s.size()) && is_blank(s[n])) ++n;
    return n;
}

std::string lowercase(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

void append_utf8(std::string& out, unsigned int c) {
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

// Colours follow the current ImGui theme (light or dark; palette.hpp) so the editor needs no theme hook.
struct Palette {
    ImU32 token[10];
    ImU32 line_number, current_line_number, selection, find_match, caret, current_line;
    ImU32 severity[3];       // Error, Warning, Note: glyph and squiggle
    ImU32 severity_tint[3];  // line background
};

Palette palette_for_current_theme() {
    const palette::ThemeColours& t = palette::theme();
    static_assert(sizeof(Palette::token) / sizeof(ImU32) == std::tuple_size_v<decltype(palette::ThemeColours::token)>,
                  "one colour per TokenKind");
    Palette p{};
    for (std::size_t i = 0; i < t.token.size(); ++i) p.token[i] = t.token[i].u32();
    p.line_number = t.line_number.u32();
    p.current_line_number = t.current_line_number.u32();
    p.selection = t.selection.u32();
    p.find_match = t.find_match.u32();
    p.caret = t.caret.u32();
    p.current_line = t.current_line.u32();
    for (std::size_t i = 0; i < 3; ++i) {
        p.severity[i] = t.severity[i].u32();
        p.severity_tint[i] = t.severity_tint[i].u32();
    }
    return p;
}

const char* severity_name(EditorMarker::Severity s) {
    switch (s) {
        case EditorMarker::Error: return "error";
        case EditorMarker::Warning: return "warning";
        case EditorMarker::Note: return "note";
    }
    return "";
}

}  // namespace

// [SECTION] text ----------------------------------------------------------------------------

CodeEditor::CodeEditor() = default;

void CodeEditor::set_text(std::string text) {
    lines_.clear();
    std::string current;
    for (char c : text) {
        if (c == '\r') continue;  // CRLF files edit as LF
        if (c == '\n') {
            lines_.push_back(std::move(current));
            current.clear();
        } else {
            current += c;
        }
    }
    lines_.push_back(std::move(current));
    cursor_ = anchor_ = {};
    undo_.clear();
    redo_.clear();
    last_edit_ = EditKind::Other;
    preferred_x_ = -1;
    ++revision_;
}

const std::string& CodeEditor::text() const {
    if (text_cache_revision_ != revision_) {
        text_cache_.clear();
        for (std::size_t i = 0; i < lines_.size(); ++i) {
            if (i) text_cache_ += '\n';
            text_cache_ += lines_[i];
        }
        text_cache_revision_ = revision_;
    }
    return text_cache_;
}

TextPos CodeEditor::clamp(TextPos p) const {
    p.line = std::clamp(p.line, 0, line_count() - 1);
    const std::string& s = lines_[p.line];
    p.column = std::clamp(p.column, 0, static_cast<int>(s.size()));
    while (p.column > 0 && p.column < static_cast<int>(s.size()) && is_continuation(s[p.column]))
        --p.column;
    return p;
}

TextPos CodeEditor::insert_raw(TextPos at, std::string_view text) {
    std::string tail = lines_[at.line].substr(at.column);
    lines_[at.line].resize(at.column);
    TextPos end = at;
    std::size_t start = 0;
    while (true) {
        const std::size_t nl = text.find('\n', start);
        const std::string_view piece = text.substr(start, nl == std::string_view::npos
                                                              ? std::string_view::npos
                                                              : nl - start);
        lines_[end.line] += piece;
        end.column = static_cast<int>(lines_[end.line].size());
        if (nl == std::string_view::npos) break;
        lines_.insert(lines_.begin() + end.line + 1, std::string());
        ++end.line;
        start = nl + 1;
    }
    lines_[end.line] += tail;
    return end;
}

void CodeEditor::erase_range(TextPos a, TextPos b) {
    if (b < a) std::swap(a, b);
    if (a.line == b.line) {
        lines_[a.line].erase(a.column, b.column - a.column);
        return;
    }
    lines_[a.line] = lines_[a.line].substr(0, a.column) + lines_[b.line].substr(b.column);
    lines_.erase(lines_.begin() + a.line + 1, lines_.begin() + b.line + 1);
}

void CodeEditor::delete_selection_raw() {
    if (!has_selection()) return;
    const TextPos start = selection_start();
    erase_range(anchor_, cursor_);
    cursor_ = anchor_ = start;
}

// [SECTION] caret ---------------------------------------------------------------------------

void CodeEditor::note_cursor_moved() {
    last_edit_ = EditKind::Other;  // a typed word ends when the caret moves away
    scroll_to_cursor_ = true;
}

void CodeEditor::set_cursor(int line, int column, bool extend_selection) {
    cursor_ = clamp({line, column});
    if (!extend_selection) anchor_ = cursor_;
    preferred_x_ = -1;
    note_cursor_moved();
}

void CodeEditor::set_selection(TextPos anchor, TextPos cursor) {
    anchor_ = clamp(anchor);
    cursor_ = clamp(cursor);
    preferred_x_ = -1;
    note_cursor_moved();
}

std::string CodeEditor::selected_text() const {
    const TextPos a = selection_start(), b = selection_end();
    if (a.line == b.line) return lines_[a.line].substr(a.column, b.column - a.column);
    std::string out = lines_[a.line].substr(a.column);
    for (int i = a.line + 1; i < b.line; ++i) out += "\n" + lines_[i];
    return out + "\n" + lines_[b.line].substr(0, b.column);
}

bool CodeEditor::replace_all(std::string_view text) {
    if (read_only_) return false;
    std::string clean;
    clean.reserve(text.size());
    for (char c : text)
        if (c != '\r') clean += c;  // as set_text: CRLF files edit as LF
    select_all();
    const bool changed = insert_text(clean);
    set_cursor(0, 0);
    return changed;
}

void CodeEditor::select_all() {
    set_selection({0, 0}, {line_count() - 1, static_cast<int>(lines_.back().size())});
}

void CodeEditor::goto_line(int line) {
    set_cursor(line - 1, 0);
    center_on_cursor_ = true;
    focus_requested_ = true;
}

void CodeEditor::move_left(bool select, bool by_word) {
    TextPos p = cursor_;
    if (!select && has_selection() && !by_word) {
        p = selection_start();
    } else if (p.column == 0) {
        if (p.line > 0) p = {p.line - 1, static_cast<int>(lines_[p.line - 1].size())};
    } else {
        const std::string& s = lines_[p.line];
        if (by_word) {
            while (p.column > 0 && is_blank(s[p.column - 1])) --p.column;
            const bool word = p.column > 0 && is_word(s[p.column - 1]);
            while (p.column > 0 && !is_blank(s[p.column - 1]) && is_word(s[p.column - 1]) == word)
                --p.column;
        } else {
            do --p.column; while (p.column > 0 && is_continuation(s[p.column]));
        }
    }
    set_cursor(p.line, p.column, select);
}

void CodeEditor::move_right(bool select, bool by_word) {
    TextPos p = cursor_;
    const std::string& s = lines_[p.line];
    const int n = static_cast<int>(s.size());
    if (!select && has_selection() && !by_word) {
        p = selection_end();
    } else if (p.column >= n) {
        if (p.line + 1 < line_count()) p = {p.line + 1, 0};
    } else if (by_word) {
        const bool word = is_word(s[p.column]);
        while (p.column < n && !is_blank(s[p.column]) && is_word(s[p.column]) == word) ++p.column;
        while (p.column < n && is_blank(s[p.column])) ++p.column;
    } else {
        do ++p.column; while (p.column < n && is_continuation(s[p.column]));
    }
    set_cursor(p.line, p.column, select);
}

// Vertical moves keep a visual column (code points, tabs as 4) across short lines.
void CodeEditor::move_down(bool select, int count) {
    auto visual = [](const std::string& s, int col) {
        int x = 0;
        for (int i = 0; i < col; ++i)
            if (!is_continuation(s[i])) x += s[i] == '\t' ? kTabWidth : 1;
        return x;
    };
    const int x = preferred_x_ >= 0 ? preferred_x_ : visual(lines_[cursor_.line], cursor_.column);
    const int line = std::clamp(cursor_.line + count, 0, line_count() - 1);
    const std::string& s = lines_[line];
    int col = 0;
    while (col < static_cast<int>(s.size()) && visual(s, col + 1) <= x) {
        do ++col; while (col < static_cast<int>(s.size()) && is_continuation(s[col]));
    }
    // Down on the last line goes to its end, up on the first line to its start.
    if (count > 0 && line == cursor_.line) col = static_cast<int>(s.size());
    if (count < 0 && line == cursor_.line) col = 0;
    set_cursor(line, col, select);
    preferred_x_ = x;
}

void CodeEditor::move_up(bool select, int count) { move_down(select, -count); }

void CodeEditor::move_home(bool select) {
    const int first = leading_blanks(lines_[cursor_.line]);
    set_cursor(cursor_.line, cursor_.column == first ? 0 : first, select);
}

void CodeEditor::move_end(bool select) {
    set_cursor(cursor_.line, static_cast<int>(lines_[cursor_.line].size()), select);
}

// [SECTION] editing -------------------------------------------------------------------------

void CodeEditor::begin_edit(EditKind kind, char typed) {
    // Typed characters join the previous step while the caret stays where typing left it;
    // a blank after a non-blank starts a new step, so undo takes back one word at a time.
    const bool continues_typing = kind == EditKind::Typing && last_edit_ == EditKind::Typing &&
                                  !has_selection() && cursor_ == last_typed_end_;
    const bool word_break = continues_typing && is_blank(typed) && cursor_.column > 0 &&
                            !is_blank(lines_[cursor_.line][cursor_.column - 1]);
    if (!continues_typing || word_break) {
        undo_.push_back({lines_, anchor_, cursor_});
        if (undo_.size() > kMaxUndo) undo_.erase(undo_.begin());
    }
    redo_.clear();
    last_edit_ = kind;
}

void CodeEditor::finish_edit() {
    ++revision_;
    anchor_ = cursor_ = clamp(cursor_);
    last_typed_end_ = cursor_;
    preferred_x_ = -1;
    scroll_to_cursor_ = true;
}

bool CodeEditor::insert_text(std::string_view text) {
    if (read_only_) return false;
    begin_edit(EditKind::Other);
    delete_selection_raw();
    cursor_ = insert_raw(cursor_, text);
    finish_edit();
    return true;
}

bool CodeEditor::type_text(std::string_view text) {
    if (read_only_ || text.empty()) return false;
    begin_edit(EditKind::Typing, text.front());
    delete_selection_raw();
    // A '}' typed on a blank line closes a block: take one indent level back first.
    const std::string& s = lines_[cursor_.line];
    if (text == "}" && cursor_.column >= kTabWidth && leading_blanks(s) >= cursor_.column &&
        s.compare(cursor_.column - kTabWidth, kTabWidth, kIndent) == 0) {
        erase_range({cursor_.line, cursor_.column - kTabWidth}, cursor_);
        cursor_.column -= kTabWidth;
    }
    cursor_ = insert_raw(cursor_, text);
    finish_edit();
    return true;
}

bool CodeEditor::new_line() {
    if (read_only_) return false;
    begin_edit(EditKind::Other);
    delete_selection_raw();
    const std::string& s = lines_[cursor_.line];
    const std::string indent = s.substr(0, std::min(leading_blanks(s), cursor_.column));
    const auto before = s.find_last_not_of(" \t", cursor_.column ? cursor_.column - 1 : 0);
    const bool opens_block = cursor_.column > 0 && before != std::string::npos && s[before] == '{';
    const auto after = s.find_first_not_of(" \t", cursor_.column);
    const bool closes_block = after != std::string::npos && s[after] == '}';
    // Drop the blanks right after the caret: they would only push the next token right.
    erase_range(cursor_, {cursor_.line, after == std::string::npos ? static_cast<int>(s.size())
                                                                   : static_cast<int>(after)});
    if (opens_block && closes_block) {
        // "{|}" becomes a block with the caret on its own indented line.
        const TextPos inside = insert_raw(cursor_, "\n" + indent + kIndent);
        insert_raw(inside, "\n" + indent);
        cursor_ = inside;
    } else {
        cursor_ = insert_raw(cursor_, "\n" + indent + (opens_block ? kIndent : ""));
    }
    finish_edit();
    return true;
}

bool CodeEditor::delete_backward() {
    if (read_only_) return false;
    if (!has_selection() && cursor_ == TextPos{}) return false;
    begin_edit(EditKind::Other);
    const std::string& s = lines_[cursor_.line];
    if (!has_selection() && cursor_.column > 0 && leading_blanks(s) >= cursor_.column &&
        s.find('\t') >= static_cast<std::size_t>(cursor_.column)) {
        // In the indentation, Backspace takes back one Tab's worth of spaces.
        anchor_.column = (cursor_.column - 1) / kTabWidth * kTabWidth;
    } else if (!has_selection()) {
        move_left(true);
    }
    delete_selection_raw();
    finish_edit();
    return true;
}

bool CodeEditor::delete_forward() {
    if (read_only_) return false;
    const TextPos end{line_count() - 1, static_cast<int>(lines_.back().size())};
    if (!has_selection() && cursor_ == end) return false;
    begin_edit(EditKind::Other);
    if (!has_selection()) move_right(true);
    delete_selection_raw();
    finish_edit();
    return true;
}

bool CodeEditor::indent_selection() {
    if (read_only_) return false;
    if (!has_selection()) return insert_text(kIndent);
    const TextPos a = selection_start(), b = selection_end();
    begin_edit(EditKind::Other);
    // A selection ending at column 0 does not include that line.
    const int last = b.column == 0 ? b.line - 1 : b.line;
    for (int i = a.line; i <= last; ++i) {
        if (lines_[i].empty()) continue;
        lines_[i].insert(0, kIndent);
        if (anchor_.line == i && anchor_.column > 0) anchor_.column += kTabWidth;
        if (cursor_.line == i && cursor_.column > 0) cursor_.column += kTabWidth;
    }
    ++revision_;
    scroll_to_cursor_ = true;
    return true;
}

bool CodeEditor::unindent_selection() {
    if (read_only_) return false;
    const TextPos a = selection_start(), b = selection_end();
    const int last = (b.column == 0 && b.line > a.line) ? b.line - 1 : b.line;
    auto removable = [this](int i) {
        const std::string& s = lines_[i];
        if (!s.empty() && s[0] == '\t') return 1;
        return std::min(leading_blanks(s), kTabWidth);
    };
    bool any = false;
    for (int i = a.line; i <= last; ++i) any = any || removable(i) > 0;
    if (!any) return false;
    begin_edit(EditKind::Other);
    for (int i = a.line; i <= last; ++i) {
        const int k = removable(i);
        lines_[i].erase(0, k);
        if (anchor_.line == i) anchor_.column = std::max(0, anchor_.column - k);
        if (cursor_.line == i) cursor_.column = std::max(0, cursor_.column - k);
    }
    ++revision_;
    scroll_to_cursor_ = true;
    return true;
}

// Without a selection, copy and cut take the whole line, as most code editors do.
bool CodeEditor::copy() const {
    const std::string s = has_selection() ? selected_text() : lines_[cursor_.line] + "\n";
    ImGui::SetClipboardText(s.c_str());
    return true;
}

bool CodeEditor::cut() {
    if (read_only_) return false;
    copy();
    begin_edit(EditKind::Other);
    if (!has_selection()) {
        if (cursor_.line + 1 < line_count()) {
            anchor_ = {cursor_.line, 0};
            cursor_ = {cursor_.line + 1, 0};
        } else {
            anchor_ = {cursor_.line, 0};
            cursor_.column = static_cast<int>(lines_[cursor_.line].size());
        }
    }
    delete_selection_raw();
    finish_edit();
    return true;
}

bool CodeEditor::paste() {
    const char* clip = ImGui::GetClipboardText();
    if (!clip || !*clip) return false;
    std::string s(clip);
    std::erase(s, '\r');
    return insert_text(s);
}

// [SECTION] history -------------------------------------------------------------------------

bool CodeEditor::step_history(std::vector<Snapshot>& from, std::vector<Snapshot>& to) {
    if (read_only_ || from.empty()) return false;
    to.push_back({lines_, anchor_, cursor_});
    Snapshot s = std::move(from.back());
    from.pop_back();
    lines_ = std::move(s.lines);
    anchor_ = s.anchor;
    cursor_ = s.cursor;
    last_edit_ = EditKind::Other;
    preferred_x_ = -1;
    scroll_to_cursor_ = true;
    ++revision_;
    return true;
}

bool CodeEditor::undo() { return step_history(undo_, redo_); }
bool CodeEditor::redo() { return step_history(redo_, undo_); }

// [SECTION] find, markers, tokens -----------------------------------------------------------

bool CodeEditor::find_from(std::string_view query, TextPos from, bool forward) {
    find_query_ = std::string(query);
    if (query.empty()) return false;
    const std::string hay = lowercase(text());
    const std::string needle = lowercase(query);
    std::size_t offset = 0;
    for (int i = 0; i < from.line; ++i) offset += lines_[i].size() + 1;
    offset += from.column;
    std::size_t hit;
    if (forward) {
        hit = hay.find(needle, offset);
        if (hit == std::string::npos) hit = hay.find(needle);
    } else {
        hit = offset > 0 ? hay.rfind(needle, offset - 1) : std::string::npos;
        if (hit == std::string::npos) hit = hay.rfind(needle);
    }
    if (hit == std::string::npos) return false;
    auto to_pos = [this](std::size_t off) {
        TextPos p;
        while (off > lines_[p.line].size()) {
            off -= lines_[p.line].size() + 1;
            ++p.line;
        }
        p.column = static_cast<int>(off);
        return p;
    };
    set_selection(to_pos(hit), to_pos(hit + needle.size()));
    center_on_cursor_ = true;
    return true;
}

bool CodeEditor::find_next(std::string_view query) {
    return find_from(query, has_selection() ? selection_end() : cursor_, true);
}

bool CodeEditor::find_previous(std::string_view query) {
    return find_from(query, has_selection() ? selection_start() : cursor_, false);
}

void CodeEditor::open_find_bar() {
    find_open_ = true;
    find_focus_ = true;
    // Searching for the selected word is what the student almost always wants.
    if (has_selection() && selection_start().line == selection_end().line)
        find_query_ = selected_text();
}

void CodeEditor::set_markers(std::vector<EditorMarker> markers) { markers_ = std::move(markers); }

const EditorMarker* CodeEditor::marker_at(int line) const {
    const EditorMarker* best = nullptr;
    for (const EditorMarker& m : markers_)
        if (m.line == line && (!best || m.severity < best->severity)) best = &m;
    return best;
}

const GutterMark* CodeEditor::gutter_mark_at(int line) const {
    for (const GutterMark& m : gutter_marks_)
        if (m.line == line) return &m;
    return nullptr;
}

void CodeEditor::update_comment_state() const {
    if (comment_state_revision_ == revision_) return;
    starts_in_comment_.assign(lines_.size(), false);
    bool in_comment = false;
    for (std::size_t i = 0; i < lines_.size(); ++i) {
        starts_in_comment_[i] = in_comment;
        tokenize_cuda_line(lines_[i], in_comment);
    }
    comment_state_revision_ = revision_;
}

std::vector<SyntaxToken> CodeEditor::tokenize_line(int line) const {
    update_comment_state();
    bool in_comment = starts_in_comment_[line];
    return tokenize_cuda_line(lines_[line], in_comment);
}

// [SECTION] drawing -------------------------------------------------------------------------

void CodeEditor::handle_keyboard() {
    ImGuiIO& io = ImGui::GetIO();
    auto key = [](Key k) { return key_pressed(k); };
    const bool ctrl = io.KeyCtrl && !io.KeyAlt, shift = io.KeyShift;

    if (ctrl && key(Key::Z)) shift ? redo() : undo();
    else if (ctrl && key(Key::Y)) redo();
    else if (ctrl && key(Key::A)) select_all();
    else if (ctrl && key(Key::C)) copy();
    else if (ctrl && key(Key::X)) cut();
    else if (ctrl && key(Key::V)) paste();
    else if (key(Key::Left)) move_left(shift, io.KeyCtrl);
    else if (key(Key::Right)) move_right(shift, io.KeyCtrl);
    else if (key(Key::Up)) move_up(shift);
    else if (key(Key::Down)) move_down(shift);
    else if (key(Key::PageUp)) move_up(shift, page_lines_);
    else if (key(Key::PageDown)) move_down(shift, page_lines_);
    else if (key(Key::Home)) io.KeyCtrl ? set_cursor(0, 0, shift) : move_home(shift);
    else if (key(Key::End))
        io.KeyCtrl ? set_cursor(line_count() - 1, static_cast<int>(lines_.back().size()), shift)
                   : move_end(shift);
    else if (key(Key::Backspace)) delete_backward();
    else if (key(Key::Delete)) delete_forward();
    // Ctrl+Enter belongs to the app (compile and run), so only a plain Enter breaks the line.
    else if (!io.KeyCtrl && (key(Key::Enter) || key(Key::KeypadEnter))) new_line();
    else if (key(Key::Tab)) shift ? unindent_selection() : indent_selection();
    else if (key(Key::Escape)) find_open_ = false;

    // Typed characters; Ctrl+letter shortcuts produce none, AltGr (Ctrl+Alt) layouts do.
    if (!read_only_ && (!io.KeyCtrl || io.KeyAlt)) {
        for (ImWchar c : io.InputQueueCharacters) {
            if (c < 32 || c == 127 || (c >= 0xD800 && c <= 0xDFFF)) continue;
            std::string utf8;
            append_utf8(utf8, c);
            type_text(utf8);
        }
        io.InputQueueCharacters.resize(0);
    }
}

void CodeEditor::draw_find_bar() {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(widget_text().find);
    ImGui::SameLine();
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s", find_query_.c_str());
    if (find_focus_) {
        ImGui::SetKeyboardFocusHere();
        find_focus_ = false;
    }
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
    const bool enter =
        ImGui::InputText("##find", buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::IsItemEdited()) find_query_ = buf;
    // Escape leaves the find box (InputText deactivates itself on it): close and go back.
    if (ImGui::IsItemDeactivated() && key_pressed(Key::Escape)) {
        find_open_ = false;
        focus_requested_ = true;
    }
    if (enter) {
        find_next(find_query_);
        ImGui::SetKeyboardFocusHere(-1);  // keep typing in the find box after Enter
    }
    ImGui::SameLine();
    if (ImGui::ArrowButton("##prev", ImGuiDir_Up)) find_previous(find_query_);
    ImGui::SameLine();
    if (ImGui::ArrowButton("##next", ImGuiDir_Down)) find_next(find_query_);
    ImGui::SameLine();
    if (ImGui::Button("x")) {
        find_open_ = false;
        focus_requested_ = true;
    }
}

// Where things are this frame: measured once in draw() and shared by the painting helpers.
struct CodeEditor::Layout {
    ImFont* font = nullptr;
    float font_size = 0, line_h = 0, char_w = 0, gutter_w = 0, view_h = 0;
    float mark_w = 0;  // the gutter marks' column, right of the numbers (0 when there are none)
    ImVec2 win_pos, origin, text_origin;  // origin: content top-left, scrolled
    float win_right = 0;
    int first = 0, last = 0;  // visible lines [first, last)
    bool focused = false;
    Palette pal;

    float y_of(int line) const { return origin.y + line * line_h; }
    float x_at(const std::string& s, int col) const {
        const char* p = s.data();
        return text_origin.x + font->CalcTextSizeA(font_size, FLT_MAX, 0, p, p + col).x;
    }
};

TextPos CodeEditor::pos_from_mouse(const Layout& l, ImVec2 mouse) const {
    TextPos p;
    p.line = std::clamp(static_cast<int>(std::floor((mouse.y - l.origin.y) / l.line_h)), 0,
                        line_count() - 1);
    const std::string& s = lines_[p.line];
    float x = l.text_origin.x;
    for (int i = 0; i < static_cast<int>(s.size());) {
        int next = i + 1;
        while (next < static_cast<int>(s.size()) && is_continuation(s[next])) ++next;
        const float w =
            l.font->CalcTextSizeA(l.font_size, FLT_MAX, 0, s.data() + i, s.data() + next).x;
        if (mouse.x < x + w * 0.5f) return {p.line, i};
        x += w;
        i = next;
    }
    p.column = static_cast<int>(s.size());
    return p;
}

void CodeEditor::handle_mouse(const Layout& l) {
    const ImGuiIO& io = ImGui::GetIO();
    if (ImGui::IsItemActivated()) {
        const TextPos p = pos_from_mouse(l, io.MousePos);
        if (io.MouseDoubleClicked[0]) {  // a double click selects the word under it
            const std::string& s = lines_[p.line];
            int a = p.column, b = p.column;
            while (a > 0 && is_word(s[a - 1])) --a;
            while (b < static_cast<int>(s.size()) && is_word(s[b])) ++b;
            set_selection({p.line, a}, {p.line, b});
        } else {
            set_cursor(p.line, p.column, io.KeyShift);
            mouse_selecting_ = true;
        }
    }
    if (!ImGui::IsItemActive()) mouse_selecting_ = false;
    if (mouse_selecting_ && ImGui::IsMouseDragging(0)) {
        cursor_ = pos_from_mouse(l, io.MousePos);
        note_cursor_moved();
    }
}

// Scrolling follows the caret after keyboard edits, jumps, and drags past an edge.
void CodeEditor::scroll_to_caret(const Layout& l) {
    const float caret_y = cursor_.line * l.line_h;
    const float scroll_y = ImGui::GetScrollY();
    if (center_on_cursor_) {
        ImGui::SetScrollY(std::max(0.0f, caret_y - l.view_h * 0.4f));
    } else if (scroll_to_cursor_) {
        if (caret_y < scroll_y) {
            ImGui::SetScrollY(caret_y);
        } else if (caret_y + 2 * l.line_h > scroll_y + l.view_h) {
            ImGui::SetScrollY(caret_y + 2 * l.line_h - l.view_h);
        }
        const std::string& s = lines_[cursor_.line];
        const float caret_x = l.x_at(s, cursor_.column) - l.text_origin.x;
        const float view_w =
            ImGui::GetWindowWidth() - l.gutter_w - ImGui::GetStyle().ScrollbarSize;
        const float scroll_x = ImGui::GetScrollX();
        if (caret_x < scroll_x) {
            ImGui::SetScrollX(caret_x);
        } else if (caret_x + 2 * l.char_w > scroll_x + view_w) {
            ImGui::SetScrollX(caret_x + 2 * l.char_w - view_w);
        }
    }
    center_on_cursor_ = scroll_to_cursor_ = false;
}

void CodeEditor::paint_line(const Layout& l, int i, ImDrawList* dl) const {
    const Palette& pal = l.pal;
    const std::string& s = lines_[i];
    const float y = l.y_of(i);
    const ImVec2 row_min(l.win_pos.x, y), row_max(l.win_right, y + l.line_h);
    const EditorMarker* marker = marker_at(i + 1);
    if (marker) {
        dl->AddRectFilled(row_min, row_max, pal.severity_tint[marker->severity]);
    } else if (i == cursor_.line && l.focused) {
        dl->AddRectFilled(row_min, row_max, pal.current_line);
    }

    const TextPos a = selection_start(), b = selection_end();
    if (has_selection() && i >= a.line && i <= b.line) {
        const float x0 = l.x_at(s, i == a.line ? a.column : 0);
        // A selected line break shows as one character cell past the end.
        const float x1 = i == b.line ? l.x_at(s, b.column)
                                     : l.x_at(s, static_cast<int>(s.size())) + l.char_w;
        dl->AddRectFilled(ImVec2(x0, y), ImVec2(x1, y + l.line_h), pal.selection);
    }
    if (find_open_ && !find_query_.empty()) {
        const std::string needle = lowercase(find_query_), low = lowercase(s);
        for (auto at = low.find(needle); at != std::string::npos;
             at = low.find(needle, at + needle.size())) {
            const int from = static_cast<int>(at), to = static_cast<int>(at + needle.size());
            dl->AddRectFilled(ImVec2(l.x_at(s, from), y), ImVec2(l.x_at(s, to), y + l.line_h),
                              pal.find_match);
        }
    }

    const float text_y = y + (l.line_h - l.font_size) * 0.5f;
    for (const SyntaxToken& t : tokenize_line(i))
        dl->AddText(l.font, l.font_size, ImVec2(l.x_at(s, t.begin), text_y),
                    pal.token[static_cast<int>(t.kind)], s.data() + t.begin, s.data() + t.end);

    if (marker) {
        // A squiggle under the word at the marker's column, or the whole line when unknown.
        const int n = static_cast<int>(s.size());
        int from = leading_blanks(s), to = n;
        if (marker->column > 0) {
            from = to = std::min(marker->column - 1, n);
            while (to < n && is_word(s[to])) ++to;
            if (to == from) to = std::min(from + 1, n);
        }
        const float x0 = l.x_at(s, from), x1 = std::max(l.x_at(s, to), x0 + l.char_w);
        ImVec2 zigzag[256];
        int points = 0;
        for (float x = x0; x <= x1 && points < 256; x += 2, ++points)
            zigzag[points] = ImVec2(x, y + l.line_h - 2 - (points % 2 ? 2.0f : 0.0f));
        dl->AddPolyline(zigzag, points, pal.severity[marker->severity], 0, 1.0f);
    }
    if (i == cursor_.line && l.focused && std::fmod(ImGui::GetTime(), 1.0) < 0.6) {
        const float x = l.x_at(s, cursor_.column);
        dl->AddLine(ImVec2(x, y), ImVec2(x, y + l.line_h), pal.caret, 1.5f);
    }
}

// The gutter stays put while the text scrolls sideways: line numbers and marker glyphs.
void CodeEditor::paint_gutter(const Layout& l, ImDrawList* dl) {
    const Palette& pal = l.pal;
    drawn_markers_.clear();
    drawn_gutter_marks_.clear();
    for (int i = l.first; i < l.last; ++i) {
        const float y = l.y_of(i);
        const std::string number = std::to_string(i + 1);
        const float w = l.font->CalcTextSizeA(l.font_size, FLT_MAX, 0, number.c_str()).x;
        const ImVec2 at(l.win_pos.x + l.gutter_w - l.char_w - l.mark_w - w,
                        y + (l.line_h - l.font_size) * 0.5f);
        if (const GutterMark* g = gutter_mark_at(i + 1)) {
            const ImVec2 c(l.win_pos.x + l.gutter_w - l.char_w - l.mark_w * 0.5f, y + l.line_h * 0.5f);
            const float r = l.line_h * 0.22f;
            dl->AddRectFilled(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), g->colour, r * 0.4f);
            drawn_gutter_marks_.push_back(i + 1);
        }
        const ImU32 colour = i == cursor_.line ? pal.current_line_number : pal.line_number;
        dl->AddText(l.font, l.font_size, at, colour, number.c_str());
        if (const EditorMarker* m = marker_at(i + 1)) {
            dl->AddCircleFilled(ImVec2(l.win_pos.x + l.char_w, y + l.line_h * 0.5f),
                                l.line_h * 0.28f, pal.severity[m->severity]);
            drawn_markers_.push_back(i + 1);
        }
    }
}

// Hovering a gutter mark's line in the gutter shows what the mark says (and
// the line's markers' messages, which hovering its text shows too).
bool CodeEditor::show_gutter_mark_tooltip(const Layout& l) const {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (mouse.x >= l.win_pos.x + l.gutter_w) return false;
    const int line = pos_from_mouse(l, mouse).line + 1;
    const GutterMark* g = gutter_mark_at(line);
    if (!g) return false;
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(g->tooltip.c_str());
    for (const EditorMarker& m : markers_)
        if (m.line == line) {
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(l.pal.severity[m.severity]), "%s", severity_name(m.severity));
            ImGui::SameLine();
            ImGui::TextUnformatted(m.message.c_str());
        }
    ImGui::EndTooltip();
    return true;
}

// Hovering a marked line (text or gutter) shows every message on it.
void CodeEditor::show_marker_tooltip(const Layout& l) const {
    const int line = pos_from_mouse(l, ImGui::GetIO().MousePos).line + 1;
    if (!marker_at(line)) return;
    const Palette& pal = l.pal;
    ImGui::BeginTooltip();
    for (const EditorMarker& m : markers_) {
        if (m.line != line) continue;
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.severity[m.severity]), "%s",
                           severity_name(m.severity));
        ImGui::SameLine();
        ImGui::TextUnformatted(m.message.c_str());
    }
    ImGui::EndTooltip();
}

bool CodeEditor::draw(const char* id, ImVec2 size, ImFont* mono) {
    const std::uint64_t revision_before = revision_;
    if (mono) ImGui::PushFont(mono);
    ImGui::PushID(id);
    ImGui::BeginChild("##editor", size, false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    const ImGuiIO& io = ImGui::GetIO();
    const bool any_focused = ImGui::IsWindowFocused(ImGuiFocusedFlags_ChildWindows);
    if (any_focused && io.KeyCtrl && key_pressed(Key::F, false)) open_find_bar();
    if (any_focused && key_pressed(Key::F3))
        io.KeyShift ? find_previous(find_query_) : find_next(find_query_);
    if (find_open_) draw_find_bar();

    // NoNavInputs: Tab is ours (indentation), not ImGui's focus cycling.
    ImGui::BeginChild("##text", ImVec2(0, 0), true,
                      ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NoNavInputs);
    if (focus_requested_) {
        ImGui::SetWindowFocus();
        focus_requested_ = false;
    }
    Layout l;
    l.focused = ImGui::IsWindowFocused();
    l.pal = palette_for_current_theme();
    l.font = ImGui::GetFont();
    l.font_size = ImGui::GetFontSize();
    l.line_h = std::floor(l.font_size * 1.25f);
    l.char_w = l.font->CalcTextSizeA(l.font_size, FLT_MAX, 0, "0").x;
    l.mark_w = gutter_marks_.empty() ? 0.0f : 2 * l.char_w;
    l.gutter_w = (std::to_string(line_count()).size() + 3) * l.char_w + l.mark_w;
    l.view_h = ImGui::GetWindowHeight() - ImGui::GetStyle().ScrollbarSize;
    l.win_pos = ImGui::GetWindowPos();
    l.win_right = l.win_pos.x + ImGui::GetWindowWidth();
    l.origin = ImGui::GetCursorScreenPos();
    l.text_origin = ImVec2(l.origin.x + l.gutter_w, l.origin.y);
    page_lines_ = std::max(1, static_cast<int>(l.view_h / l.line_h) - 1);

    if (l.focused) handle_keyboard();

    // The content is one invisible button the size of the text, so clicks on it are ours
    // and clicks on the scrollbars stay ImGui's.
    std::size_t widest = 0;
    for (const std::string& s : lines_) widest = std::max(widest, s.size());
    ImGui::InvisibleButton("##content", ImVec2(l.gutter_w + (widest + 4) * l.char_w,
                                               (line_count() + 2) * l.line_h));
    const bool hovered = ImGui::IsItemHovered();
    handle_mouse(l);
    scroll_to_caret(l);

    l.first = std::max(0, static_cast<int>(ImGui::GetScrollY() / l.line_h));
    l.last = std::min(line_count(), l.first + static_cast<int>(l.view_h / l.line_h) + 2);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(ImVec2(l.win_pos.x + l.gutter_w, l.win_pos.y),
                     ImVec2(l.win_right, l.win_pos.y + ImGui::GetWindowHeight()), true);
    for (int i = l.first; i < l.last; ++i) paint_line(l, i, dl);
    dl->PopClipRect();
    paint_gutter(l, dl);
    if (hovered && !show_gutter_mark_tooltip(l)) show_marker_tooltip(l);

    ImGui::EndChild();
    ImGui::EndChild();
    ImGui::PopID();
    if (mono) ImGui::PopFont();
    return revision_ != revision_before;
}

}  // namespace wb::app
