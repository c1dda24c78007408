// runtime/core/option_error.hpp — a command-line option error in the workbook's
// words, for both front ends (the app's and the CLI's parsers are CLI11's).
#pragma once
#include <string>

namespace wb {

// CLI11 says "--step: 1 required TEXT missing" for an option given without its
// value (an ArgumentMismatch); that is said as "--step needs a value". Other
// errors keep CLI11's words, which name the option.
std::string option_error_in_our_words(const std::string& what, bool argument_mismatch);

}  // namespace wb
