// runtime/emulate/build.cpp — building a step's kernels for the CPU emulator
// (see emulator.hpp): an include from outside the toolkit, the workbook's
// headers and the system's is refused (compile/include_policy.hpp), what
// cannot run is refused, `extern __shared__` is
// rewritten, one entry per kernel is generated, and the host compiler builds
// the lot after cuda_emu.h into a shared library, through the reference's
// content-hash cache. Its messages come back on the student's lines.
// Loading the library and launching its kernels are emulator.cpp's.
//
// [SECTION] the headers on disk      emulator_headers() written once per content
// [SECTION] build                    refuse, rewrite, generate entries, host compiler
#include "emulate/emulator.hpp"

#include "compile/include_policy.hpp"
#include "compile/nvrtc.hpp"
#include "emulate/refuse.hpp"
#include "emulate/rewrite.hpp"
#include "compile/host_library.hpp"

#include <algorithm>
#include <future>

namespace fs = std::filesystem;

namespace wb {

namespace {

// [SECTION] the headers on disk

// The folder holding cuda_emu.h and its companions, under the cache folder.
fs::path emulator_include_dir() { return headers_on_disk(emulator_headers(), "emulate-include"); }

// [SECTION] build

constexpr const char* kEntriesFile = "<emulator entries>";

// Barriers and warp operations need every thread of a block to be able to
// stop and wait for the others: such kernels run their threads as fibers.
bool needs_fibers(const std::string& text) {
    for (const char* word : {"__syncthreads", "__syncwarp", "__shfl", "__ballot", "__any_sync", "__all_sync",
                             "__uni_sync", "__activemask", "__match_", "cooperative_groups", "this_thread_block",
                             "tiled_partition", "__reduce_"})
        if (text.find(word) != std::string::npos) return true;
    return false;
}

std::string generated_entries(const std::vector<std::string>& entries) {
    std::string s = R"(#include <cstddef>
#include <cstdio>
#include <cxxabi.h>
#include <exception>
#include <type_traits>
#include <typeinfo>
#include <utility>
namespace wb_emu_gen {
// The exception being handled: its type's mangled name (the emulator
// demangles it: this library's malloc and free are the device heap's) and
// its what().
inline void describe(char* type, std::size_t type_bytes, char* what, std::size_t what_bytes, const std::exception* e) {
    const std::type_info* t = abi::__cxa_current_exception_type();
    std::snprintf(type, type_bytes, "%s", t ? t->name() : "");
    std::snprintf(what, what_bytes, "%s", e ? e->what() : "");
}
template <typename... P, std::size_t... I>
inline void call(void (*f)(P...), void** a, std::index_sequence<I...>) {
    f(*static_cast<std::remove_cv_t<std::remove_reference_t<P>>*>(a[I])...);
}
template <typename... P>
inline void call(void (*f)(P...), void** a) { call(f, a, std::index_sequence_for<P...>{}); }
template <typename... P>
constexpr int arity(void (*)(P...)) { return int(sizeof...(P)); }
}  // namespace wb_emu_gen
)";
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const std::string n = std::to_string(i);
        // An exception that leaves the kernel is described inside the catch,
        // and reported after it (the hook does not return).
        s += "extern \"C\" __attribute__((visibility(\"default\"))) void wb_emu_entry_" + n +
             "(void** a) { char type[256], what[512]; bool threw = false;\n"
             "  try { wb_emu_gen::call(&" + entries[i] + ", a); }\n"
             "  catch (const std::exception& e) { wb_emu_gen::describe(type, sizeof type, what, sizeof what, &e); threw = true; }\n"
             "  catch (...) { wb_emu_gen::describe(type, sizeof type, what, sizeof what, nullptr); threw = true; }\n"
             "  if (threw) wb_emu::g_hooks->threw(type, what); }\n";
        s += "extern \"C\" __attribute__((visibility(\"default\"))) int wb_emu_arity_" + n +
             "() { return wb_emu_gen::arity(&" + entries[i] + "); }\n";
    }
    return s;
}

}  // namespace

