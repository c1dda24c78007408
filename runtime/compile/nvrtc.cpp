// runtime/compile/nvrtc.cpp — compiling lesson kernels with NVRTC (see nvrtc.hpp).
//
// One call builds the option list, looks the result up in the cache, and on a
// miss runs NVRTC on an RAII-owned nvrtcProgram. Kernel names are registered
// as name expressions so a student may write either extern "C" kernels or
// ordinary C++ ones (even template instantiations like "scale<float>"); the
// driver is later given the lowered (mangled) name. A name that is not in the
// source makes NVRTC fail with errors about a file called "__nv_name_map",
// which would baffle a student, so those are rewritten into one sentence
// naming the kernel that was not found. Every program also gets the standard
// headers NVRTC lacks (<cmath>, <cfloat>, <cstdint>...), from nvrtc_include/;
// <cmath> in its fast form unless the source needs libcu++'s.
#include "compile/nvrtc.hpp"

#include "core/sha256.hpp"

#include "compile/cache.hpp"
#include "compile/remote_build.hpp"
#include "compile/include_policy.hpp"
#include "core/error.hpp"
#include "core/fs.hpp"

#include <nvrtc.h>

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string_view>
#include <system_error>

namespace fs = std::filesystem;

namespace wb {

namespace {

constexpr std::size_t kMaxLogBytes = std::size_t(1) << 20;
constexpr const char* kNameMapFile = "__nv_name_map";
// Selects libcu++'s form of <cmath> and <math.h> (nvrtc_include/cmath).
constexpr const char* kCmathFromLibcuxx = "-DWB_CMATH_FROM_LIBCUXX";

[[noreturn]] void throw_nvrtc(nvrtcResult rc, const std::string& what, const std::string& log = {}) {
    std::string message = what + " failed: " + nvrtcGetErrorString(rc);
    if (!log.empty()) message += "\n" + log;
    throw Error(ErrorKind::Compile, message, {}, {}, nvrtcGetErrorString(rc));
}

void check(nvrtcResult rc, const char* what) {
    if (rc != NVRTC_SUCCESS) throw_nvrtc(rc, what);
}

// NVRTC opens libnvrtc-builtins.so.<major>.<minor> by name at its first compile, so the loader
// finds it only where the toolkit's lib folder is on its path: NVIDIA's packages add the folder to
// ld.so.conf, but a toolkit unpacked elsewhere, or bound into a container or chroot, is reached
// through our RUNPATH alone, which NVRTC's own dlopen does not use. Loading the builtins first,
// from the folder the loaded libnvrtc came from, makes that later dlopen find them loaded (glibc
// matches an already loaded library by its soname). Kept for the process, as NVRTC keeps them.
void load_nvrtc_builtins_beside_nvrtc() {
    static std::once_flag once;
    std::call_once(once, [] {
        int major = 0, minor = 0;
        if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return;
        const std::string name = "libnvrtc-builtins.so." + std::to_string(major) + "." + std::to_string(minor);
        if (dlopen(name.c_str(), RTLD_NOW | RTLD_NOLOAD)) return;  // already loaded
        Dl_info info{};
        void* symbol = dlsym(RTLD_DEFAULT, "nvrtcVersion");
        if (!symbol || !dladdr(symbol, &info) || !info.dli_fname) return;
        const fs::path beside = fs::path(info.dli_fname).parent_path() / name;
        // If it is not there either, NVRTC's own lookup runs as before and reports what it missed.
        if (fs::exists(beside)) dlopen(beside.c_str(), RTLD_NOW | RTLD_GLOBAL);
    });
}

// Owns an nvrtcProgram; destroyed on every path, exceptions included.
class Program {
public:
    Program(const std::string& text, const std::string& name) {
        load_nvrtc_builtins_beside_nvrtc();
        std::vector<const char*> contents, names;
        for (const auto& h : nvrtc_builtin_headers()) {
            names.push_back(h.name);
            contents.push_back(h.text);
        }
        check(nvrtcCreateProgram(&prog_, text.c_str(), name.c_str(), int(names.size()), contents.data(), names.data()),
              "nvrtcCreateProgram");
    }
    ~Program() {
        if (prog_) nvrtcDestroyProgram(&prog_);
    }
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;
    nvrtcProgram get() const { return prog_; }

private:
    nvrtcProgram prog_ = nullptr;
};

std::string program_log(nvrtcProgram prog) {
    std::size_t size = 0;
    check(nvrtcGetProgramLogSize(prog, &size), "nvrtcGetProgramLogSize");
    std::string log(size, '\0');
    if (size > 0) check(nvrtcGetProgramLog(prog, log.data()), "nvrtcGetProgramLog");
    while (!log.empty() && log.back() == '\0') log.pop_back();
    return log;
}

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
    if (s.rfind("nvrtc: error: ", 0) == 0) s.erase(0, 14);
    return s;
}

struct ParsedArch {
    bool real = false;  // sm_XX (cubin) rather than compute_XX (PTX)
    int number = 0;
};

std::optional<ParsedArch> parse_arch(const std::string& arch) {
    ParsedArch out;
    std::string digits;
    if (arch.rfind("sm_", 0) == 0) {
        out.real = true;
        digits = arch.substr(3);
    } else if (arch.rfind("compute_", 0) == 0) {
        digits = arch.substr(8);
    } else {
        return std::nullopt;
    }
    // Arch-specific ("sm_90a") and family ("sm_100f") variants share the number.
    if (!digits.empty() && (digits.back() == 'a' || digits.back() == 'f')) digits.pop_back();
    if (digits.empty() || digits.size() > 4 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    out.number = std::stoi(digits);
    return out;
}

std::string supported_list() {
    std::string list;
    for (int a : nvrtc_supported_archs()) {
        if (!list.empty()) list += ", ";
        list += "sm_" + std::to_string(a);
    }
    return list;
}

bool has_toolkit_headers(const fs::path& root) {
    std::error_code ec;
    return !root.empty() && fs::is_regular_file(root / "include" / "cuda_runtime.h", ec);
}

// The entry a __nv_name_map diagnostic is about, when its text names one.
std::string entry_named_in(const Diagnostic& d, const std::vector<std::string>& entries) {
    for (const auto& e : entries) {
        if (d.message.find("\"" + e + "\"") != std::string::npos ||
            d.message.find("\" " + e + "\"") != std::string::npos)
            return e;
    }
    return {};
}

Diagnostic kernel_not_found(const std::string& entry, const std::string& origin) {
    Diagnostic d;
    d.file = origin;
    d.severity = Severity::Error;
    d.message = "kernel '" + entry +
                "' not found: check the name after __global__ (the lesson launches a kernel of exactly this name)";
    d.code = kEntryNotFound;
    return d;
}

Diagnostic not_a_kernel(const std::string& entry, const std::string& origin) {
    Diagnostic d;
    d.file = origin;
    d.severity = Severity::Error;
    d.message = "'" + entry + "' is not a kernel: the lesson launches it, so declare it __global__ void " + entry +
                "(...)";
    return d;
}

// Replaces NVRTC's errors about its generated "__nv_name_map" file with one
// sentence per kernel name that could not be resolved.
std::vector<Diagnostic> rewrite_name_map_errors(std::vector<Diagnostic> diags,
                                               const std::vector<std::string>& entries,
                                               const std::string& origin) {
    std::vector<Diagnostic> out;
    std::set<std::string> reported;
    bool unattributed = false;
    for (auto& d : diags) {
        if (d.file != kNameMapFile) {
            out.push_back(std::move(d));
            continue;
        }
        std::string entry = entry_named_in(d, entries);
        if (entry.empty()) {
            unattributed = true;
            continue;
        }
        if (!reported.insert(entry).second) continue;
        if (d.message.find("non-__global__") != std::string::npos)
            out.push_back(not_a_kernel(entry, origin));
        else
            out.push_back(kernel_not_found(entry, origin));
    }
    if (unattributed && reported.empty()) {
        Diagnostic d;
        d.file = origin;
        d.message = "one of the kernels the lesson launches (";
        for (std::size_t i = 0; i < entries.size(); ++i) d.message += (i ? ", '" : "'") + entries[i] + "'";
        d.message += ") was not found: check the names after __global__";
        out.push_back(std::move(d));
    }
    return out;
}

std::vector<std::string> build_options(const CompileOptions& options) {
    fs::path home = cuda_home();
    std::vector<std::string> opts;
    opts.push_back("--std=" + options.std);
    if (options.line_info) opts.push_back("-lineinfo");
    opts.push_back("-I" + (home / "include").string());
    // CUDA 13 moved CUB, Thrust and libcu++ under include/cccl.
    std::error_code ec;
    if (fs::is_directory(home / "include" / "cccl", ec)) opts.push_back("-I" + (home / "include" / "cccl").string());
    opts.push_back("--gpu-architecture=" + options.arch);
    for (const auto& e : options.extra) opts.push_back(e);
    return opts;
}

// The names a source #includes with <...> or "...", in order.
std::vector<std::string> included_names(const std::string& text) {
    std::vector<std::string> names;
    for (std::size_t at = text.find("#include"); at != std::string::npos; at = text.find("#include", at + 1)) {
        std::size_t open = text.find_first_of("<\"\n", at + 8);
        if (open == std::string::npos || text[open] == '\n') continue;
        std::size_t close = text.find_first_of(">\"\n", open + 1);
        if (close == std::string::npos || text[close] == '\n') continue;
        names.push_back(text.substr(open + 1, close - open - 1));
    }
    return names;
}

// `text` with its comments as spaces (string and character literals kept),
// so that words in them ("the texture", "cudaMemcpy copies...") are not taken
// for identifiers.
std::string without_comments(const std::string& text) {
    std::string out = text;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const char c = out[i];
        if (c == '"' || c == '\'') {
            for (++i; i < out.size() && out[i] != c && out[i] != '\n'; ++i)
                if (out[i] == '\\') ++i;
        } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '/') {
            for (; i < out.size() && out[i] != '\n'; ++i) out[i] = ' ';
        } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '*') {
            const std::size_t end = out.find("*/", i + 2);
            const std::size_t stop = end == std::string::npos ? out.size() : end + 2;
            for (; i < stop; ++i)
                if (out[i] != '\n') out[i] = ' ';
            --i;
        }
    }
    return out;
}

