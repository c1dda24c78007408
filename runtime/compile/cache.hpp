// runtime/compile/cache.hpp — the NVRTC result cache, in memory and on disk.
//
// A compile of a lesson kernel takes a few hundred milliseconds, and the GUI
// recompiles on every edit and every step switch, so successful results are
// kept twice: in a small in-memory LRU for this process, and on disk under
// wb::cache_dir()/"nvrtc" so a restart does not pay again. The key covers
// everything that changes the output (see compile_cache_key); PyTorch's
// cache leaves the options out of its key, which is the mistake to avoid.
//
// Disk entries are written atomically (temporary file, rename; no fsync,
// which would cost every edit a few milliseconds) and carry a magic, a format version, their own key and a SHA-256 of the
// payload. An entry that fails any check is deleted and treated as a miss:
// the cache is an optimisation and is never trusted over a fresh compile.
// The disk folder is capped (256 MiB by default, $WB_CACHE_MAX_MB): a hit
// touches its entry and a store evicts the least recently used ones
// (core/disk_cache.hpp).
// Failed compiles are not cached: they are cheap to redo and a student should
// always see fresh diagnostics. All members are safe to call from several
// threads (the GUI compiles in the background).
#pragma once

#include "compile/nvrtc.hpp"

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <filesystem>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace wb {

// Bumped whenever the key recipe or the entry layout changes.
inline constexpr int kCompileCacheFormat = 3;  // 2: meta holds "omitted" (capped diagnostics); 3: kEntryNotFound codes

// SHA-256 (hex) over: the cache format, the NVRTC version, the architecture,
// every NVRTC option in order, the source text, its origin (diagnostics name
// it) and the entry names (their lowered names are part of the result).
std::string compile_cache_key(const SourceText& source, const std::string& arch,
                              const std::vector<std::string>& nvrtc_options,
                              const std::vector<std::string>& entries);

class CompileCache {
public:
    // `dir` empty: wb::cache_dir()/"nvrtc", looked up on every disk access so
    // a change of $XDG_CACHE_HOME (tests) takes effect.
    explicit CompileCache(std::filesystem::path dir = {}, std::size_t memory_entries = 128);

    // The process-wide cache used by compile_cuda(source, options).
    static CompileCache& global();

    // A hit has from_cache = true and cache_source "memory" or "disk",
    // seconds = 0. A disk hit is also put in memory.
    std::optional<CompileResult> find(const std::string& key);

    // Keeps a successful result; failed ones are ignored. Disk write errors
    // are swallowed (a read-only cache folder must not fail a compile).
    void store(const std::string& key, const CompileResult& result);

    // Keeps `result` (a successful compile that another process stored on
    // disk: a contained worker's builder) in memory only.
    void remember_only(const std::string& key, const CompileResult& result);

    void clear_memory();
    std::filesystem::path directory() const;
    std::filesystem::path entry_path(const std::string& key) const;

private:
    std::optional<CompileResult> read_disk(const std::string& key) const;
    void write_disk(const std::string& key, const CompileResult& result) const;
    void remember(const std::string& key, const CompileResult& result);  // mutex held

    std::filesystem::path dir_;
    std::size_t capacity_;
    std::mutex mutex_;
    std::list<std::string> lru_;  // most recent first
    std::map<std::string, std::pair<CompileResult, std::list<std::string>::iterator>> memory_;
};

// A compile result's metadata (everything but the image), as a cache entry
// and the builder's answer carry it; from_meta throws nlohmann's exceptions
// on a malformed one.
nlohmann::json compile_result_meta(const CompileResult& result);
void compile_result_from_meta(const nlohmann::json& meta, CompileResult& result);

// compile_cuda with an explicit cache (tests, or a tool with its own folder).
CompileResult compile_cuda(const SourceText& source, const CompileOptions& options, CompileCache& cache);

}  // namespace wb
