// runtime/core/disk_cache.hpp — the size cap, least-recently-used eviction and
// statistics of the workbook's on-disk caches, decided once for all of them.
//
// Caches live under wb::cache_dir(), and without a bound they grow forever
// (the GUI compiles on every pause in typing, and each edit is a new entry):
//
//   folder     default cap  why
//   nvrtc      256 MiB      one <key>.wbc per compile (compile/cache.cpp): a cubin with its log,
//                           5-12 KB for the shipped lessons, a few hundred KB for a CUB-heavy
//                           kernel. 256 MiB is ~20,000 typical compiles: weeks of editing.
//   reference  128 MiB      one <key>.so per reference build (reference/reference.cpp), ~16 KB,
//                           made only when a reference's C++ changes (a new lesson, an instructor
//                           editing): thousands of builds, and each costs only ~0.2 s to redo.
//   emulated   128 MiB      kernels built for the CPU emulator, one <key>.so each.
//   host       128 MiB      host steps' libraries, built by nvcc, one <key>.so each.
//   outputs    1 GiB        one <key>.wbo per case a grade ran the reference of
//                           (pipeline/reference_store.hpp): lesson 06's large case is 4 MiB,
//                           an entry at most 256 MiB; a grade's cases, a few lessons' worth.
//
// $WB_CACHE_MAX_MB caps every folder instead (MiB, fractions allowed: 0.5 is
// 512 KiB; 0 keeps only the entry just stored). A value that is not a number
// >= 0 is ignored, and the folder's cap_source says so.
//
// The policy:
// - An entry is the files named <64 hex digits of key><suffix>, for each of
//   the folder's suffixes. Its size is their sum, its age their newest mtime.
// - A cache hit touches the entry (mtime = now), so mtime order is use order,
//   across every process that shares the folder.
// - After a store that takes the folder over its cap, entries are removed
//   oldest first until it is at or under 90% of the cap (so the next few
//   thousand stores need not list the folder); the entry just stored is never
//   removed. A process lists the folder again only when its own count (the
//   size it last listed plus what it stored since) passes the cap, or a minute
//   after it last listed it; so with several processes storing at once the
//   folder may pass its cap by what the others stored in that minute.
// - Temporary files (<key>…tmp-…, written and renamed into place by the
//   caches) older than kStaleTempAge are removed: their writer has died. A
//   writer keeps its temporary file fresh (NVRTC entries are written in one
//   go; the host compiler reads its .cpp at once and writes its .so at the
//   end), so a younger one may still be in use and is left alone.
// - Any other file in the folder is not the workbook's: it is neither counted
//   nor removed.
// - Other processes may read, write, touch or trim the same folder at any
//   time: a file that vanished is skipped (ENOENT), and an entry touched since
//   the folder was scanned is kept. Two trims at once may remove a little more
//   than needed, which costs only a recompile.
// None of these functions throws: a cache that cannot be trimmed is bigger,
// not broken.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace wb {

enum class CacheKind { Nvrtc, Reference, Emulated, HostStep, Outputs };

inline constexpr std::chrono::seconds kStaleTempAge{10 * 60};

struct CacheFolder {
    std::string name;                         // "nvrtc", "reference", "emulated", "host", "outputs"
    std::filesystem::path dir;
    std::vector<std::string> entry_suffixes;  // an entry's files: <key><suffix> for each
    std::uint64_t max_bytes = 0;
    std::string cap_source;                   // "default", "WB_CACHE_MAX_MB", or why that was ignored
};

// The folder of one cache, with its cap. `dir` empty: wb::cache_dir()/<name>.
CacheFolder cache_folder(CacheKind kind, std::filesystem::path dir = {});
// Every cache folder of the workbook, for `cuda-workbook-cli cache`.
std::vector<CacheFolder> cache_folders();

struct CacheStats {
    std::size_t entries = 0;
    std::uint64_t bytes = 0;       // entries only, file sizes (not blocks)
    std::size_t temp_files = 0;    // temporary files, stale or not
    std::uint64_t temp_bytes = 0;
};
CacheStats cache_stats(const CacheFolder& folder);

struct CacheCleanup {
    std::size_t entries_removed = 0;
    std::size_t temp_removed = 0;  // stale temporary files
    std::size_t temp_kept = 0;     // temporary files young enough to be in use
    std::uint64_t bytes_freed = 0; // entries and temporary files, as removed by this call
};

// Marks the entry holding `file` as just used. A missing file is ignored.
void touch_cache_entry(const std::filesystem::path& file) noexcept;

// After storing the entry `keep_key`: when the folder is over its cap, removes
// stale temporary files, then the least recently used entries other than
// `keep_key` until it is at or under 90% of the cap. Without a key it lists
// the folder every time.
CacheCleanup trim_cache(const CacheFolder& folder, const std::string& keep_key = {}) noexcept;

// Removes every entry and every stale temporary file (`cuda-workbook-cli cache --clear`).
CacheCleanup clear_cache(const CacheFolder& folder) noexcept;

}  // namespace wb