// Whether `source` can need nothing that -minimal leaves out: no identifier
// that starts with cuda, tex or surf, no launch from device code, and no
// include but the built-in standard headers (comments aside). A false "no"
// costs only time.
bool minimal_suffices(const std::string& source, const std::vector<std::string>& opts) {
    for (const auto& o : opts)
        if (o == "-minimal" || o == "--minimal") return false;  // the lesson asked for it itself
    const std::string text = without_comments(source);
    if (text.find("<<<") != std::string::npos) return false;
    auto ident_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (!ident_char(text[i]) || (i > 0 && ident_char(text[i - 1]))) continue;
        const std::string_view rest(text.data() + i, text.size() - i);
        if (rest.rfind("cuda", 0) == 0 || rest.rfind("tex", 0) == 0 || rest.rfind("surf", 0) == 0) return false;
    }
    const auto& builtin = nvrtc_builtin_headers();
    for (std::size_t at = text.find("#include"); at != std::string::npos; at = text.find("#include", at + 1)) {
        std::size_t open = text.find_first_of("<\"\n", at + 8);
        if (open == std::string::npos || text[open] == '\n') return false;
        std::size_t close = text.find_first_of(">\"\n", open + 1);
        if (close == std::string::npos || text[close] == '\n') return false;
    }
    for (const std::string& name : included_names(text))
        if (std::none_of(builtin.begin(), builtin.end(), [&](const NvrtcHeader& h) { return name == h.name; }))
            return false;
    return true;
}

