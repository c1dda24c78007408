// runtime/core/fs.cpp — file helpers (see fs.hpp).
#include "core/fs.hpp"

#include "core/error.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <fstream>
#include <random>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace wb {

std::string read_file(const fs::path& path, std::size_t max_bytes, bool follow_final_symlink) {
    // O_NONBLOCK: opening a FIFO that has no writer would otherwise wait for
    // one forever (validate, and the app's start-up, hung on one).
    int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
    if (!follow_final_symlink) flags |= O_NOFOLLOW;
    const int fd = ::open(path.c_str(), flags);
    if (fd < 0) {
        const int err = errno;
        if (err == ENOENT) throw Error(ErrorKind::Io, "file not found", {path.string()});
        if (err == ELOOP && !follow_final_symlink)
            throw Error(ErrorKind::Io, "is a symbolic link, expected the file itself", {path.string()});
        throw Error(ErrorKind::Io, std::string("cannot open: ") + std::strerror(err), {path.string()});
    }
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        throw Error(ErrorKind::Io, std::string("cannot read: ") + std::strerror(errno), {path.string()});
    if (S_ISDIR(st.st_mode)) throw Error(ErrorKind::Io, "is a folder, expected a file", {path.string()});
    if (!S_ISREG(st.st_mode)) {
        const char* what = S_ISFIFO(st.st_mode) ? "a FIFO (named pipe)"
                           : S_ISCHR(st.st_mode) ? "a character device"
                           : S_ISBLK(st.st_mode) ? "a block device"
                           : S_ISSOCK(st.st_mode) ? "a socket"
                                                  : "not an ordinary file";
        throw Error(ErrorKind::Io, std::string("is ") + what + "; expected an ordinary file", {path.string()});
    }
    auto over_limit = [&] {
        return Error(ErrorKind::Io, "file is over the limit of " + std::to_string(max_bytes) + " bytes", {path.string()});
    };
    if (std::uint64_t(st.st_size) > max_bytes)
        throw Error(ErrorKind::Io,
                    "file is " + std::to_string(st.st_size) + " bytes, over the limit of " + std::to_string(max_bytes),
                    {path.string()});
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    // Read to the cap whatever stat said: a file can grow while it is read,
    // and /proc files say 0.
    std::string data;
    data.resize(std::min<std::size_t>(max_bytes, std::size_t(st.st_size)) + 1);
    std::size_t used = 0;
    for (;;) {
        if (used == data.size()) {
            if (data.size() > max_bytes) throw over_limit();
            data.resize(std::min(max_bytes + 1, std::max<std::size_t>(data.size() * 2, 4096)));
        }
        const ssize_t n = ::read(fd, data.data() + used, data.size() - used);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw Error(ErrorKind::Io, std::string("cannot read: ") + std::strerror(errno), {path.string()});
        }
        if (n == 0) break;
        used += std::size_t(n);
        if (used > max_bytes) throw over_limit();
    }
    data.resize(used);
    return data;
}

void write_file_atomic(const fs::path& path, std::string_view bytes, bool sync) {
    std::error_code ec;
    if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    fs::path tmp = path;
    tmp += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(rng() & 0xffffff);
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw Error(ErrorKind::Io, std::string("cannot create: ") + std::strerror(errno), {tmp.string()});
    const char* p = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            ::close(fd);
            ::unlink(tmp.c_str());
            throw Error(ErrorKind::Io, std::string("write failed: ") + std::strerror(e), {tmp.string()});
        }
        p += n;
        left -= std::size_t(n);
    }
    if ((sync && ::fsync(fd) != 0) || ::close(fd) != 0) {
        int e = errno;
        ::unlink(tmp.c_str());
        throw Error(ErrorKind::Io, std::string("fsync/close failed: ") + std::strerror(e), {tmp.string()});
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        int e = errno;
        ::unlink(tmp.c_str());
        throw Error(ErrorKind::Io, std::string("rename failed: ") + std::strerror(e), {path.string()});
    }
    // The rename is an entry in the folder: fsync the folder too, so a power
    // cut right after a save cannot bring back the old file (or none). Best
    // effort: the new file is already whole either way.
    if (!sync) return;
    const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    if (int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
}

static fs::path xdg_dir(const char* var, const char* fallback_under_home) {
    fs::path base;
    if (const char* v = std::getenv(var); v && *v && fs::path(v).is_absolute()) {
        base = v;
    } else if (const char* home = std::getenv("HOME"); home && *home) {
        base = fs::path(home) / fallback_under_home;
    } else {
        base = fs::temp_directory_path();
    }
    fs::path dir = base / "cuda-workbook";
    std::error_code ec;
    fs::create_directories(dir, ec);
    return dir;
}

fs::path cache_dir() { return xdg_dir("XDG_CACHE_HOME", ".cache"); }
fs::path config_dir() { return xdg_dir("XDG_CONFIG_HOME", ".config"); }
fs::path data_dir() { return xdg_dir("XDG_DATA_HOME", ".local/share"); }

fs::path resolve_inside(const fs::path& folder, const std::string& relative) {
    if (relative.empty()) throw Error(ErrorKind::Lesson, "empty file name");
    fs::path rel(relative);
    if (rel.is_absolute() || rel.has_root_name() || rel.has_root_directory())
        throw Error(ErrorKind::Lesson, "'" + relative + "' is an absolute path; file references must be relative to the lesson's folder");
    for (const auto& part : rel)
        if (part == "..")
            throw Error(ErrorKind::Lesson, "'" + relative + "' contains '..'; file references may not leave the lesson's folder");
    std::error_code ec;
    fs::path root = fs::weakly_canonical(folder, ec);
    fs::path full = folder / rel;
    if (!fs::exists(full, ec))
        throw Error(ErrorKind::Lesson, "'" + relative + "' does not exist in " + folder.string());
    fs::path real = fs::canonical(full, ec);
    if (ec) throw Error(ErrorKind::Lesson, "cannot resolve '" + relative + "': " + ec.message());
    auto r = real.lexically_relative(root);
    if (r.empty() || *r.begin() == "..")
        throw Error(ErrorKind::Lesson, "'" + relative + "' is a symlink that leads outside the lesson's folder (to " +
                                           real.string() + ")");
    return real;
}

std::filesystem::path find_toolkit_program(const std::string& name, const std::filesystem::path& home) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!home.empty())
        if (fs::path p = home / "bin" / name; fs::is_regular_file(p, ec)) return p;
    if (const char* path = std::getenv("PATH")) {
        std::stringstream dirs(path);
        for (std::string dir; std::getline(dirs, dir, ':');)
            if (fs::path p = fs::path(dir) / name; !dir.empty() && fs::is_regular_file(p, ec)) return p;
    }
    return {};
}

}  // namespace wb
