// tests/app/code_editor_test.cpp — the kernel editor: its text model (typing, undo/redo,
// auto-indent, Tab, find, markers), the CUDA tokenizer, and draw() in a headless ImGui
// context, driven with queued characters and key presses the way the GLFW backend feeds them.
#include "widgets/code_editor.hpp"
#include "widgets/cuda_syntax.hpp"
#include "widgets/keys.hpp"

#include <gtest/gtest.h>
#include <imgui.h>

#include <filesystem>
#include <string>

namespace wb::app {
namespace {

// A headless ImGui context: font atlas built, no window, no GL.
class HeadlessImGui {
public:
    HeadlessImGui() {
        ctx_ = ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = ImVec2(1280, 800);
        io.DeltaTime = 1.0f / 60.0f;
        io.IniFilename = nullptr;
        io.Fonts->AddFontDefault();
        const char* mono = "/usr/share/fonts/truetype/jetbrains-mono/JetBrainsMono-Regular.ttf";
        if (std::filesystem::exists(mono)) mono_ = io.Fonts->AddFontFromFileTTF(mono, 15.0f);
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
        use_backend_key_map(io);
    }
    ~HeadlessImGui() { ImGui::DestroyContext(ctx_); }

    // One frame with the editor filling a window at the top-left corner.
    bool frame(CodeEditor& editor) {
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(ImVec2(800, 600));
        ImGui::Begin("host", nullptr, ImGuiWindowFlags_NoDecoration);
        const bool changed = editor.draw("editor", ImVec2(0, 0), mono_);
        ImGui::End();
        ImGui::Render();
        return changed;
    }