// Whether a failed compile of a source that includes <cmath> or <math.h> may
// pass with libcu++'s form of them (nvrtc_include/cmath): an error names std
// (a std:: name the fast form lacks, or one of its deleted overloads for a
// __half), lies inside a header, or, where the source says `using namespace
// std`, is an undefined identifier. Otherwise the errors are the student's own
// and a second compile, about a second, would only repeat them.
bool libcuxx_cmath_may_help(const CompileResult& r, const SourceText& source) {
    const auto names = included_names(source.text);
    if (std::none_of(names.begin(), names.end(), [](const std::string& n) { return n == "cmath" || n == "math.h"; }))
        return false;
    const std::string origin = source.origin.empty() ? "<inline>" : source.origin;
    const bool uses_std = source.text.find("using namespace std") != std::string::npos;
    for (const auto& d : r.diagnostics) {
        if (d.severity != Severity::Error) continue;
        if (!d.file.empty() && d.file != origin) return true;
        if (d.message.find("\"std") != std::string::npos || d.message.find("std::") != std::string::npos) return true;
        if (uses_std && d.message.find("is undefined") != std::string::npos) return true;
    }
    return false;
}

// Whether a failed -minimal compile may have failed for what -minimal left
// out: an error inside a toolkit header, or one that names a cuda*, tex* or
// surf* identifier. Otherwise the errors are the student's own.
bool minimal_was_the_cause(const CompileResult& r, const SourceText& source) {
    const std::string origin = source.origin.empty() ? "<inline>" : source.origin;
    if (r.diagnostics.empty()) return true;
    for (const auto& d : r.diagnostics) {
        if (d.severity != Severity::Error) continue;
        if (!d.file.empty() && d.file != origin) return true;
        for (const char* p : {"\"cuda", "\"tex", "\"surf", "'cuda", "'tex", "'surf"})
            if (d.message.find(p) != std::string::npos) return true;
    }
    return false;
}

