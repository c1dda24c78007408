// tests/unit/diagnostics_test.cpp — the NVRTC and GCC log parsers, on real logs.
//
// Every log below was produced by NVRTC 13.0 or g++ 12 (LC_ALL=C) on this
// project's machine, copied verbatim, so the tests pin the formats the
// parsers meet in practice rather than formats we imagine.
#include "compile/diagnostics.hpp"

#include <gtest/gtest.h>

using namespace wb;

namespace {

// NVRTC 13.0: an undefined identifier on line 3 and an unused variable on line 4.
const char* kNvrtcErrorAndWarning = R"(kernel.cu(3): error: identifier "b" is undefined
    a[i] = b[i] + 1;
           ^

kernel.cu(4): warning #177-D: variable "unused" was declared but never referenced
    int unused = 3;
        ^

Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"

1 error detected in the compilation of "kernel.cu".
)";

// NVRTC 13.0: the source is indented with tabs; the caret line keeps them.
const char* kNvrtcTabs = "tab.cu(3): error: identifier \"zz\" is undefined\n"
                         "  \t\ta[0] = zz;\n"
                         "  \t\t       ^\n"
                         "\n"
                         "tab.cu(2): warning #177-D: variable \"x\" was declared but never referenced\n"
                         "  \tint x = 1;\n"
                         "  \t    ^\n"
                         "\n"
                         "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
                         "\n"
                         "1 error detected in the compilation of \"tab.cu\".\n";

// NVRTC 13.0: an error inside a template, with the instantiation that caused it.
const char* kNvrtcInstantiation = R"(t.cu(1): error: name followed by "::" must be a class or namespace name
  template<typename T> __global__ void k(T* a) { a[0] = T::foo; }
                                                        ^
          detected during instantiation of "void k(T *) [with T=float]" at line 2

1 error detected in the compilation of "t.cu".
)";

// NVRTC 13.0: a missing header is a catastrophic error.
const char* kNvrtcCatastrophic = R"(inc.cu(1): catastrophic error: cannot open source file "nosuch.h"
  #include <nosuch.h>
                     ^

1 catastrophic error detected in the compilation of "inc.cu".
Compilation terminated.
)";

// NVRTC 13.0: a name expression for a kernel that is not in the source.
const char* kNvrtcNameMap = R"(__nv_name_map(3): error: identifier "vector_add2" is undefined
  #pragma nv_mangled_name vector_add2
                          ^

__nv_name_map(3): error: Error in parsing name expression for lowered name lookup. Input name expression was: " vector_add2"
  #pragma nv_mangled_name vector_add2
                          ^

2 errors detected in the compilation of "cxx.cu".
)";

// NVRTC 13.0, NVRTC_ERROR_INVALID_OPTION: no location at all.
const char* kNvrtcBadOption = "nvrtc: error: unrecognized option --bogus-option found\n";

// g++ 12, LC_ALL=C, on a TU with `#line 1 "01_vector_add/reference.cpp"` and
// `#line 1 "<generated trampoline>"` (no source echo: the files do not exist).
const char* kGccLog = R"(01_vector_add/reference.cpp: In function 'void ref(const float*, float*, int)':
01_vector_add/reference.cpp:2:45: error: 'undefined_q' was not declared in this scope
01_vector_add/reference.cpp:3:7: warning: unused variable 'unused' [-Wunused-variable]
<generated trampoline>: In function 'void wb_reference_entry_1234(void**)':
<generated trampoline>:1:57: error: cannot convert 'double*' to 'const float*'
01_vector_add/reference.cpp:1:23: note:   initializing argument 1 of 'void ref(const float*, float*, int)'
)";

// g++ 12 on a real file, with the source echo and gutter it prints then.
const char* kGccWithEcho = R"(ref.cpp: In function 'void f(int*)':
ref.cpp:2:12: error: expected ';' before '}' token
    2 |   p[0] = 1
      |           ^
      |           ;
    3 | }
      | ~
ref.cpp:7: warning: ignoring '#pragma omp parallel' [-Wunknown-pragmas]
In file included from ref.cpp:1:
inc.h:4:1: fatal error: missing.h: No such file or directory
compilation terminated.
/usr/bin/ld: /tmp/cc0q6iBV.o: in function `g':
l.cpp:(.text+0x5): undefined reference to `f()'
collect2: error: ld returned 1 exit status
)";

}  // namespace

TEST(DiagnosticsTest, NvrtcErrorAndWarningGetLineAndCaretColumn) {
    auto d = parse_nvrtc_log(kNvrtcErrorAndWarning);
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].file, "kernel.cu");
    EXPECT_EQ(d[0].line, 3);
    EXPECT_EQ(d[0].column, 10);  // "  a[i] = b[i]": 'b' is the 10th byte
    EXPECT_EQ(d[0].severity, Severity::Error);
    EXPECT_EQ(d[0].message, "identifier \"b\" is undefined");
    EXPECT_EQ(d[0].code, "");
    EXPECT_EQ(d[1].line, 4);
    EXPECT_EQ(d[1].column, 7);
    EXPECT_EQ(d[1].severity, Severity::Warning);
    EXPECT_EQ(d[1].code, "177");
    EXPECT_EQ(d[1].message, "variable \"unused\" was declared but never referenced");
    EXPECT_EQ(d[1].to_string(), "kernel.cu:4:7: warning: variable \"unused\" was declared but never referenced");
}

