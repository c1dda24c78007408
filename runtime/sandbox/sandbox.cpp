// runtime/sandbox/sandbox.cpp — the worker's sandbox and caps (sandbox.hpp).
#include "sandbox/sandbox.hpp"

#include "compile/nvrtc.hpp"
#include "core/data_dirs.hpp"
#include "core/error.hpp"
#include "core/fs.hpp"
#include "emulate/emulator.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <mutex>
#include <optional>
#include <poll.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace fs = std::filesystem;

namespace wb {

namespace {

// Folders a contained worker finds empty (and read-only), unless a bind brings part of one back.
std::vector<fs::path> hidden_folders() {
    std::vector<fs::path> out = {"/home", "/root", "/run", "/mnt", "/media", "/var/tmp", "/tmp"};
    if (const char* home = std::getenv("HOME"); home && *home && fs::path(home).is_absolute())
        out.push_back(fs::path(home).lexically_normal());
    return out;
}

bool is_under(const fs::path& p, const fs::path& folder) {
    const fs::path rel = p.lexically_normal().lexically_relative(folder.lexically_normal());
    return !rel.empty() && *rel.begin() != "..";
}

// `p` absolute and without . or .., and the same with every symlink resolved.
std::vector<fs::path> both_spellings(const fs::path& p) {
    std::error_code ec;
    const fs::path given = fs::absolute(p, ec).lexically_normal();
    std::vector<fs::path> out = {given};
    const fs::path real = fs::weakly_canonical(given, ec);
    if (!ec && real != given) out.push_back(real);
    return out;
}

bool is_hidden(const fs::path& p) {
    if (p == "/") return false;
    for (const auto& h : hidden_folders())
        if (is_under(p, h)) return true;
    return false;
}

std::optional<fs::path> find_on_path(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::string dirs = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= dirs.size()) {
        const std::size_t end = std::min(dirs.find(':', start), dirs.size());
        const fs::path c = fs::path(dirs.substr(start, end - start)) / name;
        if (::access(c.c_str(), X_OK) == 0) return c;
        start = end + 1;
    }
    return std::nullopt;
}

// The options every contained worker gets, before its folders.
std::vector<std::string> namespace_options(const std::string& bwrap) {
    return {bwrap,           "--new-session",  "--die-with-parent", "--unshare-user", "--unshare-pid",
            "--unshare-net", "--unshare-ipc",  "--unshare-uts",     "--unshare-cgroup-try",
            "--ro-bind",     "/",              "/",                 "--dev",          "/dev",
            "--proc",        "/proc"};
}

// Runs `args` to its end (at most 5 s); its exit status and what it wrote to stderr.
int run_probe(const std::vector<std::string>& args, std::string& err) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        err = std::strerror(errno);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    ::close(fds[1]);
    if (rc != 0) {
        ::close(fds[0]);
        err = std::strerror(rc);
        return -1;
    }
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    char buf[512];
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
        pollfd p{fds[0], POLLIN, 0};
        if (left.count() <= 0 || ::poll(&p, 1, int(left.count())) <= 0) {
            ::kill(pid, SIGKILL);  // the probe only; it started nothing that outlives it (--die-with-parent)
            err += "(no answer in 5 s)";
            break;
        }
        const ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n <= 0) break;
        if (err.size() < 2048) err.append(buf, std::size_t(n));
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    while (!err.empty() && (err.back() == '\n' || err.back() == ' ')) err.pop_back();
    if (const auto nl = err.find('\n'); nl != std::string::npos) err.resize(nl);  // its first line says why
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Whether `bwrap` can make the namespaces here: tried once per process per program.
struct Probe {
    std::string bwrap;
    bool works = false;
    std::string why;
};

const Probe& probe(const std::string& bwrap) {
    static std::mutex m;
    static std::vector<Probe> done;
    std::lock_guard<std::mutex> lock(m);
    for (const auto& p : done)
        if (p.bwrap == bwrap) return p;
    Probe p;
    p.bwrap = bwrap;
    std::vector<std::string> args = namespace_options(bwrap);
    args.push_back("--");
    args.push_back("true");
    std::string err;
    const int rc = run_probe(args, err);
    p.works = rc == 0;
    p.why = err.empty() ? "status " + std::to_string(rc) : err;
    done.push_back(p);
    return done.back();
}

std::uint64_t physical_memory() {
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long page = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) : 0;
}

