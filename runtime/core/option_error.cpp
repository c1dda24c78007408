// runtime/core/option_error.cpp — see option_error.hpp.
#include "core/option_error.hpp"

namespace wb {

std::string option_error_in_our_words(const std::string& what, bool argument_mismatch) {
    const auto colon = what.find(": ");
    if (argument_mismatch && colon != std::string::npos && what.rfind("--", 0) == 0 && what.size() > 8 &&
        what.compare(what.size() - 8, 8, " missing") == 0)
        return what.substr(0, colon) + " needs a value";
    return what;
}

}  // namespace wb
