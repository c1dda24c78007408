// runtime/reference/reference.cpp — builds, caches and loads the CPU reference (see reference.hpp).
//
// The translation unit is the instructor's source under a `#line 1 "<origin>"`
// directive, so the host compiler reports their own file name and line
// numbers, followed by a generated extern "C" trampoline under its own #line
// name, so an error there is recognisably about the signature rather than the
// instructor's code. It is built by compile/host_library.hpp, as the CPU
// emulator's kernels and host steps are.
#include "reference/reference.hpp"

#include "compile/include_policy.hpp"
#include "core/disk_cache.hpp"
#include "core/error.hpp"
#include "core/fs.hpp"
#include "core/sha256.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <system_error>

extern char** environ;

namespace fs = std::filesystem;

namespace wb {

namespace {

constexpr const char* kTrampolineFile = "<generated trampoline>";

// -O3 -march=native: the reference runs on the machine that builds it, and a
// GPU's speed-up should be over good CPU code. -ffp-contract=off keeps GCC
// from contracting a*b+c into FMAs (its default for C++, -std=c++17 too), so
// the reference's floating-point results stay those of the source, the same
// on every machine. -fopenmp lets a reference use the cores with
// "#pragma omp parallel for".
const std::vector<std::string> kFlags = {"-std=c++17", "-O3", "-march=native", "-ffp-contract=off", "-fopenmp", "-shared", "-fPIC",
                                         "-fdiagnostics-color=never",
                                         // Report a missing function at build time, with the compiler's
                                         // words, instead of as a dlopen failure later.
                                         "-Wl,--no-undefined"};

Location file_location(const fs::path& p) {
    Location where;
    where.file = p.string();
    return where;
}


bool is_identifier_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_identifier_char(char c) { return is_identifier_start(c) || (c >= '0' && c <= '9'); }

// A plain or namespace-qualified C++ name; anything else could not name a
// function and would be pasted into generated code.
bool is_qualified_name(const std::string& s) {
    std::size_t i = 0;
    if (s.rfind("::", 0) == 0) i = 2;
    for (;;) {
        if (i >= s.size() || !is_identifier_start(s[i])) return false;
        while (i < s.size() && is_identifier_char(s[i])) ++i;
        if (i == s.size()) return true;
        if (s.compare(i, 2, "::") != 0) return false;
        i += 2;
    }
}

std::string arg_cpp_type(const Arg& a) {
    std::string t(dtype_cpp_name(a.type));
    return a.kind == Arg::Kind::Buffer ? t + "*" : t;
}

// "buffer a: float*, buffer c: float*, param n: int32_t"
std::string describe_args(const std::vector<Arg>& args) {
    std::string out;
    for (const auto& a : args) {
        if (!out.empty()) out += ", ";
        out += a.kind == Arg::Kind::Buffer ? "buffer " : a.kind == Arg::Kind::Param ? "param " : "value ";
        out += a.name + ": " + arg_cpp_type(a);
    }
    return out;
}

std::string escape_for_line_directive(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '\\' || c == '"') out += '\\';
        if (c == '\n' || c == '\r') c = ' ';
        out += c;
    }
    return out;
}

std::string make_trampoline(const ReferenceSpec& spec, const std::string& symbol) {
    std::string call;
    for (std::size_t i = 0; i < spec.args.size(); ++i) {
        if (i) call += ", ";
        call += "*(" + arg_cpp_type(spec.args[i]) + "*)a[" + std::to_string(i) + "]";
    }
    return "extern \"C\" void " + symbol + "(void** a) { " + spec.entry + "(" + call + "); }\n";
}

// Maps the compiler's diagnostics onto what the instructor wrote: errors in
// their file stay as they are; errors in the trampoline become one sentence
// about the signature, with the compiler's own words after it.
std::vector<Diagnostic> map_diagnostics(std::vector<Diagnostic> diags, const ReferenceSpec& spec,
                                        const std::string& origin) {
    std::vector<Diagnostic> out;
    std::optional<std::size_t> signature_error;
    for (auto& d : diags) {
        if (d.file == "collect2" && signature_error) continue;
        if (d.file != kTrampolineFile) {
            // A note in the instructor's file right after a trampoline error
            // usually says which declaration was tried: locate the error there.
            if (signature_error && d.severity == Severity::Note && d.file == origin && d.line > 0 &&
                out[*signature_error].line == 0) {
                out[*signature_error].line = d.line;
                out[*signature_error].column = d.column;
            }
            out.push_back(std::move(d));
            continue;
        }
        if (d.severity != Severity::Error) continue;
        if (signature_error) {
            out[*signature_error].message += "; " + d.message;
            continue;
        }
        Diagnostic friendly;
        friendly.file = origin;
        friendly.severity = Severity::Error;
        if (d.message.find("was not declared in this scope") != std::string::npos ||
            d.message.find("undeclared identifier") != std::string::npos ||
            d.message.find("has not been declared") != std::string::npos) {
            friendly.message = "the reference function '" + spec.entry + "' was not found in " + origin +
                               " (the lesson's reference.entry names it): " + d.message;
        } else {
            friendly.message = "the reference '" + spec.entry + "' does not match the launch arguments (" +
                               describe_args(spec.args) + "): " + d.message;
        }
        out.push_back(std::move(friendly));
        signature_error = out.size() - 1;
    }
    return out;
}