// VmData of this process (/proc/self/status): private writable memory it maps, what RLIMIT_DATA counts.
std::uint64_t data_bytes() {
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) return 0;
    char line[256];
    unsigned long long kib = 0;
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, "VmData:", 7) == 0) kib = std::strtoull(line + 7, nullptr, 10);
    std::fclose(f);
    return std::uint64_t(kib) << 10;
}

std::uint64_t env_number(const char* name) {
    const char* v = std::getenv(name);
    if (!v || !*v) return 0;
    char* end = nullptr;
    const unsigned long long n = std::strtoull(v, &end, 10);
    return end && *end == '\0' ? n : 0;
}

}  // namespace

SandboxFolders worker_folders(const fs::path& worker_executable) {
    SandboxFolders v;
    if (!worker_executable.empty()) {
        const fs::path dir = fs::absolute(worker_executable).parent_path();
        v.read.push_back(dir.parent_path());  // a build tree's root, or an install's prefix
    }
    if (auto lessons = find_data_folder("lessons")) v.read.push_back(lessons->dir.parent_path());
    try {
        v.read.push_back(cuda_home());
    } catch (const Error&) {
        // No toolkit: compiling will say so, contained or not.
    }
    if (const char* cxx = std::getenv("CXX"); cxx && *cxx && fs::path(cxx).is_absolute())
        v.read.push_back(fs::path(cxx).parent_path());
    v.write.push_back(cache_dir());
    return v;
}

std::vector<fs::path> lesson_folders(const fs::path& lesson_file) {
    std::vector<fs::path> out;
    if (lesson_file.empty()) return out;
    std::error_code ec;
    out.push_back(fs::absolute(lesson_file, ec).parent_path().lexically_normal());
    for (auto& f : lesson_trust_folders(lesson_file)) out.push_back(f);
    return out;
}

bool visible_in(const SandboxFolders& view, const fs::path& folder) {
    for (const auto& p : both_spellings(folder)) {
        if (!is_hidden(p)) continue;
        bool bound = false;
        for (const auto* list : {&view.read, &view.write})
            for (const auto& f : *list)
                for (const auto& s : both_spellings(f)) bound = bound || p == s || is_under(p, s);
        if (!bound) return false;
    }
    return true;
}

SandboxChoice worker_sandbox(const SandboxFolders& view, SandboxRole role) {
    SandboxChoice c;
    if (const char* off = std::getenv("WB_SANDBOX"); off && std::string(off) == "off") {
        c.not_contained = {{"sandbox.not_contained", {"@sandbox.switched_off"}}};
        return c;
    }
    std::string bwrap;
    if (const char* b = std::getenv("WB_BWRAP"); b && *b) bwrap = b;
    else if (auto found = find_on_path("bwrap")) bwrap = found->string();
    if (bwrap.empty() || ::access(bwrap.c_str(), X_OK) != 0) {
        c.not_contained = {{"sandbox.not_contained", {"@sandbox.no_bwrap"}}};
        return c;
    }
    const Probe& p = probe(bwrap);
    if (!p.works) {
        c.not_contained = {{"sandbox.not_contained", {"@sandbox.bwrap_failed|" + p.why}}};
        return c;
    }

    std::vector<std::string> a = namespace_options(bwrap);
    // GPUs: the driver opens /dev/nvidiactl, /dev/nvidia-uvm, /dev/nvidiaN and /dev/nvidia-caps/.
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/dev", ec))
        if (role == SandboxRole::Worker && e.path().filename().string().rfind("nvidia", 0) == 0)
            a.insert(a.end(), {"--dev-bind", e.path().string(), e.path().string()});
    a.insert(a.end(), {"--size", std::to_string(kScratchBytes), "--tmpfs", "/tmp"});
    std::vector<fs::path> hidden;
    for (const auto& h : hidden_folders()) {
        if (h == "/tmp" || !fs::is_directory(h, ec)) continue;
        if (std::find(hidden.begin(), hidden.end(), h) != hidden.end()) continue;
        hidden.push_back(h);
    }
    // A folder inside another hidden one needs no tmpfs of its own ($HOME under /home).
    std::vector<fs::path> tops;
    for (const auto& h : hidden) {
        bool inside = false;
        for (const auto& o : hidden) inside = inside || is_under(h, o);
        if (!inside) tops.push_back(h);
    }
    for (const auto& h : tops) a.insert(a.end(), {"--tmpfs", h.string()});
    // The worker starts in the front end's folder, so a lesson path relative
    // to it means the same file; a hidden one is there, empty but for the
    // binds below.
    const fs::path cwd = fs::current_path(ec);
    const bool cwd_ok = !ec && cwd.is_absolute();
    if (cwd_ok && is_hidden(cwd)) a.insert(a.end(), {"--dir", cwd.string()});
    // Binds, parents before children, of what lies under a hidden folder;
    // the rest of the system is already there, read-only.
    struct Bind {
        fs::path source, dest;
        bool write;
    };
    std::vector<Bind> binds;
    auto add = [&](const fs::path& f, bool writable) {
        std::error_code e2;
        if (writable) fs::create_directories(f, e2);  // made here, so the worker finds it to bind read-only too
        const bool write = writable && role == SandboxRole::Builder;
        const fs::path real = fs::weakly_canonical(fs::absolute(f, e2), e2);
        if (e2 || !fs::is_directory(real, e2)) return;
        for (const auto& dest : both_spellings(f))
            if (is_hidden(dest)) binds.push_back({real, dest, write});
    };
    for (const auto& f : view.write) add(f, true);
    for (const auto& f : view.read) add(f, false);
    std::stable_sort(binds.begin(), binds.end(), [](const Bind& x, const Bind& y) {
        return std::distance(x.dest.begin(), x.dest.end()) < std::distance(y.dest.begin(), y.dest.end());
    });
    for (const auto& b : binds)
        a.insert(a.end(), {b.write ? "--bind" : "--ro-bind", b.source.string(), b.dest.string()});
    for (const auto& h : tops) a.insert(a.end(), {"--remount-ro", h.string()});
    a.insert(a.end(), {"--setenv", "TMPDIR", "/tmp", "--setenv", "WB_CONTAINED", "1", "--chdir",
                      cwd_ok ? cwd.string() : "/tmp", "--"});
    c.wrapper = std::move(a);
    return c;
}

