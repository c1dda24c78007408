// runtime/core/error.cpp — formatting for wb::Error.
#include "core/error.hpp"

namespace wb {

const char* error_kind_name(ErrorKind kind) {
    switch (kind) {
    case ErrorKind::Io: return "io";
    case ErrorKind::Lesson: return "lesson";
    case ErrorKind::Expression: return "expression";
    case ErrorKind::Compile: return "compile";
    case ErrorKind::Launch: return "launch";
    case ErrorKind::Cuda: return "cuda";
    case ErrorKind::NoDevice: return "no-device";
    case ErrorKind::Reference: return "reference";
    case ErrorKind::Usage: return "usage";
    case ErrorKind::Internal: return "internal";
    }
    return "unknown";
}

std::string Location::to_string() const {
    std::string out = file;
    if (line > 0) {
        out += ":" + std::to_string(line);
        if (column > 0) out += ":" + std::to_string(column);
    }
    if (!json_path.empty()) {
        if (!out.empty()) out += ": ";
        out += json_path;
    }
    return out;
}

static std::string compose(const Location& where, const std::string& message, const std::string& code) {
    std::string out = where.to_string();
    if (!out.empty()) out += ": ";
    out += message;
    if (!code.empty()) out += " [" + code + "]";
    return out;
}

Error::Error(ErrorKind kind, std::string message, Location where, std::string hint, std::string code)
    : std::runtime_error(compose(where, message, code)),
      kind_(kind),
      message_(std::move(message)),
      where_(std::move(where)),
      hint_(std::move(hint)),
      code_(std::move(code)) {}

std::string Error::describe() const {
    std::string out = what();
    if (!hint_.empty()) out += "\n  hint: " + hint_;
    return out;
}

}  // namespace wb
