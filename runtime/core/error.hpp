// runtime/core/error.hpp — the one error type of the runtime.
//
// Every failure a student or instructor can cause is reported as a wb::Error:
// what was attempted, where (file, JSON path, source line), the driver's or
// compiler's own name for the error when there is one, and a hint a student
// can act on. Library code throws it and never exits; the CLI and the GUI
// catch it at their edges and print or show it.
#pragma once

#include "core/phrase.hpp"

#include <stdexcept>
#include <string>

namespace wb {

enum class ErrorKind {
    Io,          // a file could not be read or written
    Lesson,      // a lesson file is malformed or inconsistent
    Expression,  // a size/metric expression failed to parse or evaluate
    Compile,     // NVRTC or the host compiler rejected the code
    Launch,      // a launch was refused before running (limits, bad config)
    Cuda,        // the driver returned an error
    NoDevice,    // no driver, or no GPU
    Reference,   // the CPU reference failed
    Usage,       // the caller asked for something that does not exist
    Internal,
};

const char* error_kind_name(ErrorKind kind);

// Where something went wrong. Any field may be empty / zero.
struct Location {
    std::string file;       // lesson file or source file, as the user named it
    std::string json_path;  // e.g. "steps[1].buffers[2].shape[0]"
    int line = 0;           // 1-based source line, 0 when unknown
    int column = 0;         // 1-based column, 0 when unknown

    std::string to_string() const;  // "file: json_path" / "file:line:col"
};

class Error : public std::runtime_error {
public:
    Error(ErrorKind kind, std::string message, Location where = {}, std::string hint = {},
          std::string code = {});

    // An error whose message is made from catalogue phrases: said() keeps them.
    static Error said(ErrorKind kind, Sentence s, Location where = {}, std::string hint = {}) {
        Error e(kind, render(s, "en"), std::move(where), std::move(hint));
        e.said_ = std::move(s);
        return e;
    }

    ErrorKind kind() const { return kind_; }
    const std::string& message() const { return message_; }
    const Location& where() const { return where_; }
    const std::string& hint() const { return hint_; }
    // The library's own name for the error, e.g. "CUDA_ERROR_ILLEGAL_ADDRESS".
    const std::string& code() const { return code_; }

    // The message as catalogue phrases (core/phrase.hpp), when it was made from
    // them, so a front end can show it in the student's language.
    const Sentence& said() const { return said_; }
    Error&& with_said(Sentence s) && {
        said_ = std::move(s);
        return std::move(*this);
    }

    // One line: "<where>: <message> [<code>]", then the hint on a second line.
    std::string describe() const;

private:
    ErrorKind kind_;
    std::string message_;
    Location where_;
    std::string hint_;
    std::string code_;
    Sentence said_;
};

}  // namespace wb