WorkerLimits worker_limits() {
    WorkerLimits l;
    const std::uint64_t mib = env_number("WB_WORKER_MEMORY_MB");
    l.memory_bytes = mib ? mib << 20 : std::max<std::uint64_t>(std::uint64_t(2) << 30, physical_memory() / 2);
    if (running_contained()) l.processes = worker_task_cap();
    return l;
}

long worker_task_cap() {
    const long procs = long(env_number("WB_WORKER_PROCESSES"));
    const long cores = long(std::max(1u, std::thread::hardware_concurrency()));
    return procs ? procs : std::max(256L, 64 + 4 * cores);
}

void apply_worker_limits(const WorkerLimits& limits) {
    if (limits.memory_bytes) {
        const rlim_t cap = rlim_t(data_bytes() + emulator_stack_reservation() + limits.memory_bytes);
        rlimit r{cap, cap};
        ::setrlimit(RLIMIT_DATA, &r);
    }
    if (limits.processes > 0) {
        rlimit r{rlim_t(limits.processes), rlim_t(limits.processes)};
        ::setrlimit(RLIMIT_NPROC, &r);
    }
    rlimit no_core{0, 0};  // a crash leaves no core file (the worker's may be gigabytes)
    ::setrlimit(RLIMIT_CORE, &no_core);
}

bool running_contained() {
    const char* c = std::getenv("WB_CONTAINED");
    return c && std::string(c) == "1";
}

namespace {

// Removes what `path` holds on filesystem `dev`, and `path` itself when it
// is left empty; never crosses into another filesystem: folders bound into
// the scratch (the cache, a lesson's folder under /tmp) are the user's.
void remove_on_device(const fs::path& path, dev_t dev) {
    struct stat st{};
    if (::lstat(path.c_str(), &st) != 0 || st.st_dev != dev) return;
    if (S_ISDIR(st.st_mode)) {
        std::error_code ec;
        std::vector<fs::path> inside;
        for (const auto& e : fs::directory_iterator(path, ec)) inside.push_back(e.path());
        for (const auto& p : inside) remove_on_device(p, dev);
        ::rmdir(path.c_str());  // fails, and is left, when a bind lies below
        return;
    }
    ::unlink(path.c_str());
}

}  // namespace