CompileResult run_nvrtc(const SourceText& source, const CompileOptions& options, std::vector<std::string> opts,
                        const ParsedArch& arch) {
    using Clock = std::chrono::steady_clock;
    auto start = Clock::now();
    const std::string origin = source.origin.empty() ? "<inline>" : source.origin;

    CompileResult result;
    result.arch = options.arch;
    result.is_cubin = arch.real;
    result.options = std::move(opts);

    Program prog(source.text, origin);
    for (const auto& entry : options.entries)
        check(nvrtcAddNameExpression(prog.get(), entry.c_str()), "nvrtcAddNameExpression");

    std::vector<const char*> argv;
    argv.reserve(result.options.size());
    for (const auto& o : result.options) argv.push_back(o.c_str());
    nvrtcResult rc = nvrtcCompileProgram(prog.get(), static_cast<int>(argv.size()), argv.data());
    std::string log = program_log(prog.get());

    if (rc == NVRTC_ERROR_INVALID_OPTION)
        throw Error(ErrorKind::Compile, "NVRTC rejected an option: " + trimmed(log), {origin, source.json_path},
                    "check compile.options in the lesson", nvrtcGetErrorString(rc));
    if (rc != NVRTC_SUCCESS && rc != NVRTC_ERROR_COMPILATION) throw_nvrtc(rc, "nvrtcCompileProgram", log);

    result.diagnostics = rewrite_name_map_errors(parse_nvrtc_log(log), options.entries, origin);
    result.ok = rc == NVRTC_SUCCESS;

    if (result.ok) {
        for (const auto& entry : options.entries) {
            const char* lowered = nullptr;
            nvrtcResult lr = nvrtcGetLoweredName(prog.get(), entry.c_str(), &lowered);
            if (lr != NVRTC_SUCCESS || lowered == nullptr) {
                result.ok = false;
                result.diagnostics.push_back(kernel_not_found(entry, origin));
                continue;
            }
            result.lowered_names[entry] = lowered;
        }
    }
    if (result.ok) {
        std::size_t size = 0;
        if (arch.real) {
            check(nvrtcGetCUBINSize(prog.get(), &size), "nvrtcGetCUBINSize");
            result.image.resize(size);
            if (size > 0) check(nvrtcGetCUBIN(prog.get(), result.image.data()), "nvrtcGetCUBIN");
        } else {
            check(nvrtcGetPTXSize(prog.get(), &size), "nvrtcGetPTXSize");
            result.image.resize(size);
            if (size > 0) check(nvrtcGetPTX(prog.get(), result.image.data()), "nvrtcGetPTX");
            while (!result.image.empty() && result.image.back() == '\0') result.image.pop_back();
        }
    }
    if (!result.ok && result.error_count() == 0) {
        // NVRTC failed without a message we could read: show its log as is.
        Diagnostic d;
        d.file = origin;
        d.message = log.empty() ? "compilation failed without a message" : log;
        result.diagnostics.push_back(std::move(d));
    }

    const OmittedDiagnostics dropped = cap_diagnostics(result.diagnostics);
    result.diagnostics_omitted = dropped.count;
    result.omitted_errors = dropped.errors;
    result.omitted_warnings = dropped.warnings;

    if (log.size() > kMaxLogBytes) {
        log.resize(kMaxLogBytes);
        log += "\n[log truncated at 1 MiB by CUDA Workbook]\n";
    }
    result.log = std::move(log);
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
}

}  // namespace

int CompileResult::error_count() const {
    return omitted_errors + static_cast<int>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                                           [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

int CompileResult::warning_count() const {
    return omitted_warnings + static_cast<int>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                                             [](const Diagnostic& d) { return d.severity == Severity::Warning; }));
}