    // Presses and releases a key over two frames; returns whether either frame changed text.
    bool press(CodeEditor& editor, Key key, bool ctrl = false, bool shift = false) {
        ImGuiIO& io = ImGui::GetIO();
        if (ctrl) set_key_down(io, Key::LeftCtrl, true);
        if (shift) set_key_down(io, Key::LeftShift, true);
        set_key_down(io, key, true);
        bool changed = frame(editor);
        set_key_down(io, key, false);
        if (ctrl) set_key_down(io, Key::LeftCtrl, false);
        if (shift) set_key_down(io, Key::LeftShift, false);
        changed |= frame(editor);
        return changed;
    }

private:
    ImGuiContext* ctx_ = nullptr;
    ImFont* mono_ = nullptr;
};

// The kind of the token covering byte `at` of a tokenized line.
TokenKind kind_at(const std::vector<SyntaxToken>& tokens, std::size_t at) {
    for (const SyntaxToken& t : tokens)
        if (t.begin <= static_cast<int>(at) && static_cast<int>(at) < t.end) return t.kind;
    return TokenKind::Text;
}

void type_chars(CodeEditor& e, std::string_view s) {
    for (char c : s) e.type_text(std::string(1, c));
}

TEST(CodeEditor, TypingThenUndoRestoresTheText) {
    CodeEditor e;
    e.set_text("int x;");
    e.set_cursor(0, 5);
    type_chars(e, "yz");
    EXPECT_EQ(e.text(), "int xyz;");
    ASSERT_TRUE(e.undo());
    EXPECT_EQ(e.text(), "int x;");
    EXPECT_EQ(e.cursor(), (TextPos{0, 5}));
    EXPECT_FALSE(e.can_undo());
}

// Reset to starter and Show solution replace the whole text as one step that undo takes back.
TEST(CodeEditor, ReplaceAllIsOneUndoStep) {
    CodeEditor e;
    e.set_text("int a;\r\nint b;");
    e.set_cursor(1, 3);
    ASSERT_TRUE(e.replace_all("// starter\r\n"));
    EXPECT_EQ(e.text(), "// starter\n");
    EXPECT_EQ(e.cursor(), (TextPos{0, 0}));
    ASSERT_TRUE(e.undo());
    EXPECT_EQ(e.text(), "int a;\nint b;");
    EXPECT_FALSE(e.can_undo());
    e.set_read_only(true);
    EXPECT_FALSE(e.replace_all("x"));
    EXPECT_EQ(e.text(), "int a;\nint b;");
}

TEST(CodeEditor, RedoReappliesWhatUndoTookBack) {
    CodeEditor e;
    e.set_text("a");
    e.set_cursor(0, 1);
    e.insert_text("bc");
    e.undo();
    ASSERT_TRUE(e.redo());
    EXPECT_EQ(e.text(), "abc");
    EXPECT_EQ(e.cursor(), (TextPos{0, 3}));
    EXPECT_FALSE(e.redo());
    // A new edit after an undo drops the redo branch.
    e.undo();
    e.insert_text("!");
    EXPECT_FALSE(e.can_redo());
}

TEST(CodeEditor, UndoTakesBackATypedWordAtATime) {
    CodeEditor e;
    type_chars(e, "float value");
    EXPECT_EQ(e.text(), "float value");
    e.undo();
    EXPECT_EQ(e.text(), "float");
    e.undo();
    EXPECT_EQ(e.text(), "");
    // Moving the caret ends a group even without a space.
    type_chars(e, "ab");
    e.move_left(false);
    e.move_right(false);
    type_chars(e, "cd");
    e.undo();
    EXPECT_EQ(e.text(), "ab");
}

TEST(CodeEditor, EnterKeepsIndentationAndIndentsAfterABrace) {
    CodeEditor e;
    e.set_text("    int a;");
    e.set_cursor(0, 10);
    e.new_line();
    EXPECT_EQ(e.text(), "    int a;\n    ");
    EXPECT_EQ(e.cursor(), (TextPos{1, 4}));

    e.set_text("if (i < n) {");
    e.set_cursor(0, 12);
    e.new_line();
    EXPECT_EQ(e.text(), "if (i < n) {\n    ");

    e.set_text("{}");
    e.set_cursor(0, 1);
    e.new_line();
    EXPECT_EQ(e.text(), "{\n    \n}");
    EXPECT_EQ(e.cursor(), (TextPos{1, 4}));
    // Typing '}' on a blank indented line steps back one level.
    e.set_text("{\n        ");
    e.set_cursor(1, 8);
    e.type_text("}");
    EXPECT_EQ(e.text(), "{\n    }");
}

TEST(CodeEditor, BackspaceInIndentationRemovesOneLevel) {
    CodeEditor e;
    e.set_text("      x");
    e.set_cursor(0, 6);
    e.delete_backward();
    EXPECT_EQ(e.text(), "    x");
    e.delete_backward();
    EXPECT_EQ(e.text(), "x");
    e.set_text("ab");  // outside indentation: one character
    e.set_cursor(0, 2);
    e.delete_backward();
    EXPECT_EQ(e.text(), "a");
}

TEST(CodeEditor, TabInsertsFourSpacesAndShiftTabRemovesThemFromSelectedLines) {
    CodeEditor e;
    e.set_text("a\nb\nc");
    e.indent_selection();
    EXPECT_EQ(e.text(), "    a\nb\nc");
    EXPECT_EQ(e.cursor(), (TextPos{0, 4}));

    e.set_text("a\nb\nc");
    e.set_selection({0, 0}, {2, 1});
    e.indent_selection();
    EXPECT_EQ(e.text(), "    a\n    b\n    c");
    EXPECT_TRUE(e.has_selection());
    e.unindent_selection();
    EXPECT_EQ(e.text(), "a\nb\nc");
    EXPECT_FALSE(e.unindent_selection());  // nothing left to remove
    e.undo();
    EXPECT_EQ(e.text(), "    a\n    b\n    c");
}

TEST(CodeEditor, FindNextSelectsMatchesAndWrapsAround) {
    CodeEditor e;
    e.set_text("foo bar\nFOO baz");
    ASSERT_TRUE(e.find_next("foo"));
    EXPECT_EQ(e.selection_start(), (TextPos{0, 0}));
    EXPECT_EQ(e.selection_end(), (TextPos{0, 3}));
    ASSERT_TRUE(e.find_next("foo"));  // case-insensitive, on the next line
    EXPECT_EQ(e.selection_start(), (TextPos{1, 0}));
    EXPECT_EQ(e.selected_text(), "FOO");
    ASSERT_TRUE(e.find_next("foo"));  // wraps to the top
    EXPECT_EQ(e.selection_start(), (TextPos{0, 0}));
    ASSERT_TRUE(e.find_previous("foo"));  // and back over the top
    EXPECT_EQ(e.selection_start(), (TextPos{1, 0}));
    EXPECT_FALSE(e.find_next("qux"));
}

TEST(CudaSyntax, ClassifiesCudaQualifiersBuiltinsTypesLiteralsAndComments) {
    bool in_comment = false;
    const std::string line =
        "__global__ void k(float4* p) { int i = threadIdx.x + 42; // done";
    const auto tokens = tokenize_cuda_line(line, in_comment);
    auto kind_of = [&](std::string_view word) { return kind_at(tokens, line.find(word)); };
    EXPECT_EQ(kind_of("__global__"), TokenKind::CudaQualifier);
    EXPECT_EQ(kind_of("void"), TokenKind::Type);
    EXPECT_EQ(kind_of("float4"), TokenKind::Type);
    EXPECT_EQ(kind_of("int"), TokenKind::Type);
    EXPECT_EQ(kind_of("threadIdx"), TokenKind::CudaBuiltin);
    EXPECT_EQ(kind_of("42"), TokenKind::Number);
    EXPECT_EQ(kind_of("// done"), TokenKind::Comment);
    EXPECT_EQ(kind_of("k("), TokenKind::Text);
    EXPECT_FALSE(in_comment);

    EXPECT_EQ(classify_cuda_identifier("float"), TokenKind::Type);
    EXPECT_EQ(classify_cuda_identifier("dim3"), TokenKind::Type);
    EXPECT_EQ(classify_cuda_identifier("size_t"), TokenKind::Type);
    EXPECT_EQ(classify_cuda_identifier("uint8_t"), TokenKind::Type);
    EXPECT_EQ(classify_cuda_identifier("__shared__"), TokenKind::CudaQualifier);
    EXPECT_EQ(classify_cuda_identifier("__restrict__"), TokenKind::CudaQualifier);
    EXPECT_EQ(classify_cuda_identifier("__syncthreads"), TokenKind::CudaBuiltin);
    EXPECT_EQ(classify_cuda_identifier("blockDim"), TokenKind::CudaBuiltin);
    EXPECT_EQ(classify_cuda_identifier("return"), TokenKind::Keyword);
    EXPECT_EQ(classify_cuda_identifier("float5"), TokenKind::Text);

    in_comment = false;
    const std::string call = R"(printf("a // b\n", 1.5e-3f);)";
    const auto literal = tokenize_cuda_line(call, in_comment);
    EXPECT_EQ(kind_at(literal, call.find('"')), TokenKind::String);
    EXPECT_EQ(kind_at(literal, call.find("//")), TokenKind::String);  // not a comment
    EXPECT_EQ(kind_at(literal, call.find("\\n\"") + 2), TokenKind::String);
    EXPECT_EQ(kind_at(literal, call.find("e-3f")), TokenKind::Number);
    EXPECT_EQ(kind_at(literal, call.find("3f")), TokenKind::Number);  // one token with the exponent
    EXPECT_EQ(kind_at(literal, call.find(");")), TokenKind::Punctuation);
    EXPECT_FALSE(in_comment);

    in_comment = false;
    const auto pre = tokenize_cuda_line("#include <cuda_fp16.h> // half", in_comment);
    ASSERT_EQ(pre.size(), 2u);
    EXPECT_EQ(pre[0].kind, TokenKind::Preprocessor);
    EXPECT_EQ(pre[1].kind, TokenKind::Comment);
}

TEST(CudaSyntax, BlockCommentsSpanLinesInTheEditor) {
    CodeEditor e;
    e.set_text("int a; /* starts\n still __global__\n ends */ float b;");
    const auto first = e.tokenize_line(0);
    EXPECT_EQ(first.back().kind, TokenKind::Comment);
    const auto middle = e.tokenize_line(1);
    ASSERT_EQ(middle.size(), 1u);
    EXPECT_EQ(middle[0].kind, TokenKind::Comment);
    const auto last = e.tokenize_line(2);
    EXPECT_EQ(last[0].kind, TokenKind::Comment);
    EXPECT_EQ(last[0].end, 8);
    EXPECT_EQ(last[2].kind, TokenKind::Type);  // float, after the comment closed
    // Closing the comment on line 0 uncomments line 1 (state follows edits).
    e.set_cursor(0, 16);
    e.insert_text(" */");
    const auto reopened = e.tokenize_line(1);
    EXPECT_EQ(kind_at(reopened, 1), TokenKind::Text);
    EXPECT_EQ(kind_at(reopened, 7), TokenKind::CudaQualifier);
}

TEST(CodeEditor, MarkersAreFoundByTheirLineMostSevereFirst) {
    CodeEditor e;
    e.set_text("a\nb\nc\nd");
    e.set_markers({{3, 2, EditorMarker::Warning, "unused variable"},
                   {3, 1, EditorMarker::Error, "expected a \";\""}});
    ASSERT_NE(e.marker_at(3), nullptr);
    EXPECT_EQ(e.marker_at(3)->severity, EditorMarker::Error);
    EXPECT_EQ(e.marker_at(3)->message, "expected a \";\"");
    EXPECT_EQ(e.marker_at(2), nullptr);
    e.set_markers({});
    EXPECT_EQ(e.marker_at(3), nullptr);
}

TEST(CodeEditor, GotoLineMovesTheCaretToTheStartOfThatLine) {
    CodeEditor e;
    e.set_text("one\ntwo\nthree");
    e.set_cursor(0, 2);
    e.goto_line(3);
    EXPECT_EQ(e.cursor(), (TextPos{2, 0}));
    EXPECT_FALSE(e.has_selection());
    e.goto_line(99);  // past the end clamps to the last line
    EXPECT_EQ(e.cursor().line, 2);
}

TEST(CodeEditor, ReadOnlyRefusesEveryEdit) {
    CodeEditor e;
    e.set_text("x");
    e.set_read_only(true);
    const auto rev = e.revision();
    EXPECT_FALSE(e.insert_text("y"));
    EXPECT_FALSE(e.type_text("y"));
    EXPECT_FALSE(e.new_line());
    EXPECT_FALSE(e.delete_backward());
    EXPECT_FALSE(e.indent_selection());
    EXPECT_EQ(e.text(), "x");
    EXPECT_FALSE(e.changed_since(rev));
}

TEST(CodeEditor, RevisionCountsEditsForDebouncedCompiles) {
    CodeEditor e;
    e.set_text("x");
    const auto rev = e.revision();
    EXPECT_FALSE(e.changed_since(rev));
    e.set_cursor(0, 1);
    e.delete_backward();
    EXPECT_TRUE(e.changed_since(rev));
    EXPECT_EQ(e.text(), "");
    e.undo();
    EXPECT_EQ(e.revision(), rev + 2);
}

TEST(CodeEditor, CaretStepsOverWholeUtf8CharactersAndJoinsLines) {
    CodeEditor e;
    e.set_text("a\xE4\xB8\xAD\nb");  // "a中" then "b"
    e.set_cursor(0, 4);
    e.move_left(false);
    EXPECT_EQ(e.cursor(), (TextPos{0, 1}));
    e.set_cursor(1, 0);
    e.delete_backward();
    EXPECT_EQ(e.text(), "a\xE4\xB8\xAD" "b");
    e.set_cursor(0, 1);
    e.delete_forward();
    EXPECT_EQ(e.text(), "ab");
}

TEST(CodeEditorDraw, QueuedCharactersAndKeysEditTheTextInAHeadlessContext) {
    HeadlessImGui gui;
    CodeEditor e;
    e.set_text("__global__ void k(float* p)\n{\n    p[threadIdx.x] = 1.0f; /* done\n */\n}");
    e.set_markers({{3, 5, EditorMarker::Error, "expected ';'"}});
    e.focus();
    EXPECT_FALSE(gui.frame(e));
    EXPECT_FALSE(gui.frame(e));  // drawing alone changes nothing

    e.set_cursor(1, 1);
    ImGui::GetIO().AddInputCharacter('x');
    ImGui::GetIO().AddInputCharacter(0x4E2D);  // 中, through the UTF-8 encoder
    EXPECT_TRUE(gui.frame(e));
    EXPECT_EQ(e.line(1), "{x\xE4\xB8\xAD");
    EXPECT_FALSE(gui.frame(e));

    EXPECT_TRUE(gui.press(e, Key::Backspace));
    EXPECT_EQ(e.line(1), "{x");
    EXPECT_TRUE(gui.press(e, Key::Backspace));
    EXPECT_TRUE(gui.press(e, Key::Enter));  // after '{': one level deeper
    EXPECT_EQ(e.line(2), "    ");
    EXPECT_TRUE(gui.press(e, Key::Z, /*ctrl=*/true));
    EXPECT_EQ(e.line(1), "{");
    EXPECT_EQ(e.line(2), "    p[threadIdx.x] = 1.0f; /* done");

    // Ctrl+F (GLFW's F) opens the find bar, and the following frames draw it.
    gui.press(e, Key::F, /*ctrl=*/true);
    EXPECT_TRUE(e.find_bar_open());

    // A click on the third text line puts the caret there.
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(700, 8 + 28 + 2.5f * 18);
    io.MouseDown[0] = true;
    gui.frame(e);
    io.MouseDown[0] = false;
    gui.frame(e);
    EXPECT_GT(e.cursor().line, 0);

    e.set_read_only(true);
    io.AddInputCharacter('y');
    EXPECT_FALSE(gui.frame(e));
}

// The access tab's marks sit beside the line numbers, and the editor says
// which it painted: only those of lines in view.
TEST(CodeEditorDraw, PaintsGutterMarksBesideTheNumbersOnlyForLinesInView) {
    HeadlessImGui gui;
    CodeEditor e;
    std::string text;
    for (int i = 1; i <= 400; ++i) text += "int v" + std::to_string(i) + ";\n";
    e.set_text(text);
    e.set_gutter_marks({{7, 0xFF0000FFu, "32-way"}, {390, 0xFF00FF00u, "fits"}});
    gui.frame(e);
    gui.frame(e);
    EXPECT_EQ(e.drawn_gutter_mark_lines(), std::vector<int>{7});
    ASSERT_NE(e.gutter_mark_at(7), nullptr);
    EXPECT_EQ(e.gutter_mark_at(7)->tooltip, "32-way");
    EXPECT_EQ(e.gutter_mark_at(8), nullptr);
    e.goto_line(390);
    gui.frame(e);
    gui.frame(e);
    EXPECT_EQ(e.drawn_gutter_mark_lines(), std::vector<int>{390});
    e.set_gutter_marks({});
    gui.frame(e);
    EXPECT_TRUE(e.drawn_gutter_mark_lines().empty());
}

// Scripted GUI tests check what was drawn: the editor says which markers it
// painted, and a marker scrolled out of view is not among them.
TEST(CodeEditorDraw, ReportsTheMarkersItPaintedOnlyForLinesInView) {
    HeadlessImGui gui;
    CodeEditor e;
    std::string text;
    for (int i = 1; i <= 400; ++i) text += "int v" + std::to_string(i) + ";\n";
    e.set_text(text);
    EXPECT_TRUE(e.drawn_marker_lines().empty());  // nothing drawn yet
    e.set_markers({{5, 1, EditorMarker::Error, "here"}, {380, 1, EditorMarker::Warning, "far below"}});
    gui.frame(e);
    gui.frame(e);
    EXPECT_EQ(e.drawn_marker_lines(), std::vector<int>{5});
    e.goto_line(380);
    gui.frame(e);
    gui.frame(e);
    EXPECT_EQ(e.drawn_marker_lines(), std::vector<int>{380});
    e.set_markers({});
    gui.frame(e);
    EXPECT_TRUE(e.drawn_marker_lines().empty());
}

TEST(CodeEditorDraw, CutAndPasteGoThroughImGuisClipboard) {
    HeadlessImGui gui;
    CodeEditor e;
    e.set_text("alpha beta");
    e.set_selection({0, 0}, {0, 6});
    ASSERT_TRUE(e.cut());
    EXPECT_EQ(e.text(), "beta");
    e.set_cursor(0, 4);
    ASSERT_TRUE(e.paste());
    EXPECT_EQ(e.text(), "betaalpha ");
}

}  // namespace
}  // namespace wb::app
