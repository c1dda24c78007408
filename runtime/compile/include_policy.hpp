// runtime/compile/include_policy.hpp — which #include a lesson's or a student's source may have.
//
// Every compiler the workbook runs on such a source (NVRTC for kernels, the
// host compiler for the CPU emulator and the CPU reference, the host compiler
// and nvcc for host steps) asks this first, and does not run when it refuses:
// so no file outside the lesson's reach is read, and no byte of one reaches a
// compile log. An include may name
//   - in <>: any header on the compiler's search path (the CUDA Toolkit's, the
//     workbook's built-in ones, the system's), but not by an absolute name or
//     one with '..';
//   - in "": a header of CUDA Workbook (NVRTC's standard headers, the
//     emulator's and host steps' headers, passed as `embedded`), or a file
//     under the toolkit's include folders or the system's (/usr/include,
//     /usr/local/include, /usr/lib/gcc), again never absolute or with '..'.
// A name made by a macro (#include NAME) cannot be checked and is refused. A
// lesson's code is one file: no compiler is given the lesson's folder, so a
// header of its own would not be found (and its edits would not reach the
// compile caches, which key on the source's text).
//
// Every #include is looked at, those inside #if blocks that the compiler would
// skip too, after line splices (backslash-newline), and with `%:` and `??=`
// taken as `#`; comments and string literals (raw ones included) are not code.
#pragma once

#include "compile/diagnostics.hpp"
#include "core/phrase.hpp"

#include <string>
#include <vector>

namespace wb {

// Diagnostic::code of a refused #include.
inline constexpr const char* kIncludeRefused = "include-refused";

struct IncludeRefusal {
    Diagnostic diagnostic;  // an error at the #include's line, code kIncludeRefused, the English of `said`
    Sentence said;          // the same in catalogue phrases: "#include \"/etc/passwd\" is refused: ..."
};

// Every #include of `text` that the rule above refuses, in order, as errors in
// `origin` (the file name the student sees). `embedded` names the headers the
// caller's compiler is given besides NVRTC's built-in ones ("cuda_emu.h",
// "wb_host.h"...).
std::vector<IncludeRefusal> refused_includes(const std::string& text, const std::string& origin,
                                             const std::vector<std::string>& embedded = {});

// The refusals' diagnostics alone.
std::vector<Diagnostic> refusal_diagnostics(const std::vector<IncludeRefusal>& refusals);

}  // namespace wb
