// runtime/core/disk_cache.cpp — cap, LRU eviction and statistics of the disk caches (see disk_cache.hpp).
//
// Every operation scans the folder once (names, then lstat), decides from
// that snapshot, and removes with unlink, re-checking an entry's mtime just
// before removing it. No lock is taken: the caches' files are immutable once
// renamed into place, so the only races are with another remover (ENOENT,
// skipped) and with a hit that touches an entry after the scan (kept).
//
// Listing is the cost: 20,000 entries (a full nvrtc folder) take ~0.15 s to
// scan on a 2-core VM, as long as the compile it follows. So trim_cache
// remembers, per process, the size it last found plus what was stored since,
// and scans only when that passes the cap or is over kRescanAfter old; and a
// trim goes down to kLowWater of the cap, so a full folder is scanned once per
// few thousand stores rather than on each.
#include "core/disk_cache.hpp"

#include "core/fs.hpp"

#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <map>
#include <mutex>
#include <system_error>

namespace fs = std::filesystem;

namespace wb {

namespace {

constexpr std::size_t kKeyChars = 64;  // SHA-256 in hex, as both caches name their files
constexpr std::uint64_t kMiB = std::uint64_t(1) << 20;
constexpr double kLowWater = 0.9;
constexpr std::chrono::seconds kRescanAfter{60};

using Nanos = std::int64_t;  // since the epoch, as st_mtim

Nanos mtime_of(const struct stat& st) { return Nanos(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec; }

Nanos now_nanos() {
    timespec ts{};
    ::clock_gettime(CLOCK_REALTIME, &ts);
    return Nanos(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

bool is_key(std::string_view s) {
    if (s.size() != kKeyChars) return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

struct Entry {
    std::vector<fs::path> files;
    std::uint64_t bytes = 0;
    Nanos newest = 0;
};

struct TempFile {
    fs::path path;
    std::uint64_t bytes = 0;
    Nanos mtime = 0;
};

struct Scan {
    std::map<std::string, Entry> entries;  // by key
    std::vector<TempFile> temps;
};

Scan scan(const CacheFolder& folder) {
    Scan out;
    std::error_code ec;
    fs::directory_iterator it(folder.dir, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const fs::path& path = it->path();
        std::string name = path.filename().string();
        if (name.size() <= kKeyChars || !is_key(std::string_view(name).substr(0, kKeyChars))) continue;
        std::string rest = name.substr(kKeyChars);
        bool entry_file = std::find(folder.entry_suffixes.begin(), folder.entry_suffixes.end(), rest) !=
                          folder.entry_suffixes.end();
        bool temp_file = !entry_file && rest.find(".tmp-") != std::string::npos;
        if (!entry_file && !temp_file) continue;
        struct stat st{};
        // lstat: a symlink (or anything else not a plain file) was not written by a cache.
        if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
        if (entry_file) {
            Entry& e = out.entries[name.substr(0, kKeyChars)];
            e.files.push_back(path);
            e.bytes += std::uint64_t(st.st_size);
            e.newest = std::max(e.newest, mtime_of(st));
        } else {
            out.temps.push_back({path, std::uint64_t(st.st_size), mtime_of(st)});
        }
    }
    return out;
}

// True when this call removed it; false when it was already gone or cannot be removed.
bool remove_file(const fs::path& path) { return ::unlink(path.c_str()) == 0; }

void remove_stale_temps(const Scan& s, CacheCleanup& done) {
    const Nanos cutoff = now_nanos() - Nanos(kStaleTempAge.count()) * 1'000'000'000;
    for (const auto& t : s.temps) {
        if (t.mtime >= cutoff) {
            ++done.temp_kept;
            continue;
        }
        if (remove_file(t.path)) {
            ++done.temp_removed;
            done.bytes_freed += t.bytes;
        }
    }
}

// Removes the entry unless it was touched after the scan (a hit in another
// process or thread: it is in use, and now the newest). Returns whether it went.
bool remove_entry(const Entry& e, CacheCleanup& done) {
    for (const auto& f : e.files) {
        struct stat st{};
        if (::lstat(f.c_str(), &st) == 0 && mtime_of(st) > e.newest) return false;
    }
    bool any = false;
    for (const auto& f : e.files) any |= remove_file(f);
    if (any) {
        ++done.entries_removed;
        done.bytes_freed += e.bytes;
    }
    return true;
}

// What this process knows of each folder's size, for trim_cache.
struct KnownSize {
    std::uint64_t bytes = 0;  // entries found by the last scan, plus those stored since
    Nanos scanned_at = 0;
};
std::mutex g_known_mutex;
std::map<fs::path, KnownSize> g_known;

std::uint64_t entry_bytes(const CacheFolder& folder, const std::string& key) {
    std::uint64_t bytes = 0;
    for (const auto& suffix : folder.entry_suffixes) {
        struct stat st{};
        if (::lstat((folder.dir / (key + suffix)).c_str(), &st) == 0 && S_ISREG(st.st_mode))
            bytes += std::uint64_t(st.st_size);
    }
    return bytes;
}

// True when the folder, as this process last saw it plus `added`, is still
// under its cap and that sight is recent: no need to list it again.
bool known_under_cap(const CacheFolder& folder, std::uint64_t added) {
    std::lock_guard lock(g_known_mutex);
    auto it = g_known.find(folder.dir);
    if (it == g_known.end()) return false;
    if (now_nanos() - it->second.scanned_at > Nanos(kRescanAfter.count()) * 1'000'000'000) return false;
    if (it->second.bytes + added > folder.max_bytes) return false;
    it->second.bytes += added;
    return true;
}

void remember_size(const CacheFolder& folder, std::uint64_t bytes, Nanos scanned_at) {
    std::lock_guard lock(g_known_mutex);
    g_known[folder.dir] = {bytes, scanned_at};
}

// $WB_CACHE_MAX_MB as bytes, or the default with a note saying why the variable was not used.
std::uint64_t cap_bytes(std::uint64_t default_bytes, std::string& source) {
    const char* v = std::getenv("WB_CACHE_MAX_MB");
    if (!v || !*v) {
        source = "default";
        return default_bytes;
    }
    char* end = nullptr;
    double mib = std::strtod(v, &end);
    if (*end || !std::isfinite(mib) || mib < 0 || mib > 1e9) {
        source = "default (WB_CACHE_MAX_MB='" + std::string(v) + "' ignored: not a number of MiB >= 0)";
        return default_bytes;
    }
    source = "WB_CACHE_MAX_MB";
    return std::uint64_t(mib * double(kMiB));
}

}  // namespace

CacheFolder cache_folder(CacheKind kind, fs::path dir) {
    CacheFolder f;
    std::uint64_t default_bytes = 0;
    switch (kind) {
    case CacheKind::Nvrtc:
        f.name = "nvrtc";
        f.entry_suffixes = {".wbc"};
        default_bytes = 256 * kMiB;
        break;
    case CacheKind::Reference:
        f.name = "reference";
        f.entry_suffixes = {".so"};
        default_bytes = 128 * kMiB;
        break;
    case CacheKind::Emulated:  // kernels built for the CPU emulator
        f.name = "emulated";
        f.entry_suffixes = {".so"};
        default_bytes = 128 * kMiB;
        break;
    case CacheKind::HostStep:  // host steps' libraries, built by nvcc
        f.name = "host";
        f.entry_suffixes = {".so"};
        default_bytes = 128 * kMiB;
        break;
    case CacheKind::Outputs:  // the CPU reference's outputs a grade ran once (pipeline/reference_store.hpp)
        f.name = "outputs";
        f.entry_suffixes = {".wbo"};
        default_bytes = 1024 * kMiB;
        break;
    }
    f.dir = dir.empty() ? cache_dir() / f.name : std::move(dir);
    f.max_bytes = cap_bytes(default_bytes, f.cap_source);
    return f;
}

std::vector<CacheFolder> cache_folders() {
    return {cache_folder(CacheKind::Nvrtc), cache_folder(CacheKind::Reference), cache_folder(CacheKind::Emulated),
            cache_folder(CacheKind::HostStep), cache_folder(CacheKind::Outputs)};
}

CacheStats cache_stats(const CacheFolder& folder) {
    CacheStats stats;
    try {
        Scan s = scan(folder);
        stats.entries = s.entries.size();
        for (const auto& [key, e] : s.entries) stats.bytes += e.bytes;
        stats.temp_files = s.temps.size();
        for (const auto& t : s.temps) stats.temp_bytes += t.bytes;
    } catch (const std::exception&) {
        // Out of memory while listing a huge folder: report what is known (nothing).
    }
    return stats;
}

void touch_cache_entry(const fs::path& file) noexcept {
    // times = nullptr: atime and mtime become now. ENOENT (evicted meanwhile) is fine.
    ::utimensat(AT_FDCWD, file.c_str(), nullptr, 0);
}

CacheCleanup trim_cache(const CacheFolder& folder, const std::string& keep_key) noexcept {
    CacheCleanup done;
    try {
        if (!keep_key.empty() && known_under_cap(folder, entry_bytes(folder, keep_key))) return done;
        const Nanos scanned_at = now_nanos();
        Scan s = scan(folder);
        remove_stale_temps(s, done);
        std::uint64_t total = 0;
        std::vector<std::pair<const std::string*, const Entry*>> order;
        for (const auto& [key, e] : s.entries) {
            total += e.bytes;
            if (key != keep_key) order.push_back({&key, &e});
        }
        if (total <= folder.max_bytes) {
            remember_size(folder, total, scanned_at);
            return done;
        }
        // Oldest first; the key breaks ties so the order is the same in every process.
        std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
            return a.second->newest != b.second->newest ? a.second->newest < b.second->newest : *a.first < *b.first;
        });
        const auto low_water = std::uint64_t(double(folder.max_bytes) * kLowWater);
        for (const auto& [key, e] : order) {
            if (total <= low_water) break;
            // One already removed by another trim makes room too; one touched
            // since the scan is kept and does not.
            if (remove_entry(*e, done)) total -= e->bytes;
        }
        remember_size(folder, total, scanned_at);
    } catch (const std::exception&) {
        // Out of memory listing the folder: leave it as it is.
    }
    return done;
}

CacheCleanup clear_cache(const CacheFolder& folder) noexcept {
    CacheCleanup done;
    try {
        Scan s = scan(folder);
        remove_stale_temps(s, done);
        for (const auto& [key, e] : s.entries) {
            bool any = false;
            for (const auto& f : e.files) any |= remove_file(f);
            if (any) {
                ++done.entries_removed;
                done.bytes_freed += e.bytes;
            }
        }
    } catch (const std::exception&) {
    }
    return done;
}

}  // namespace wb