void clear_run_scratch() {
    if (!running_contained()) return;
    struct stat tmp{};
    if (::stat("/tmp", &tmp) != 0) return;
    std::error_code ec;
    std::vector<fs::path> inside;
    for (const auto& e : fs::directory_iterator("/tmp", ec)) inside.push_back(e.path());
    for (const auto& p : inside) remove_on_device(p, tmp.st_dev);
}

// ---- a pids cgroup per worker ------------------------------------------------

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string part;
    std::istringstream in(s);
    while (std::getline(in, part, sep)) out.push_back(part);
    return out;
}

std::string first_line(const fs::path& p) {
    std::ifstream in(p);
    std::string line;
    std::getline(in, line);
    return line;
}

bool write_small_file(const fs::path& p, const std::string& text) {
    const int fd = ::open(p.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const bool ok = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
    ::close(fd);
    return ok;
}

bool has_word(const std::string& list, const std::string& word, char sep) {
    for (const auto& w : split(list, sep))
        if (w == word) return true;
    return false;
}

// `cgroup` (this process's, as /proc/self/cgroup names it) inside a mount of
// its hierarchy whose root is `root`: the folder under `mount_point`.
std::optional<fs::path> under_mount(const std::string& cgroup, const std::string& root, const std::string& mount_point) {
    if (root == "/") return fs::path(mount_point) / fs::path(cgroup).relative_path();
    if (cgroup == root) return fs::path(mount_point);
    if (cgroup.rfind(root + "/", 0) != 0) return std::nullopt;  // outside what this mount shows
    return fs::path(mount_point) / cgroup.substr(root.size() + 1);
}

// The folder whose children get a pids.max: this process's own cgroup in the
// v1 pids hierarchy, else its cgroup v2 with pids enabled for children.
std::optional<fs::path> pids_parent(std::string& why) {
    std::string v1_cgroup, v2_cgroup;
    bool v1 = false, v2 = false;
    {
        std::ifstream in("/proc/self/cgroup");
        std::string line;
        while (std::getline(in, line)) {
            const auto a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
            if (b == std::string::npos) continue;
            const std::string id = line.substr(0, a), controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
            if (has_word(controllers, "pids", ',')) v1 = true, v1_cgroup = path;
            else if (id == "0" && controllers.empty()) v2 = true, v2_cgroup = path;
        }
    }
    std::optional<fs::path> v1_dir, v2_dir;
    {
        std::ifstream in("/proc/self/mountinfo");
        std::string line;
        while (std::getline(in, line)) {
            // id parent major:minor root mount-point options [optional...] - type source super-options
            const auto f = split(line, ' ');
            const auto dash = std::find(f.begin(), f.end(), "-");
            if (f.size() < 5 || std::distance(dash, f.end()) < 4) continue;
            const std::string& type = *(dash + 1);
            const std::string& super = *(dash + 3);
            if (type == "cgroup" && v1 && !v1_dir && has_word(super, "pids", ','))
                v1_dir = under_mount(v1_cgroup, f[3], f[4]);
            else if (type == "cgroup2" && v2 && !v2_dir)
                v2_dir = under_mount(v2_cgroup, f[3], f[4]);
        }
    }
    if (v1_dir) return v1_dir;
    if (v2_dir) {
        if (!has_word(first_line(*v2_dir / "cgroup.controllers"), "pids", ' ')) {
            why = "the pids controller is not available to " + v2_dir->string();
            return std::nullopt;
        }
        if (!has_word(first_line(*v2_dir / "cgroup.subtree_control"), "pids", ' ') &&
            !write_small_file(*v2_dir / "cgroup.subtree_control", "+pids")) {
            why = "cannot enable the pids controller in " + v2_dir->string() + ": " + std::strerror(errno);
            return std::nullopt;
        }
        return v2_dir;
    }
    why = "no cgroup hierarchy with the pids controller is mounted";
    return std::nullopt;
}

// Whether this process can make worker cgroups, found out once.
struct CgroupPlace {
    std::optional<fs::path> parent;
    std::string why;
};

const CgroupPlace& cgroup_place() {
    static const CgroupPlace place = [] {
        CgroupPlace p;
        auto parent = pids_parent(p.why);
        if (!parent) return p;
        // Folders of supervisors that are gone (it crashed): removed when empty.
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(*parent, ec)) {
            const std::string name = e.path().filename().string();
            if (name.rfind("cuda-workbook-", 0) != 0) continue;
            const long pid = std::atol(name.c_str() + 14);
            if (pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH) ::rmdir(e.path().c_str());
        }
        const fs::path probe = *parent / ("cuda-workbook-" + std::to_string(::getpid()) + "-probe");
        if (::mkdir(probe.c_str(), 0755) != 0 && errno != EEXIST) {
            p.why = "cannot make a cgroup in " + parent->string() + ": " + std::strerror(errno);
            return p;
        }
        const bool has_max = ::access((probe / "pids.max").c_str(), W_OK) == 0;
        ::rmdir(probe.c_str());
        if (!has_max) {
            p.why = "a cgroup made in " + parent->string() + " has no writable pids.max";
            return p;
        }
        p.parent = parent;
        return p;
    }();
    return place;
}

}  // namespace

