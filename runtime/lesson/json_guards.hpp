// runtime/lesson/json_guards.hpp — checks on a lesson's raw text that run before
// nlohmann parses anything: well-formed UTF-8 and a nesting depth cap, each
// found by a plain scan so a hostile file costs nothing before it is refused;
// and where a byte offset is as a line and column, pointing at a token's start.
// Private to the loader (lesson/loader.cpp, load_*.cpp and json_parse.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <utility>

namespace wb::lesson_load {

// 1-based line and column of byte `offset`.
std::pair<int, int> line_col(const std::string& text, std::size_t offset);

// The first byte of the token that ends just before `byte` (nlohmann reports
// the byte past the token it could not accept).
std::size_t token_start(const std::string& text, std::size_t byte);

// Offset of the first byte that is not well-formed UTF-8, or npos.
std::size_t first_invalid_utf8(const std::string& s);

// Offset of the first bracket that opens nesting level max_depth + 1, or npos.
std::size_t too_deep_at(const std::string& text, int max_depth);

}  // namespace wb::lesson_load
