// runtime/emulate/refuse.cpp — the constructs the CPU emulator refuses, and where they are.
//
// A table of patterns, each with the words that name it for a student. The
// search runs over the source with comments and literals blanked
// (rewrite.hpp), so a construct that is only mentioned is not refused. An
// identifier pattern matches a whole identifier (`tex2D` is not `tex2Dx`);
// "ident(" also allows space before the parenthesis.
#include "emulate/refuse.hpp"

#include "emulate/rewrite.hpp"

#include <cctype>
#include <cstddef>

namespace wb {

namespace {

bool is_ident_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

struct Construct {
    const char* pattern;  // an identifier, optionally followed by "(", "<" or "::"; or "<<<"
    const char* what;     // what the student wrote, in words
};

// Order does not matter: the earliest match in the source wins.
constexpr Construct kConstructs[] = {
    {"asm(", "inline PTX (asm)"},
    {"asm", "inline PTX (asm)"},  // asm volatile (...), asm goto
    {"__asm__", "inline PTX (asm)"},
    {"__asm", "inline PTX (asm)"},
    {"texture<", "textures (texture<>)"},
    {"cudaTextureObject_t", "texture objects (cudaTextureObject_t)"},
    {"cudaSurfaceObject_t", "surface objects (cudaSurfaceObject_t)"},
    {"surface<", "surfaces (surface<>)"},
    {"tex1D", "texture fetches (tex1D)"},
    {"tex2D", "texture fetches (tex2D)"},
    {"tex3D", "texture fetches (tex3D)"},
    {"tex1Dfetch", "texture fetches (tex1Dfetch)"},
    {"tex1DLayered", "texture fetches (tex1DLayered)"},
    {"tex2DLayered", "texture fetches (tex2DLayered)"},
    {"texCubemap", "texture fetches (texCubemap)"},
    {"tex2Dgather", "texture fetches (tex2Dgather)"},
    {"tex1DLod", "texture fetches (tex1DLod)"},
    {"tex2DLod", "texture fetches (tex2DLod)"},
    {"tex3DLod", "texture fetches (tex3DLod)"},
    {"tex2DGrad", "texture fetches (tex2DGrad)"},
    {"surf1Dread", "surface reads (surf1Dread)"},
    {"surf2Dread", "surface reads (surf2Dread)"},
    {"surf3Dread", "surface reads (surf3Dread)"},
    {"surf1Dwrite", "surface writes (surf1Dwrite)"},
    {"surf2Dwrite", "surface writes (surf2Dwrite)"},
    {"surf3Dwrite", "surface writes (surf3Dwrite)"},
    {"surf2DLayeredread", "surface reads (surf2DLayeredread)"},
    {"surf2DLayeredwrite", "surface writes (surf2DLayeredwrite)"},
    {"mma.sync", "tensor cores (mma.sync)"},
    {"__mma_", "tensor cores (mma)"},
    {"this_grid", "grid-wide sync (this_grid)"},
    {"grid_group", "grid-wide sync (grid_group)"},
    {"this_multi_grid", "multi-device sync (this_multi_grid)"},
    {"multi_grid_group", "multi-device sync (multi_grid_group)"},
    {"cudaDeviceSynchronize", "cudaDeviceSynchronize in device code"},
    {"cudaLaunchDevice", "kernel launches from device code (dynamic parallelism)"},
    {"cudaGetParameterBuffer", "kernel launches from device code (dynamic parallelism)"},
    {"<<<", "kernel launches from device code (dynamic parallelism, <<<...>>>)"},
};

// Where `pattern` first occurs in `code` as a construct, or npos.
std::size_t find_construct(const std::string& code, const std::string& pattern) {
    if (pattern == "<<<" || pattern == "mma.sync") return code.find(pattern);
    std::size_t ident_len = 0;
    while (ident_len < pattern.size() && is_ident_char(pattern[ident_len])) ++ident_len;
    const std::string ident = pattern.substr(0, ident_len);
    const std::string tail = pattern.substr(ident_len);  // "", "(", "<" or "::"
    for (std::size_t at = code.find(ident); at != std::string::npos; at = code.find(ident, at + 1)) {
        if (at > 0 && is_ident_char(code[at - 1])) continue;
        std::size_t k = at + ident.size();
        if (k < code.size() && is_ident_char(code[k])) continue;
        if (tail.empty()) return at;
        while (k < code.size() && std::isspace(static_cast<unsigned char>(code[k])) != 0) ++k;
        if (code.compare(k, tail.size(), tail) == 0) return at;
    }
    return std::string::npos;
}

}  // namespace

std::optional<Diagnostic> unsupported_construct(const std::string& source, const std::string& origin) {
    const std::string code = blank_comments_and_strings(source);
    std::size_t first = std::string::npos;
    const Construct* found = nullptr;
    for (const Construct& c : kConstructs) {
        const std::size_t at = find_construct(code, c.pattern);
        if (at < first) {
            first = at;
            found = &c;
        }
    }
    if (found == nullptr) return std::nullopt;

    Diagnostic d;
    d.file = origin;
    d.severity = Severity::Error;
    d.line = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < first; ++i) {
        if (source[i] == '\n') {
            ++d.line;
            line_start = i + 1;
        }
    }
    d.column = static_cast<int>(first - line_start) + 1;
    d.message = std::string("the CPU emulator cannot run ") + found->what + ": this kernel needs an NVIDIA GPU";
    return d;
}

}  // namespace wb
