// runtime/compile/host_library.cpp — host-compiler shared libraries, built and cached (host_library.hpp).
//
// The compiler is started with posix_spawn and an explicit argv (no shell:
// nothing in a lesson can inject a command), with LC_ALL=C so its messages
// are in the English the parsers read. Libraries are cached by a SHA-256 of
// the compiler, its --version text, the flags and the whole translation unit,
// and are built under a temporary name and renamed into place, so a
// concurrent reader never dlopens half a file. Each compiler run has a
// scratch folder of its own as its TMPDIR (ScratchFolder), so nothing it
// writes there outlives it. The cache folder is capped
// (core/disk_cache.hpp): a hit touches its library, and a new one evicts the
// least recently used. In a contained worker a miss is built by its builder
// process (remote_build.hpp), which alone writes the cache.
#include "compile/host_library.hpp"

#include "compile/remote_build.hpp"
#include "sandbox/sandbox.hpp"

#include "core/error.hpp"
#include "core/fs.hpp"
#include "core/sha256.hpp"

#include <fcntl.h>
#include <signal.h>
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
#include <random>
#include <sstream>
#include <system_error>

extern char** environ;

namespace fs = std::filesystem;

namespace wb {

namespace {

constexpr std::size_t kMaxOutputBytes = std::size_t(4) << 20;

struct ProcessResult {
    int exit_code = -1;  // -1: killed by a signal
    std::string output;  // stdout and stderr, interleaved
};

// The environment for the compiler: ours, with LC_ALL=C, and TMPDIR=`tmpdir` when given.
std::vector<std::string> child_environment(const fs::path& tmpdir) {
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e) {
        if (std::strncmp(*e, "LC_ALL=", 7) == 0) continue;
        if (!tmpdir.empty() && std::strncmp(*e, "TMPDIR=", 7) == 0) continue;
        env.emplace_back(*e);
    }
    env.emplace_back("LC_ALL=C");
    if (!tmpdir.empty()) env.emplace_back("TMPDIR=" + tmpdir.string());
    return env;
}

// Runs argv[0] (an absolute path) with captured output, with TMPDIR=`tmpdir`
// and in that folder when given. Throws wb::Error (Reference) when the process cannot be started.
ProcessResult run_process(const std::vector<std::string>& args, const fs::path& tmpdir = {}) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw Error(ErrorKind::Reference, std::string("cannot create a pipe for the compiler: ") + std::strerror(errno));

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    // It works in its scratch folder: a worker's own working folder is removed
    // (sandbox/sandbox.hpp), and nvcc's shell would say so in the log.
    if (!tmpdir.empty()) posix_spawn_file_actions_addchdir_np(&actions, tmpdir.c_str());

    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::vector<std::string> env = child_environment(tmpdir);
    std::vector<char*> envp;
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);

    pid_t pid = 0;
    int rc = ::posix_spawn(&pid, args[0].c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (rc != 0) {
        ::close(fds[0]);
        throw Error(ErrorKind::Reference, "cannot start " + args[0] + ": " + std::strerror(rc), {},
                    "install g++ or set CXX to a working C++ compiler");
    }

    ProcessResult result;
    char buf[8192];
    for (;;) {
        ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        // Keep draining past the cap so the child never blocks on a full pipe.
        if (result.output.size() < kMaxOutputBytes) result.output.append(buf, std::size_t(n));
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

Location file_location(const fs::path& p) {
    Location where;
    where.file = p.string();
    return where;
}

bool is_executable(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

fs::path find_in_path(const std::string& name) {
    if (name.find('/') != std::string::npos) return is_executable(name) ? fs::path(name) : fs::path();
    const char* path = std::getenv("PATH");
    std::string dirs = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";
    std::stringstream ss(dirs);
    std::string dir;
    while (std::getline(ss, dir, ':')) {
        if (dir.empty()) continue;
        fs::path candidate = fs::path(dir) / name;
        if (is_executable(candidate)) return candidate;
    }
    return {};
}

// The compiler command: $CXX split on blanks (so "ccache g++" works), else
// c++, g++ or clang++ from PATH. The first word is resolved to a full path.
std::vector<std::string> find_compiler() {
    std::vector<std::string> words;
    if (const char* cxx = std::getenv("CXX"); cxx && *cxx) {
        std::stringstream ss(cxx);
        std::string w;
        while (ss >> w) words.push_back(w);
        if (!words.empty()) {
            fs::path resolved = find_in_path(words[0]);
            if (resolved.empty())
                throw Error(ErrorKind::Reference, "no host C++ compiler found: $CXX is '" + std::string(cxx) +
                                                      "', which is not an executable",
                            {}, "install g++ or set CXX to a working C++ compiler");
            words[0] = resolved.string();
            return words;
        }
    }
    for (const char* name : {"c++", "g++", "clang++"}) {
        fs::path resolved = find_in_path(name);
        if (!resolved.empty()) return {resolved.string()};
    }
    throw Error(ErrorKind::Reference, "no host C++ compiler found: install g++", {},
                "the CPU reference is C++ compiled on this machine (apt install g++), or set CXX");
}

// `<command> --version`, run once per process per command once it has
// succeeded (a failure is run again next time).
ProcessResult version_output(const std::vector<std::string>& command) {
    static std::mutex mutex;
    static std::map<std::vector<std::string>, std::string> known;
    {
        std::lock_guard lock(mutex);
        if (auto it = known.find(command); it != known.end()) return {0, it->second};
    }
    std::vector<std::string> args = command;
    args.push_back("--version");
    ProcessResult r = run_process(args);
    if (r.exit_code == 0) {
        std::lock_guard lock(mutex);
        known[command] = r.output;
    }
    return r;
}

// The compiler's version: part of the cache key, so upgrading the compiler
// rebuilds every reference.
std::string compiler_version(const std::vector<std::string>& compiler) {
    ProcessResult r = version_output(compiler);
    if (r.exit_code != 0)
        throw Error(ErrorKind::Reference, "the host C++ compiler " + compiler[0] + " does not run: " + r.output, {},
                    "install g++ or set CXX to a working C++ compiler");
    return r.output;
}

std::string random_suffix() {
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    return std::to_string(::getpid()) + "-" + std::to_string(rng() & 0xffffffu);
}

// Removes the scratch folders of processes that no longer exist (killed
// before anyone removed them), once per process and cache folder.
void sweep_dead_scratch() {
    static std::mutex mutex;
    static std::vector<fs::path> swept;
    const fs::path all = compiler_scratch_root(::getpid()).parent_path();
    {
        std::lock_guard lock(mutex);
        if (std::find(swept.begin(), swept.end(), all) != swept.end()) return;
        swept.push_back(all);
    }
    std::error_code ec;
    for (fs::directory_iterator it(all, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.empty() || name.size() > 9 || name.find_first_not_of("0123456789") != std::string::npos) continue;
        const long pid = std::stol(name);
        if (pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH) remove_compiler_scratch(pid);
    }
}

// One compiler run's TMPDIR: made before it starts, removed with everything
// in it when the run ends, however it ends.
class ScratchFolder {
public:
    ScratchFolder() {
        sweep_dead_scratch();
        path_ = compiler_scratch_root(::getpid()) / ("run-" + random_suffix());
        std::error_code ec;
        fs::create_directories(path_, ec);
        if (ec)
            throw Error(ErrorKind::Io, "cannot make a scratch folder for the compiler: " + ec.message(),
                        file_location(path_));
    }
    ~ScratchFolder() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

}  // namespace

// In a contained worker, its own /tmp (sandbox/): its pids are its process
// namespace's, and in the shared cache folder they would name other
// processes' folders, which its sweep would then remove.
fs::path compiler_scratch_root(long pid) {
    return (running_contained() ? fs::path("/tmp") : cache_dir()) / "scratch" / std::to_string(pid);
}

void remove_compiler_scratch(long pid) {
    std::error_code ec;
    fs::remove_all(compiler_scratch_root(pid), ec);
}

std::optional<std::string> tool_version(const std::vector<std::string>& command) {
    ProcessResult r = version_output(command);
    if (r.exit_code != 0) return std::nullopt;
    return r.output;
}

HostLibrary build_host_library(const std::string& tu, const std::vector<std::string>& flags, CacheKind kind,
                               const std::string& cache_tag, const LibraryCompiler* other) {
    using Clock = std::chrono::steady_clock;
    auto start = Clock::now();
    HostLibrary lib;
    const std::vector<std::string> compiler = other ? other->command : find_compiler();
    const std::string version = other ? other->version : compiler_version(compiler);
    const std::string source_suffix = other ? other->source_suffix : ".cpp";

    Sha256 key_hash;
    key_hash.update_field(cache_tag);
    key_hash.update_field(std::to_string(compiler.size()));
    for (const auto& w : compiler) key_hash.update_field(w);
    key_hash.update_field(version);
    key_hash.update_field(std::to_string(flags.size()));
    for (const auto& f : flags) key_hash.update_field(f);
    key_hash.update_field(tu);
    std::string key = key_hash.finish_hex();

    const CacheFolder folder = cache_folder(kind);
    const fs::path dir = folder.dir;
    fs::path library = dir / (key + ".so");
    std::string suffix = random_suffix();
    fs::path tu_path = dir / (key + ".tmp-" + suffix + source_suffix);
    fs::path tmp_library = dir / (key + ".tmp-" + suffix + ".so");

    lib.command = compiler;
    lib.command.insert(lib.command.end(), flags.begin(), flags.end());
    lib.command.insert(lib.command.end(), {"-o", tmp_library.string(), tu_path.string()});

    std::error_code ec;
    if (fs::is_regular_file(library, ec)) {
        touch_cache_entry(library);
        lib.ok = true;
        lib.library = library;
        lib.from_cache = true;
        return lib;
    }
    // A contained worker may not write the cache: its builder builds it (remote_build.hpp).
    if (RemoteBuilder* builder = remote_builder()) {
        LibraryRequest request{tu, flags, kind, cache_tag, other != nullptr};
        HostLibrary built = builder->build_library(request);
        if (built.ok && built.library != library)
            throw Error(ErrorKind::Io, "the builder built " + built.library.string() + " where " + library.string() +
                                           " was asked for",
                        file_location(library), "the builder and the worker disagree on the compiler: restart the workbook");
        return built;
    }

    fs::create_directories(dir, ec);
    write_file_atomic(tu_path, tu);
    ProcessResult r;
    try {
        const ScratchFolder scratch;
        r = run_process(lib.command, scratch.path());
    } catch (...) {
        fs::remove(tu_path, ec);
        throw;
    }
    fs::remove(tu_path, ec);
    lib.log = r.output;
    lib.exit_code = r.exit_code;
    if (r.exit_code == 0 && fs::is_regular_file(tmp_library, ec)) {
        fs::rename(tmp_library, library, ec);
        if (ec) {
            fs::remove(tmp_library, ec);
            throw Error(ErrorKind::Io, "cannot move the built library into the cache: " + ec.message(),
                        file_location(library));
        }
        trim_cache(folder, key);
        lib.ok = true;
        lib.library = library;
    } else {
        fs::remove(tmp_library, ec);
    }
    lib.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return lib;
}

}  // namespace wb
