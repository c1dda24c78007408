// app/widgets/code_editor.hpp — the kernel editor: a small multi-line code editor drawn with
// Dear ImGui 1.86 (ImGuiColorTextEdit is not packaged for Debian). It owns the text as lines,
// a caret and selection, snapshot undo/redo, find, indentation, and compiler markers. All of
// that is plain logic usable without drawing, so tests can drive it directly; draw() only
// turns keys and mouse into those calls and paints the result.
//
// Positions: TextPos is 0-based (line, byte column in UTF-8). Marker lines/columns and
// goto_line() are 1-based, as compilers and the gutter number them, so diagnostics from
// runtime/compile/diagnostics.hpp can be passed straight through.
#pragma once

#include <algorithm>
#include <compare>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "widgets/cuda_syntax.hpp"

struct ImDrawList;
struct ImFont;
struct ImVec2;

namespace wb::app {

struct TextPos {
    int line = 0;    // 0-based
    int column = 0;  // 0-based byte offset into the line
    friend bool operator==(const TextPos&, const TextPos&) = default;
    friend auto operator<=>(const TextPos&, const TextPos&) = default;
};

struct EditorMarker {
    enum Severity { Error, Warning, Note };
    int line = 0;    // 1-based
    int column = 0;  // 1-based; 0 marks the whole line
    Severity severity = Error;
    std::string message;
};

// A mark in the gutter beside a line's number, apart from the markers: a
// small coloured square (the access tab's figures for the line), and what
// hovering it says.
struct GutterMark {
    int line = 0;         // 1-based
    unsigned colour = 0;  // ImU32
    std::string tooltip;
};

class CodeEditor {
public:
    static constexpr int kTabWidth = 4;

    CodeEditor();

    // --- text -----------------------------------------------------------------------------
    // Replaces everything; clears undo history and selection ("\r\n" becomes "\n").
    void set_text(std::string text);
    // Replaces everything as one undo step, so undo() brings the old text back (Reset to
    // starter, Show solution). The caret goes to the top. False when read-only.
    bool replace_all(std::string_view text);
    const std::string& text() const;
    int line_count() const { return static_cast<int>(lines_.size()); }
    const std::string& line(int index) const { return lines_[index]; }
    // Bumped by every change to the text (edits, undo, redo, set_text).
    std::uint64_t revision() const { return revision_; }
    bool changed_since(std::uint64_t revision) const { return revision_ != revision; }

    void set_read_only(bool read_only) { read_only_ = read_only; }
    bool read_only() const { return read_only_; }

    // --- caret and selection -------------------------------------------------------------
    TextPos cursor() const { return cursor_; }
    void set_cursor(int line, int column, bool extend_selection = false);
    bool has_selection() const { return anchor_ != cursor_; }
    TextPos selection_start() const { return std::min(anchor_, cursor_); }
    TextPos selection_end() const { return std::max(anchor_, cursor_); }
    void set_selection(TextPos anchor, TextPos cursor);
    std::string selected_text() const;
    void select_all();
    // Scrolls to a 1-based line (clamped), puts the caret at its start and focuses the editor.
    void goto_line(int line);
    // Gives the editor keyboard focus on the next draw().
    void focus() { focus_requested_ = true; }

    void move_left(bool select, bool by_word = false);
    void move_right(bool select, bool by_word = false);
    void move_up(bool select, int lines = 1);
    void move_down(bool select, int lines = 1);
    void move_home(bool select);  // first non-blank, then column 0
    void move_end(bool select);

    // --- editing (each returns false and does nothing when read-only) ---------------------
    // Inserts text (may hold newlines) replacing the selection; one undo step.
    bool insert_text(std::string_view text);
    // As insert_text, but consecutive typed characters merge into one undo step per word.
    bool type_text(std::string_view text);
    bool new_line();  // Enter: keeps the indentation, one level more after '{'
    bool delete_backward();
    bool delete_forward();
    bool indent_selection();    // Tab: 4 spaces at the caret, or indent every selected line
    bool unindent_selection();  // Shift+Tab: up to 4 leading spaces off each selected line
    bool cut();                 // via ImGui's clipboard; needs a current ImGui context
    bool copy() const;
    bool paste();

    bool can_undo() const { return !undo_.empty(); }
    bool can_redo() const { return !redo_.empty(); }
    bool undo();
    bool redo();

