// runtime/host/host_build.cpp — nvcc builds of host steps, cached, with diagnostics on the student's lines.
//
// A file with an #include that compile/include_policy.hpp refuses is not built at all.
#include "host/host_build.hpp"

#include "core/disk_cache.hpp"
#include "core/error.hpp"
#include "compile/host_library.hpp"
#include "compile/include_policy.hpp"
#include "compile/nvrtc.hpp"
#include "host/host_split.hpp"

#include <chrono>
#include <optional>
#include <sstream>

namespace fs = std::filesystem;

namespace wb {

namespace {

fs::path host_include_dir() { return headers_on_disk(host_step_headers(), "host-include"); }

std::vector<std::string> split_lines(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string line;
    while (std::getline(ss, line)) out.push_back(line);
    return out;
}

// A file name in a diagnostic may be the student's origin, a path ending in
// it, or one of nvcc's temporary files ("tmpxft_..._t.cudafe1.cpp").
bool names_origin(const std::string& file, const std::string& origin) {
    if (file == origin) return true;
    return file.size() > origin.size() && file.compare(file.size() - origin.size(), origin.size(), origin) == 0 &&
           file[file.size() - origin.size() - 1] == '/';
}

}  // namespace

int HostStepBuild::error_count() const {
    int n = 0;
    for (const auto& d : diagnostics) n += d.severity == Severity::Error;
    return n;
}

fs::path find_nvcc() {
    fs::path nvcc = find_toolkit_program("nvcc");
    if (nvcc.empty())
        throw Error(ErrorKind::Compile, "nvcc was not found (looked in the CUDA Toolkit's bin/ and on PATH); host steps are built by the CUDA Toolkit's nvcc",
                    {}, "install the CUDA Toolkit's compiler (nvcc) or set CUDA_HOME to the toolkit's folder");
    return nvcc;
}

std::vector<Diagnostic> parse_nvcc_log(const std::string& log, const std::string& origin) {
    std::vector<Diagnostic> out;
    // The front end's "file(12): error: ..." with source echo and caret, as NVRTC's.
    for (Diagnostic& d : parse_nvrtc_log(log)) {
        if (!names_origin(d.file, origin)) continue;
        d.file = origin;
        out.push_back(std::move(d));
    }
    // The host compiler's "file:12:5: error: ..." (host code the front end let through).
    for (Diagnostic& d : parse_gcc_log(log)) {
        if (!names_origin(d.file, origin)) continue;
        d.file = origin;
        out.push_back(std::move(d));
    }
    // The linker names no line of ours; ptxas and nvlink name a kernel.
    for (const std::string& line : split_lines(log)) {
        Diagnostic d;
        d.file = origin;
        if (auto at = line.find("undefined reference to "); at != std::string::npos)
            d.message = line.substr(at) + ": run() calls a function that is declared but never defined, or a library the lesson does not link";
        else if (line.rfind("ptxas error", 0) == 0 || line.rfind("ptxas fatal", 0) == 0 || line.rfind("nvlink error", 0) == 0)
            d.message = line;
        else
            continue;
        out.push_back(std::move(d));
    }
    return out;
}

namespace {

// The split build (host_split.hpp); nullopt where it cannot be made or fails,
// and the file is built whole.
// `failed`, when a part did not compile, is that build with its diagnostics:
// what is reported where there is no nvcc to build the file whole.
std::optional<HostStepBuild> build_split(const SourceText& source, const HostSpec& host, const std::string& arch,
                                         const std::string& origin, std::string& why,
                                         std::optional<HostStepBuild>& failed) {
    const HostSplit split = split_host_step(source.text);
    if (!split.ok) {
        why = split.why;
        return std::nullopt;
    }
    HostStepBuild build;
    build.arch = arch;
    build.split = true;
    if (!split.device.empty()) {
        CompileOptions options;
        options.arch = arch;
        options.entries = split.kernels;
        const CompileResult kernels = compile_cuda(SourceText{split.device, origin, ""}, options);
        if (!kernels.ok || !kernels.is_cubin) {
            why = "its kernels did not compile apart";
            failed = build;
            failed->split = false;
            failed->diagnostics = kernels.diagnostics;
            failed->log = kernels.log;
            return std::nullopt;
        }
        for (const auto& k : split.kernels) {
            const auto lowered = kernels.lowered_names.find(k);
            if (lowered == kernels.lowered_names.end()) {
                why = "kernel '" + k + "' has no lowered name";
                return std::nullopt;
            }
            build.kernels_lowered.push_back(lowered->second);
        }
        build.kernels_image = kernels.image;
        for (const auto& d : kernels.diagnostics) build.diagnostics.push_back(d);
        build.seconds += kernels.seconds;
        build.command = kernels.options;
    }
    const std::vector<std::string> flags = host_split_flags(host.libraries);
    const std::string tu = "#include \"wb_host.h\"\n" + host_split_prelude(split.kernels.size()) + "#line 1 \"" +
                           origin + "\"\n" + split.host + (split.host.empty() || split.host.back() != '\n' ? "\n" : "");
    HostLibrary lib;
    try {
        lib = build_host_library(tu, flags, CacheKind::HostStep,
                                 "wb-host-split-1-" + nvrtc_headers_digest(host_step_headers()));
    } catch (const Error& e) {  // no host compiler: nvcc brings its own
        why = e.what();
        return std::nullopt;
    }
    for (Diagnostic& d : parse_gcc_log(lib.log))
        if (names_origin(d.file, origin)) {
            d.file = origin;
            build.diagnostics.push_back(std::move(d));
        }
    if (!lib.ok) {
        why = "its host code did not compile apart";
        failed = build;
        failed->split = false;
        failed->log = lib.log;
        if (failed->error_count() == 0) {
            Diagnostic d;
            d.file = origin;
            d.message = "the host compiler failed: " + lib.log;
            failed->diagnostics.push_back(std::move(d));
        }
        return std::nullopt;
    }
    build.ok = true;
    build.library = lib.library;
    build.log = lib.log;
    build.from_cache = lib.from_cache && build.seconds == 0;
    build.seconds += lib.seconds;
    build.command.insert(build.command.begin(), lib.command.begin(), lib.command.end());
    return build;
}

}  // namespace

std::vector<std::string> host_split_flags(const std::vector<std::string>& libraries) {
    const fs::path lib_dir = cuda_home() / "lib64";
    std::vector<std::string> flags = {"-shared", "-fPIC", "-O2", "-std=c++17", "-I" + (cuda_home() / "include").string(),
                                      "-I" + host_include_dir().string(), "-Wl,--no-undefined", "-L" + lib_dir.string(),
                                      "-Wl,-rpath," + lib_dir.string()};
    // The libraries come before the source on the command line
    // (build_host_library), so they are kept even where the linker drops a
    // library that nothing before it needs (Ubuntu's default --as-needed).
    flags.push_back("-Wl,--push-state,--no-as-needed");
    for (const auto& l : libraries) flags.push_back("-l" + l);
    flags.push_back("-lcudart");
    flags.push_back("-Wl,--pop-state");
    return flags;
}

LibraryCompiler nvcc_library_compiler() {
    const fs::path nvcc = find_nvcc();
    LibraryCompiler compiler;
    compiler.command = {nvcc.string()};
    const auto version = tool_version(compiler.command);
    if (!version) throw Error(ErrorKind::Compile, nvcc.string() + " --version failed: nvcc does not run", {},
                              "check the CUDA Toolkit's installation");
    compiler.version = *version + nvrtc_headers_digest(host_step_headers());
    compiler.source_suffix = ".cu";
    return compiler;
}

std::vector<std::string> nvcc_flags(const std::string& arch, const std::vector<std::string>& libraries) {
    const fs::path lib_dir = find_nvcc().parent_path().parent_path() / "lib64";
    std::vector<std::string> flags = {"-shared", "-Xcompiler", "-fPIC", "-lineinfo", "-O2", "-std=c++17",
                                      "-arch=" + arch, "-cudart", "shared", "-Xlinker", "--no-undefined",
                                      "-Xlinker", "-rpath," + lib_dir.string(), "-I" + host_include_dir().string()};
    for (const auto& l : libraries) flags.push_back("-l" + l);
    return flags;
}

HostStepBuild build_host_step(const SourceText& source, const HostSpec& host, const std::string& arch) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const std::string origin = source.origin.empty() ? "host.cu" : fs::path(source.origin).filename().string();
    // An include from outside the toolkit, the workbook's headers and the
    // system's: refused, and neither the split build nor nvcc runs.
    std::vector<std::string> embedded;
    for (const auto& h : host_step_headers()) embedded.emplace_back(h.name);
    if (auto refused = refused_includes(source.text, origin, embedded); !refused.empty()) {
        HostStepBuild build;
        build.arch = arch;
        build.diagnostics = refusal_diagnostics(refused);
        return build;
    }
    std::string whole_why;
    std::optional<HostStepBuild> failed;
    if (std::optional<HostStepBuild> split = build_split(source, host, arch, origin, whole_why, failed)) return *split;
    HostStepBuild build;
    build.arch = arch;
    build.whole_why = whole_why;
    if (failed && find_toolkit_program("nvcc").empty()) {
        // No nvcc to build it whole: the split build's own messages stand.
        failed->whole_why = whole_why;
        failed->seconds = std::chrono::duration<double>(Clock::now() - start).count();
        return *failed;
    }

    const LibraryCompiler compiler = nvcc_library_compiler();
    const std::vector<std::string> flags = nvcc_flags(arch, host.libraries);

    // wb_host.h first; then the student's file, on its own name and lines.
    std::string tu = "#include \"wb_host.h\"\n#line 1 \"" + origin + "\"\n" + source.text;
    if (tu.back() != '\n') tu += '\n';
    const HostLibrary lib = build_host_library(tu, flags, CacheKind::HostStep, "wb-host-step-1", &compiler);
    build.command = lib.command;
    build.from_cache = lib.from_cache;
    build.log = lib.log;
    build.diagnostics = parse_nvcc_log(lib.log, origin);
    if (lib.ok) {
        build.ok = true;
        build.library = lib.library;
    } else if (build.error_count() == 0) {
        Diagnostic d;
        d.file = origin;
        d.message = "nvcc failed" + std::string(lib.exit_code < 0 ? " (killed by a signal)" : "") + ": " + lib.log;
        build.diagnostics.push_back(std::move(d));
    }
    build.seconds = lib.from_cache ? 0 : std::chrono::duration<double>(Clock::now() - start).count();
    return build;
}

}  // namespace wb