std::unique_ptr<WorkerCgroup> WorkerCgroup::make(long max_tasks, std::string& why) {
    if (const char* off = std::getenv("WB_SANDBOX"); off && std::string(off) == "off") {
        why = "WB_SANDBOX=off switched it off";
        return nullptr;
    }
    const CgroupPlace& place = cgroup_place();
    if (!place.parent) {
        why = place.why;
        return nullptr;
    }
    static std::atomic<long> made{0};
    std::unique_ptr<WorkerCgroup> g(new WorkerCgroup);
    g->path_ = *place.parent / ("cuda-workbook-" + std::to_string(::getpid()) + "-" + std::to_string(++made));
    if (::mkdir(g->path_.c_str(), 0755) != 0) {
        why = "cannot make " + g->path_.string() + ": " + std::strerror(errno);
        return nullptr;
    }
    if (!write_small_file(g->path_ / "pids.max", std::to_string(max_tasks))) {
        why = "cannot write " + (g->path_ / "pids.max").string() + ": " + std::strerror(errno);
        return nullptr;  // the destructor removes the folder
    }
    g->join_fd_ = ::open((g->path_ / "cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
    if (g->join_fd_ < 0) {
        why = "cannot open " + (g->path_ / "cgroup.procs").string() + ": " + std::strerror(errno);
        return nullptr;
    }
    return g;
}

void WorkerCgroup::close_join_fd() {
    if (join_fd_ >= 0) ::close(join_fd_);
    join_fd_ = -1;
}

std::vector<long> WorkerCgroup::processes() const {
    std::vector<long> out;
    std::ifstream in(path_ / "cgroup.procs");
    long pid = 0;
    while (in >> pid) out.push_back(pid);
    return out;
}

WorkerCgroup::~WorkerCgroup() {
    close_join_fd();
    if (path_.empty()) return;
    // Everything in it is the worker's own tree: what a fork made keeps
    // forking until it is killed, and pids.max bounds how many there are.
    const bool has_kill = ::access((path_ / "cgroup.kill").c_str(), W_OK) == 0;  // cgroup v2, Linux 5.14
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (::rmdir(path_.c_str()) != 0 && errno == EBUSY && std::chrono::steady_clock::now() < until) {
        if (!has_kill || !write_small_file(path_ / "cgroup.kill", "1"))
            for (long pid : processes()) ::kill(pid_t(pid), SIGKILL);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

namespace {
int g_pids_events = -1;  // the worker's cgroup's pids.events
}  // namespace

bool join_worker_cgroup(int fd) {
    // Its folder, as this mount namespace names it (bwrap shows / as it is).
    // A wrapper between the supervisor and the worker (compute-sanitizer) may
    // have put a file of its own on that number: then nothing is written.
    std::error_code ec;
    const fs::path procs = fs::read_symlink("/proc/self/fd/" + std::to_string(fd), ec);
    if (ec || procs.filename() != "cgroup.procs") {
        errno = EBADF;
        return false;
    }
    const bool ok = ::write(fd, "0", 1) == 1;
    const int saved = errno;
    if (ok) g_pids_events = ::open((procs.parent_path() / "pids.events").c_str(), O_RDONLY | O_CLOEXEC);
    ::close(fd);
    errno = saved;
    return ok;
}

long task_cap_refusals() {
    if (g_pids_events < 0) return 0;
    char buf[256];
    const ssize_t n = ::pread(g_pids_events, buf, sizeof buf - 1, 0);
    if (n <= 0) return 0;
    buf[n] = 0;
    const char* max = std::strstr(buf, "max ");
    return max ? std::atol(max + 4) : 0;
}

}  // namespace wb
