// runtime/lesson/json_parse.hpp — a lesson's text parsed into JSON, with every
// duplicate key found (nlohmann keeps the last of two equal keys without a
// word) and a syntax error reworded and placed at the token it is about; and
// the JSON path grammar every LessonIssue uses: `key`, `.key`, `[N]`, and
// `["any key"]` for a key that is not plain (app/json_path_line.cpp reads it back).
// Private to the loader (lesson/loader.cpp and load_*.cpp).
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace wb::lesson_load {

// Insertion order is kept so params, buffers and languages stay in the order
// the instructor wrote them (the GUI shows params in that order).
using Json = nlohmann::ordered_json;

std::string key_path(const std::string& base, const std::string& key);
std::string index_path(const std::string& base, std::size_t i);

struct ParsedJson {
    bool ok = false;
    Json root;                                                   // when ok
    std::vector<std::pair<std::string, std::string>> duplicates;  // (path, key), at most 20
    std::string error;           // when not ok: nlohmann's message, reworded, without its own location
    std::size_t error_at = 0;    // and the byte it is about
};

// Parses `text`, which the guards (json_guards.hpp) have already passed.
ParsedJson parse_json(const std::string& text);

}  // namespace wb::lesson_load