// -fcheck-new and the version script: a kernel's malloc and new are the
// device heap's (cuda_emu.h), and new yields null when it has no room. No
// sibling calls, so a free() at a kernel's end still returns to the kernel
// and a bad one is named at its line.
// -fstack-clash-protection: a function with a large local array touches its
// stack a page at a time, so one that outgrows its fiber's stack stops on the
// guard page below it (a stack overflow, named as such) instead of writing
// over the next fiber's stack. The --wrap options send the C library's ways
// to end the process (exit, abort, raise...) to cuda_emu.h's __wrap_ functions.
// `checked`: -fsanitize=thread puts a call to cuda_emu.h's __tsan_ functions
// before every access (emulate/access_check.hpp); -nodefaultlibs, with the
// default libraries named again, keeps GCC from linking ThreadSanitizer's own
// runtime in; -fno-tree-sra keeps a copy of a float4 (or any small struct) one
// access, as nvcc's LDG.128/LDS.128 make it, where GCC's scalar replacement
// would split it into four 4-byte accesses and the access record would count
// four requests of other conflicts (docs/memory-access.md). The plain build,
// for the second validation run, has none of these.
std::vector<std::string> emulator_library_flags(bool checked) {
    const fs::path include = emulator_include_dir();
    std::vector<std::string> flags{"-std=c++17", "-O2", "-march=native", "-ffp-contract=off", "-fno-strict-aliasing", "-g1",
            "-fstack-clash-protection", "-fPIC", "-shared", "-fdiagnostics-color=never", "-Wno-unused-result",
            "-fcheck-new", "-fno-optimize-sibling-calls", "-I" + include.string(),
            "-Wl,--version-script=" + (include / "wb_emu_heap.map").string(), "-pthread",
            "-Wl,--wrap=exit,--wrap=quick_exit,--wrap=_exit,--wrap=_Exit,--wrap=abort,--wrap=raise",
            "-fsanitize=thread", "-fno-tree-sra", "--param=tsan-instrument-func-entry-exit=0", "-nodefaultlibs", "-lstdc++", "-lm", "-lc",
            "-lgcc_s", "-lgcc"};
    if (!checked) flags.erase(std::find(flags.begin(), flags.end(), "-fsanitize=thread"), flags.end());
    return flags;
}

EmuBuild build_emulated(const SourceText& source, const std::vector<std::string>& entries) {
    const std::string origin = source.origin.empty() ? "<inline>" : source.origin;
    EmuBuild b;
    b.entries = entries;
    std::vector<std::string> embedded;
    for (const auto& h : emulator_headers()) embedded.emplace_back(h.name);
    if (auto refused = refused_includes(source.text, origin, embedded); !refused.empty()) {
        b.diagnostics = refusal_diagnostics(refused);
        return b;
    }
    b.refusal = unsupported_construct(source.text, origin);
    if (b.refusal) return b;
    const std::string text = rewrite_for_emulation(source.text);
    b.fibers = needs_fibers(text);

    std::string tu = "#include \"cuda_emu.h\"\n#line 1 \"" + origin + "\"\n" + text;
    if (!tu.empty() && tu.back() != '\n') tu += '\n';
    tu += "#line 1 \"" + std::string(kEntriesFile) + "\"\n" + generated_entries(entries);

    // The kernels without the access check, for the second validation run
    // (EmuBuild::plain_library), built beside the checked ones on another core.
    auto plain = std::async(std::launch::async, [&tu] {
        return build_host_library(tu, emulator_library_flags(false), CacheKind::Emulated, "wb-emulated-plain-1");
    });
    HostLibrary lib;
    try {
        lib = build_host_library(tu, emulator_library_flags(true), CacheKind::Emulated, "wb-emulated-3");
    } catch (...) {
        plain.wait();
        throw;
    }
    try {
        const HostLibrary p = plain.get();
        if (p.ok) b.plain_library = p.library;
    } catch (const std::exception&) {
        // Without it the second run uses the checked kernels, as the first does.
    }
    b.from_cache = lib.from_cache;
    b.seconds = lib.seconds;
    b.log = lib.log;
    for (auto& d : parse_gcc_log(lib.log)) {
        if (d.severity == Severity::Note) continue;
        if (d.file == kEntriesFile) {
            // The generated entry could not take the kernel's address: the name is not a kernel here.
            if (d.severity != Severity::Error) continue;
            Diagnostic f;
            f.file = origin;
            f.message = "the CPU emulator could not find every kernel the lesson launches (";
            for (std::size_t i = 0; i < entries.size(); ++i) f.message += (i ? ", '" : "'") + entries[i] + "'";
            f.message += "): " + d.message;
            b.diagnostics.push_back(std::move(f));
            break;
        }
        if (d.file != origin) {
            // An error inside cuda_emu.h: something the emulator's header lacks.
            if (d.severity != Severity::Error) continue;
            d.message = "the CPU emulator cannot compile this kernel (" + d.file + ":" + std::to_string(d.line) +
                        "): " + d.message;
            d.file = origin;
            d.line = 0;
            d.column = 0;
        }
        b.diagnostics.push_back(std::move(d));
    }
    if (lib.ok) {
        b.ok = true;
        b.library = lib.library;
    } else if (std::none_of(b.diagnostics.begin(), b.diagnostics.end(),
                            [](const Diagnostic& d) { return d.severity == Severity::Error; })) {
        Diagnostic d;
        d.file = origin;
        d.message = "the host compiler failed to build the kernel for the CPU emulator: " + lib.log;
        b.diagnostics.push_back(std::move(d));
    }
    return b;
}

}  // namespace wb
