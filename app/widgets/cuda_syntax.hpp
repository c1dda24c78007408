// app/widgets/cuda_syntax.hpp — a small line tokenizer for CUDA C++, used by the kernel
// editor to colour its text. It is deliberately a lexer, not a parser: it only needs to be
// right about what a student sees at a glance (keywords, types, CUDA qualifiers and
// built-ins, preprocessor lines, literals, comments). Block comments can span lines, so the
// caller threads one bool of state from each line into the next.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace wb::app {

enum class TokenKind : std::uint8_t {
    Text,          // identifiers that are not special, whitespace
    Punctuation,   // operators, brackets, separators
    Keyword,       // C++ keywords: if, for, return, const, template, extern...
    Type,          // fundamental and CUDA vector types: float, int, size_t, uint8_t, float4, dim3...
    CudaQualifier, // __global__, __device__, __host__, __shared__, __constant__, __restrict__...
    CudaBuiltin,   // threadIdx, blockIdx, blockDim, gridDim, warpSize, __syncthreads, atomicAdd...
    Preprocessor,  // #include, #define ... up to a trailing comment
    String,        // "..." and '...'
    Number,        // 42, 0x1F, 1.5e-3f, .5f, 10u
    Comment,       // // ... and /* ... */
};

// One token: byte offsets [begin, end) into the line it came from.
struct SyntaxToken {
    int begin = 0;
    int end = 0;
    TokenKind kind = TokenKind::Text;
};

// Splits one line (no newline) into tokens that cover it without gaps. `in_block_comment`
// says whether the line starts inside a /* */ comment, and is left saying whether the next
// line does.
std::vector<SyntaxToken> tokenize_cuda_line(std::string_view line, bool& in_block_comment);

// How a single identifier would be classified (Text when it is nothing special).
TokenKind classify_cuda_identifier(std::string_view word);

}  // namespace wb::app
