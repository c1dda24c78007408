// app/json_path_line.hpp — the line of a JSON path in a lesson file's text.
//
// The loader names a semantic mistake by its JSON path
// ("steps[0].launches[0].block[0]") and gives a line only for syntax errors.
// An instructor fixing the file in an editor wants the line too, so the app
// finds it: a small scanner walks the text along the path (no full parse, so
// it also works on text nlohmann would refuse later in the file). No GUI code.
#pragma once

#include <string>

namespace wb::app {

// The 1-based line where the value at `json_path` starts in `json_text`. When
// the path leads to something missing (a key the instructor left out), the
// line of the deepest part that exists; 0 when the path is empty, malformed,
// or not even its first part is found.
int json_path_line(const std::string& json_text, const std::string& json_path);

}  // namespace wb::app