// The linker names no line: "x.o:(.text+0x5): undefined reference to `f()'".
// Each becomes an error on the instructor's file, replacing collect2's
// "ld returned 1 exit status", which says nothing they can act on.
void add_linker_errors(std::vector<Diagnostic>& diags, const std::string& log, const std::string& origin) {
    std::stringstream ss(log);
    std::string line;
    bool any = false;
    while (std::getline(ss, line)) {
        std::size_t at = line.find("undefined reference to ");
        if (at == std::string::npos) continue;
        Diagnostic d;
        d.file = origin;
        d.message = line.substr(at) + ": the reference calls a function that is declared but never defined";
        diags.push_back(std::move(d));
        any = true;
    }
    if (any)
        std::erase_if(diags, [](const Diagnostic& d) { return d.file == "collect2"; });
}

}  // namespace

const std::vector<std::string>& reference_library_flags() { return kFlags; }

std::string reference_compiler_summary(const ReferenceBuild& build) {
    const std::vector<std::string>& cmd = build.command;
    std::size_t at = 0;
    if (cmd.size() > 1 && fs::path(cmd[0]).filename() == "ccache") at = 1;
    std::string out = cmd.size() > at ? fs::path(cmd[at]).filename().string() : std::string("c++");
    const std::vector<std::string>& flags = cmd.empty() ? kFlags : cmd;
    for (const char* shaping : {"-O3", "-march=native", "-ffp-contract=off", "-fopenmp"})
        if (std::find(flags.begin(), flags.end(), std::string(shaping)) != flags.end()) out += std::string(" ") + shaping;
    return out;
}

ReferenceBuild build_reference(const ReferenceSpec& spec) {
    using Clock = std::chrono::steady_clock;
    auto start = Clock::now();
    const std::string origin = spec.source.origin.empty() ? "<inline>" : spec.source.origin;

    ReferenceBuild build;
    if (!is_qualified_name(spec.entry)) {
        Diagnostic d;
        d.file = origin;
        d.message = "reference entry '" + spec.entry + "' is not a C++ function name";
        build.diagnostics.push_back(std::move(d));
        return build;
    }

    // The symbol depends only on the entry and the argument types, so the
    // same reference keeps its name across edits of its body.
    Sha256 sig;
    sig.update_field(spec.entry);
    for (const auto& a : spec.args) sig.update_field(arg_cpp_type(a));
    build.symbol = "wb_reference_entry_" + sig.finish_hex().substr(0, 8);
    build.wrapper_source = make_trampoline(spec, build.symbol);
    // An include from outside the toolkit and the system's headers: refused, never compiled.
    if (auto refused = refused_includes(spec.source.text, origin); !refused.empty()) {
        build.diagnostics = refusal_diagnostics(refused);
        return build;
    }

    std::string tu = "#include <cstdint>\n#include <cmath>\n#include <cstddef>\n#include <algorithm>\n";
    tu += "#line 1 \"" + escape_for_line_directive(origin) + "\"\n";
    tu += spec.source.text;
    if (!spec.source.text.empty() && spec.source.text.back() != '\n') tu += '\n';
    tu += "#line 1 \"" + std::string(kTrampolineFile) + "\"\n";
    tu += build.wrapper_source;

    HostLibrary lib = build_host_library(tu, kFlags, CacheKind::Reference, "wb-reference-cache-1");
    build.command = lib.command;
    build.from_cache = lib.from_cache;
    if (lib.from_cache) {
        build.ok = true;
        build.library = lib.library;
        return build;
    }
    build.log = lib.log;
    build.diagnostics = map_diagnostics(parse_gcc_log(lib.log), spec, origin);
    add_linker_errors(build.diagnostics, lib.log, origin);
    if (lib.ok) {
        build.ok = true;
        build.library = lib.library;
    } else {
        bool has_error = false;
        for (const auto& d : build.diagnostics) has_error |= d.severity == Severity::Error;
        if (!has_error) {
            Diagnostic d;
            d.file = origin;
            d.message = "the host compiler failed" + std::string(lib.exit_code < 0 ? " (killed by a signal)" : "") + ": " +
                        lib.log;
            build.diagnostics.push_back(std::move(d));
        }
    }
    build.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return build;
}

LoadedReference::LoadedReference(const ReferenceBuild& build) {
    if (!build.ok) {
        std::string first = build.diagnostics.empty() ? std::string("no diagnostics")
                                                      : build.diagnostics.front().to_string();
        throw Error(ErrorKind::Reference, "the CPU reference did not build: " + first);
    }
    ::dlerror();
    handle_ = ::dlopen(build.library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
        const char* why = ::dlerror();
        throw Error(ErrorKind::Reference, std::string("cannot load the CPU reference: ") + (why ? why : "unknown"),
                    file_location(build.library));
    }
    void* sym = ::dlsym(handle_, build.symbol.c_str());
    if (!sym) {
        const char* why = ::dlerror();
        ::dlclose(handle_);
        handle_ = nullptr;
        throw Error(ErrorKind::Reference,
                    "the CPU reference library has no entry " + build.symbol + ": " + (why ? why : "unknown"),
                    file_location(build.library));
    }
    entry_ = reinterpret_cast<void (*)(void**)>(sym);
}

LoadedReference::~LoadedReference() {
    if (handle_) ::dlclose(handle_);
}

LoadedReference::LoadedReference(LoadedReference&& other) noexcept : handle_(other.handle_), entry_(other.entry_) {
    other.handle_ = nullptr;
    other.entry_ = nullptr;
}

LoadedReference& LoadedReference::operator=(LoadedReference&& other) noexcept {
    if (this != &other) {
        if (handle_) ::dlclose(handle_);
        handle_ = other.handle_;
        entry_ = other.entry_;
        other.handle_ = nullptr;
        other.entry_ = nullptr;
    }
    return *this;
}

double LoadedReference::run(void** args) const {
    if (!entry_) throw Error(ErrorKind::Internal, "LoadedReference::run on an empty (moved-from) reference");
    auto start = std::chrono::steady_clock::now();
    entry_(args);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace wb