bool nvrtc_option_writes_files(const std::string& option) {
    const std::size_t start = option.find_first_not_of('-');
    if (start == std::string::npos) return false;
    const std::string name = option.substr(start, option.find('=') == std::string::npos ? std::string::npos
                                                                                         : option.find('=') - start);
    for (const char* w : {"time", "fdevice-time-trace", "pch", "create-pch", "use-pch", "pch-dir", "Xnvvm"})
        if (name == w) return true;
    // ptxas's options: only its report of registers and memory (-v).
    if (name == "Xptxas" || name == "ptxas-options") {
        const std::size_t eq = option.find('=');
        const std::string value = eq == std::string::npos ? "" : option.substr(eq + 1);
        return value != "-v" && value != "--verbose";
    }
    return false;
}

CompileResult compile_cuda(const SourceText& source, const CompileOptions& options, CompileCache& cache) {
    auto arch = parse_arch(options.arch);
    if (!arch) {
        throw Error(ErrorKind::Usage,
                    "'" + options.arch + "' is not an architecture name; use sm_XX for a cubin or compute_XX for PTX",
                    {}, "supported by NVRTC " + nvrtc_version() + ": " + supported_list());
    }
    auto archs = nvrtc_supported_archs();
    if (std::find(archs.begin(), archs.end(), arch->number) == archs.end()) {
        throw Error(ErrorKind::Usage,
                    "architecture '" + options.arch + "' is not supported by NVRTC " + nvrtc_version() +
                        "; supported: " + supported_list(),
                    {}, "pick one of the listed sm_XX (cubin) or compute_XX (PTX) targets");
    }

    // The language standard and the options NVRTC would write a file for
    // (a timing table, a precompiled header, ptxas's or NVVM's own options):
    // a lesson may not set them, and a contained worker's builder, which
    // runs this with the cache writable, must never be asked to.
    static const char* const kStds[] = {"c++03", "c++11", "c++14", "c++17", "c++20"};
    if (std::find(std::begin(kStds), std::end(kStds), options.std) == std::end(kStds))
        throw Error(ErrorKind::Usage, "'" + options.std + "' is not a language standard the workbook compiles with", {},
                    "use c++11, c++14, c++17 or c++20");
    for (const auto& e : options.extra)
        if (nvrtc_option_writes_files(e))
            throw Error(ErrorKind::Usage, "the NVRTC option '" + e + "' writes files, which a lesson may not ask for", {},
                        "remove it from the step's compile options");

    // An include from outside the toolkit and the workbook's headers: refused, and NVRTC never reads it.
    if (std::vector<IncludeRefusal> refused = refused_includes(source.text, source.origin.empty() ? "<inline>" : source.origin);
        !refused.empty()) {
        CompileResult result;
        result.arch = options.arch;
        result.is_cubin = arch->real;
        result.diagnostics = refusal_diagnostics(refused);
        const OmittedDiagnostics dropped = cap_diagnostics(result.diagnostics);
        result.diagnostics_omitted = dropped.count;
        result.omitted_errors = dropped.errors;
        result.omitted_warnings = dropped.warnings;
        return result;
    }

    // A contained worker may not write the cache (remote_build.hpp): on a
    // miss, its builder compiles the whole source, variants and all, and
    // stores what passes; its answer is kept in this process's memory too.
    RemoteBuilder* builder = options.use_cache ? remote_builder() : nullptr;
    bool answered_by_builder = false;
    auto compile = [&](std::vector<std::string> opts) {
        std::string key = compile_cache_key(source, options.arch, opts, options.entries);
        if (options.use_cache) {
            if (auto hit = cache.find(key)) {
                hit->image_bytes = hit->image.size();
                return *hit;
            }
        }
        if (builder) {
            answered_by_builder = true;
            CompileResult built = builder->compile(source, options);
            if (built.ok && !built.cache_key.empty()) cache.remember_only(built.cache_key, built);
            built.image_bytes = built.image.size();
            return built;
        }
        CompileResult result = run_nvrtc(source, options, std::move(opts), *arch);
        result.cache_key = key;
        result.image_bytes = result.image.size();
        if (options.use_cache && result.ok) cache.store(key, result);
        return result;
    };

    // The fast <cmath> first; libcu++'s where the source may need it (see libcuxx_cmath_may_help).
    auto compile_with_cmath = [&](std::vector<std::string> opts) {
        CompileResult result = compile(opts);
        if (result.ok || answered_by_builder || !libcuxx_cmath_may_help(result, source)) return result;
        opts.push_back(kCmathFromLibcuxx);
        return compile(std::move(opts));
    };

    std::vector<std::string> opts = build_options(options);
    if (options.minimal && minimal_suffices(source.text, opts)) {
        std::vector<std::string> small = opts;
        small.push_back("-minimal");
        CompileResult result = compile_with_cmath(std::move(small));
        if (result.ok || answered_by_builder || !minimal_was_the_cause(result, source)) return result;
    }
    return compile_with_cmath(std::move(opts));
}