TEST(DiagnosticsTest, NvrtcCaretAfterTabsCountsBytes) {
    auto d = parse_nvrtc_log(kNvrtcTabs);
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].line, 3);
    EXPECT_EQ(d[0].column, 10);  // "\t\ta[0] = zz": 'z' is byte 10
    EXPECT_EQ(d[1].line, 2);
    EXPECT_EQ(d[1].column, 6);
}

TEST(DiagnosticsTest, NvrtcInstantiationBecomesANoteOnTheRequestingLine) {
    auto d = parse_nvrtc_log(kNvrtcInstantiation);
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].severity, Severity::Error);
    EXPECT_EQ(d[0].line, 1);
    EXPECT_EQ(d[0].column, 55);
    EXPECT_EQ(d[1].severity, Severity::Note);
    EXPECT_EQ(d[1].file, "t.cu");
    EXPECT_EQ(d[1].line, 2);
    EXPECT_NE(d[1].message.find("instantiation of \"void k(T *) [with T=float]\""), std::string::npos);
}

TEST(DiagnosticsTest, NvrtcCatastrophicErrorIsAnError) {
    auto d = parse_nvrtc_log(kNvrtcCatastrophic);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].severity, Severity::Error);
    EXPECT_EQ(d[0].line, 1);
    EXPECT_EQ(d[0].column, 20);
    EXPECT_EQ(d[0].message, "cannot open source file \"nosuch.h\"");
}

TEST(DiagnosticsTest, NvrtcNameMapErrorsAreParsedForTheWrapperToRewrite) {
    auto d = parse_nvrtc_log(kNvrtcNameMap);
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].file, "__nv_name_map");
    EXPECT_EQ(d[1].message.substr(d[1].message.size() - 14), "\" vector_add2\"");
}

TEST(DiagnosticsTest, NvrtcErrorWithoutLocation) {
    auto d = parse_nvrtc_log(kNvrtcBadOption);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].file, "");
    EXPECT_EQ(d[0].line, 0);
    EXPECT_EQ(d[0].message, "unrecognized option --bogus-option found");
    EXPECT_EQ(d[0].to_string(), "error: unrecognized option --bogus-option found");
    auto plain = parse_nvrtc_log("error: something went wrong\n");
    ASSERT_EQ(plain.size(), 1u);
    EXPECT_EQ(plain[0].message, "something went wrong");
}

TEST(DiagnosticsTest, NvrtcFileNamesWithFoldersAndParentheses) {
    auto d = parse_nvrtc_log("01_vector_add/kernel (copy).cu(12): error #20: identifier \"x\" is undefined\n"
                             "    x = 1;\n"
                             "    ^\n");
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].file, "01_vector_add/kernel (copy).cu");
    EXPECT_EQ(d[0].line, 12);
    EXPECT_EQ(d[0].column, 3);
    EXPECT_EQ(d[0].code, "20");
}

TEST(DiagnosticsTest, NvrtcEmptyOrUnrecognisedLogGivesNothing) {
    EXPECT_TRUE(parse_nvrtc_log("").empty());
    EXPECT_TRUE(parse_nvrtc_log("some banner\n  indented\n  ^\n").empty());
}

TEST(DiagnosticsTest, GccLogWithLineDirectivesKeepsOriginsAndLines) {
    auto d = parse_gcc_log(kGccLog);
    ASSERT_EQ(d.size(), 4u);
    EXPECT_EQ(d[0].file, "01_vector_add/reference.cpp");
    EXPECT_EQ(d[0].line, 2);
    EXPECT_EQ(d[0].column, 45);
    EXPECT_EQ(d[0].severity, Severity::Error);
    EXPECT_EQ(d[0].message, "'undefined_q' was not declared in this scope");
    EXPECT_EQ(d[1].severity, Severity::Warning);
    EXPECT_EQ(d[1].line, 3);
    EXPECT_EQ(d[2].file, "<generated trampoline>");
    EXPECT_EQ(d[2].message, "cannot convert 'double*' to 'const float*'");
    EXPECT_EQ(d[3].severity, Severity::Note);
    EXPECT_EQ(d[3].line, 1);
    EXPECT_EQ(d[3].to_string(),
              "01_vector_add/reference.cpp:1:23: note:   initializing argument 1 of 'void ref(const float*, float*, int)'");
}

TEST(DiagnosticsTest, GccEchoGuttersAndContextLinesAreSkipped) {
    auto d = parse_gcc_log(kGccWithEcho);
    ASSERT_EQ(d.size(), 4u);
    EXPECT_EQ(d[0].file, "ref.cpp");
    EXPECT_EQ(d[0].line, 2);
    EXPECT_EQ(d[0].column, 12);
    EXPECT_EQ(d[1].line, 7);  // no column given
    EXPECT_EQ(d[1].column, 0);
    EXPECT_EQ(d[1].severity, Severity::Warning);
    EXPECT_EQ(d[1].to_string(), "ref.cpp:7: warning: ignoring '#pragma omp parallel' [-Wunknown-pragmas]");
    EXPECT_EQ(d[2].file, "inc.h");
    EXPECT_EQ(d[2].severity, Severity::Error);  // fatal error
    EXPECT_EQ(d[3].file, "collect2");
    EXPECT_EQ(d[3].line, 0);
    EXPECT_EQ(d[3].message, "ld returned 1 exit status");
}

TEST(DiagnosticsTest, SeverityNames) {
    EXPECT_STREQ(severity_name(Severity::Error), "error");
    EXPECT_STREQ(severity_name(Severity::Warning), "warning");
    EXPECT_STREQ(severity_name(Severity::Note), "note");
}