    // --- find -----------------------------------------------------------------------------
    // Selects the next (or previous) case-insensitive match after (before) the caret,
    // wrapping around the end of the text. Returns false when there is none.
    bool find_next(std::string_view query);
    bool find_previous(std::string_view query);
    const std::string& find_query() const { return find_query_; }
    bool find_bar_open() const { return find_open_; }
    void open_find_bar();

    // --- markers --------------------------------------------------------------------------
    void set_markers(std::vector<EditorMarker> markers);
    const std::vector<EditorMarker>& markers() const { return markers_; }
    // The most severe marker on a 1-based line, or nullptr.
    const EditorMarker* marker_at(int line) const;
    // The 1-based lines whose marker the last draw() painted: the lines in view
    // that have one. What a student could see, for tests of what was drawn.
    const std::vector<int>& drawn_marker_lines() const { return drawn_markers_; }

    // Marks beside the line numbers; the gutter widens by two characters while there are any.
    void set_gutter_marks(std::vector<GutterMark> marks) { gutter_marks_ = std::move(marks); }
    const std::vector<GutterMark>& gutter_marks() const { return gutter_marks_; }
    const GutterMark* gutter_mark_at(int line) const;
    // The 1-based lines whose gutter mark the last draw() painted (the lines in view that have one).
    const std::vector<int>& drawn_gutter_mark_lines() const { return drawn_gutter_marks_; }

    // Tokens of one 0-based line, with block comments carried over from the lines above.
    std::vector<SyntaxToken> tokenize_line(int line) const;

    // Draws the editor (and the find bar when open) into `size` (0 = fill available space);
    // `mono` may be null to use the current font. Returns true when the text changed.
    bool draw(const char* id, ImVec2 size, ImFont* mono);

private:
    struct Snapshot {
        std::vector<std::string> lines;
        TextPos anchor, cursor;
    };
    enum class EditKind { Other, Typing };

    TextPos clamp(TextPos p) const;
    void begin_edit(EditKind kind, char typed = '\0');
    void finish_edit();
    void erase_range(TextPos a, TextPos b);  // no undo bookkeeping
    TextPos insert_raw(TextPos at, std::string_view text);
    void delete_selection_raw();
    bool find_from(std::string_view query, TextPos from, bool forward);
    bool step_history(std::vector<Snapshot>& from, std::vector<Snapshot>& to);
    void note_cursor_moved();
    void update_comment_state() const;

    // Drawing helpers (code_editor.cpp [SECTION] drawing); Layout is this frame's geometry.
    struct Layout;
    void handle_keyboard();
    void handle_mouse(const Layout& layout);
    void scroll_to_caret(const Layout& layout);
    TextPos pos_from_mouse(const Layout& layout, ImVec2 mouse) const;
    void draw_find_bar();
    void paint_line(const Layout& layout, int line, ImDrawList* draw_list) const;
    void paint_gutter(const Layout& layout, ImDrawList* draw_list);  // records drawn_markers_
    void show_marker_tooltip(const Layout& layout) const;
    bool show_gutter_mark_tooltip(const Layout& layout) const;  // false when the mouse is not on a mark's line in the gutter

    std::vector<std::string> lines_{std::string()};
    TextPos cursor_, anchor_;
    int preferred_x_ = -1;  // column kept while moving up/down through short lines
    int page_lines_ = 20;   // lines per PageUp/PageDown, measured by draw()
    bool read_only_ = false;
    std::uint64_t revision_ = 0;

    std::vector<Snapshot> undo_, redo_;
    EditKind last_edit_ = EditKind::Other;
    TextPos last_typed_end_{-1, -1};

    std::vector<EditorMarker> markers_;
    std::vector<int> drawn_markers_;
    std::vector<GutterMark> gutter_marks_;
    std::vector<int> drawn_gutter_marks_;
    std::string find_query_;
    bool find_open_ = false;
    bool find_focus_ = false;
    bool focus_requested_ = false;
    bool scroll_to_cursor_ = false;
    bool center_on_cursor_ = false;
    bool mouse_selecting_ = false;

    mutable std::string text_cache_;
    mutable std::uint64_t text_cache_revision_ = ~0ull;
    mutable std::vector<bool> starts_in_comment_;
    mutable std::uint64_t comment_state_revision_ = ~0ull;
};

}  // namespace wb::app