CompileResult compile_cuda(const SourceText& source, const CompileOptions& options) {
    return compile_cuda(source, options, CompileCache::global());
}

CompileOptions step_compile_options(const Step& step, const std::string& arch) {
    CompileOptions o;
    o.arch = arch;
    o.std = step.compile.std;
    o.extra = step.compile.options;
    for (const auto& l : step.launches)
        if (std::find(o.entries.begin(), o.entries.end(), l.entry) == o.entries.end()) o.entries.push_back(l.entry);
    return o;
}

std::string nvrtc_headers_digest(const std::vector<NvrtcHeader>& headers) {
    Sha256 h;
    for (const auto& b : headers) {
        h.update_field(b.name);
        h.update_field(b.text);
    }
    return h.finish_hex();
}

std::string nvrtc_builtin_headers_digest() {
    static const std::string digest = nvrtc_headers_digest(nvrtc_builtin_headers());
    return digest;
}

std::string nvrtc_version() {
    int major = 0, minor = 0;
    check(nvrtcVersion(&major, &minor), "nvrtcVersion");
    return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<int> nvrtc_supported_archs() {
    int count = 0;
    check(nvrtcGetNumSupportedArchs(&count), "nvrtcGetNumSupportedArchs");
    std::vector<int> archs(static_cast<std::size_t>(std::max(count, 0)));
    if (count > 0) check(nvrtcGetSupportedArchs(archs.data()), "nvrtcGetSupportedArchs");
    return archs;
}

fs::path cuda_home() {
    std::vector<fs::path> tried;
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
        if (const char* v = std::getenv(var); v && *v) {
            tried.emplace_back(v);
            if (has_toolkit_headers(v)) return v;
        }
    }
#ifdef WB_CUDA_HOME
    // The toolkit CMake found at build time; it may name the library root
    // (e.g. .../targets/x86_64-linux) or the toolkit root.
    {
        fs::path built(WB_CUDA_HOME);
        for (const fs::path& p : {built, built.parent_path()}) {
            if (p.empty()) continue;
            tried.push_back(p);
            if (has_toolkit_headers(p)) return p;
        }
    }
#endif
    tried.emplace_back("/usr/local/cuda");
    if (has_toolkit_headers("/usr/local/cuda")) return "/usr/local/cuda";
    std::string list;
    for (const auto& p : tried) list += (list.empty() ? "" : ", ") + p.string();
    throw Error(ErrorKind::Compile, "the CUDA Toolkit headers were not found (looked for include/cuda_runtime.h in " +
                                        list + ")",
                {}, "install the CUDA Toolkit or set CUDA_HOME to its folder");
}

fs::path headers_on_disk(const std::vector<NvrtcHeader>& headers, const std::string& folder) {
    static std::mutex m;
    std::lock_guard<std::mutex> lock(m);
    const fs::path d = cache_dir() / folder / nvrtc_headers_digest(headers).substr(0, 16);
    // A contained worker reads the cache only: its builder writes them, when it checks the flags that name them.
    if (remote_builder()) return d;
    std::error_code ec;
    fs::create_directories(d, ec);
    for (const auto& h : headers) {
        const fs::path p = d / h.name;  // "cuda_emu.h", "cooperative_groups/reduce.h"
        if (fs::is_regular_file(p, ec)) continue;
        fs::create_directories(p.parent_path(), ec);
        write_file_atomic(p, h.text, false);
    }
    return d;
}

fs::path find_toolkit_program(const std::string& name) {
    fs::path home;
    try {
        home = cuda_home();
    } catch (const Error&) {
    }
    return find_toolkit_program(name, home);
}

std::string default_arch() {
    auto archs = nvrtc_supported_archs();
    if (archs.empty() || std::find(archs.begin(), archs.end(), 90) != archs.end()) return "sm_90";
    return "sm_" + std::to_string(*std::max_element(archs.begin(), archs.end()));
}

}  // namespace wb
