// app/widgets/cuda_syntax.cpp — the CUDA C++ line tokenizer behind the editor's colours.
// Word lists are the ones a student meets in the lessons; anything missing merely shows in
// the plain text colour, so the lists favour being short and obviously right.
#include "widgets/cuda_syntax.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace wb::app {
namespace {

constexpr std::array<std::string_view, 62> kKeywords = {
    "alignas", "alignof", "asm", "break", "case", "catch", "class", "const", "consteval",
    "constexpr", "const_cast", "continue", "decltype", "default", "delete", "do",
    "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "for", "friend",
    "goto", "if", "inline", "mutable", "namespace", "new", "noexcept", "nullptr", "operator",
    "private", "protected", "public", "register", "reinterpret_cast", "return", "sizeof",
    "static", "static_assert", "static_cast", "struct", "switch", "template", "this",
    "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union", "using",
    "virtual", "volatile", "while", "NULL", "restrict"};

constexpr std::array<std::string_view, 33> kTypes = {
    "void", "bool", "char", "short", "int", "long", "float", "double", "signed", "unsigned",
    "auto", "size_t", "ptrdiff_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t",
    "uint16_t", "uint32_t", "uint64_t", "uintptr_t", "intptr_t", "half", "__half", "__half2",
    "__nv_bfloat16", "__nv_bfloat162", "dim3", "cudaError_t", "cudaStream_t", "wchar_t",
    "char16_t"};

constexpr std::array<std::string_view, 12> kQualifiers = {
    "__global__", "__device__", "__host__", "__shared__", "__constant__", "__restrict__",
    "__managed__", "__forceinline__", "__noinline__", "__launch_bounds__", "__align__",
    "__grid_constant__"};

constexpr std::array<std::string_view, 40> kBuiltins = {
    "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "__syncthreads",
    "__syncthreads_count", "__syncthreads_and", "__syncthreads_or", "__syncwarp",
    "__threadfence", "__threadfence_block", "__shfl_sync", "__shfl_up_sync",
    "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync", "__any_sync", "__all_sync",
    "__activemask", "__ldg", "__fmaf_rn", "__expf", "__logf", "__sinf", "__cosf", "__powf",
    "__fdividef", "atomicAdd", "atomicSub", "atomicMax", "atomicMin", "atomicExch",
    "atomicCAS", "atomicAnd", "atomicOr", "atomicXor", "atomicInc", "clock64", "printf"};

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& words, std::string_view w) {
    return std::find(words.begin(), words.end(), w) != words.end();
}

// CUDA's vector types: a scalar base name followed by a width of 1 to 4 (float4, uchar3...).
bool is_vector_type(std::string_view w) {
    static constexpr std::array<std::string_view, 12> kBases = {
        "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong",
        "ulonglong", "float", "double"};
    if (w.size() < 2 || w.back() < '1' || w.back() > '4') return false;
    return contains(kBases, w.substr(0, w.size() - 1));
}

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Scans a numeric literal starting at i (a digit, or '.' followed by a digit); digit
// separators, hex, exponents and suffixes are all swallowed as one token.
int scan_number(std::string_view s, int i) {
    const int n = static_cast<int>(s.size());
    const bool hex = i + 1 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
    if (hex) i += 2;
    while (i < n) {
        const char c = s[i];
        const bool exponent = hex ? (c == 'p' || c == 'P') : (c == 'e' || c == 'E');
        if (exponent && i + 1 < n && (s[i + 1] == '+' || s[i + 1] == '-')) {
            i += 2;
        } else if (is_ident_char(c) || c == '.' || c == '\'') {
            ++i;
        } else {
            break;
        }
    }
    return i;
}

// Scans a string or character literal from its opening quote; stops at the closing quote or
// at the end of the line (an unterminated literal is still coloured as one).
int scan_quoted(std::string_view s, int i) {
    const int n = static_cast<int>(s.size());
    const char quote = s[i++];
    while (i < n) {
        if (s[i] == '\\') {
            i += 2;
        } else if (s[i++] == quote) {
            break;
        }
    }
    return std::min(i, n);
}

}  // namespace

TokenKind classify_cuda_identifier(std::string_view w) {
    if (contains(kQualifiers, w)) return TokenKind::CudaQualifier;
    if (contains(kBuiltins, w)) return TokenKind::CudaBuiltin;
    if (contains(kTypes, w) || is_vector_type(w)) return TokenKind::Type;
    if (contains(kKeywords, w)) return TokenKind::Keyword;
    return TokenKind::Text;
}

std::vector<SyntaxToken> tokenize_cuda_line(std::string_view s, bool& in_block_comment) {
    std::vector<SyntaxToken> out;
    const int n = static_cast<int>(s.size());
    auto push = [&out](int b, int e, TokenKind k) {
        // Neighbouring tokens of one kind merge, which keeps the draw loop short.
        if (!out.empty() && out.back().kind == k && out.back().end == b) {
            out.back().end = e;
        } else if (e > b) {
            out.push_back({b, e, k});
        }
    };

    int i = 0;
    if (in_block_comment) {
        const auto close = s.find("*/");
        const int end = close == std::string_view::npos ? n : static_cast<int>(close) + 2;
        in_block_comment = close == std::string_view::npos;
        push(0, end, TokenKind::Comment);
        i = end;
    }

    // A preprocessor directive is the whole line up to a comment (#include <...> included).
    const auto first = s.find_first_not_of(" \t", static_cast<std::size_t>(i));
    const bool directive = first != std::string_view::npos && s[first] == '#';

    while (i < n) {
        const char c = s[i];
        const char next = i + 1 < n ? s[i + 1] : '\0';
        if (c == '/' && next == '/') {
            push(i, n, TokenKind::Comment);
            break;
        }
        if (c == '/' && next == '*') {
            const auto close = s.find("*/", static_cast<std::size_t>(i) + 2);
            const int end = close == std::string_view::npos ? n : static_cast<int>(close) + 2;
            in_block_comment = close == std::string_view::npos;
            push(i, end, TokenKind::Comment);
            i = end;
            continue;
        }
        int end = i + 1;
        TokenKind kind = TokenKind::Punctuation;
        if (directive) {
            kind = TokenKind::Preprocessor;
        } else if (c == ' ' || c == '\t') {
            kind = TokenKind::Text;
        } else if (c == '"' || c == '\'') {
            end = scan_quoted(s, i);
            kind = TokenKind::String;
        } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                   (c == '.' && std::isdigit(static_cast<unsigned char>(next)))) {
            end = scan_number(s, i);
            kind = TokenKind::Number;
        } else if (is_ident_start(c)) {
            while (end < n && is_ident_char(s[end])) ++end;
            kind = classify_cuda_identifier(s.substr(i, end - i));
        } else if (static_cast<unsigned char>(c) >= 0x80) {
            // UTF-8 text (a comment's Chinese is handled above; this is an identifier or
            // stray character): keep the whole multibyte sequence in one token.
            while (end < n && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) ++end;
            kind = TokenKind::Text;
        }
        push(i, end, kind);
        i = end;
    }
    return out;
}

}  // namespace wb::app
