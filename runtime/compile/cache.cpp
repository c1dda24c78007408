// runtime/compile/cache.cpp — the NVRTC result cache (see cache.hpp).
//
// On-disk entry layout, one file per key, <dir>/<key>.wbc:
//
//   "WBNVRTC\n"                                magic
//   <header JSON>\n                            {"format", "key", "payload_sha256",
//                                               "meta_bytes", "image_bytes"}
//   <meta JSON><image bytes>                   the payload the digest covers
//
// The metadata (log, diagnostics, lowered names, options) is JSON because it
// is small and readable when debugging a cache; the image stays raw bytes so
// a cubin is not inflated by escaping.
#include "compile/cache.hpp"

#include "core/disk_cache.hpp"
#include "core/fs.hpp"
#include "core/sha256.hpp"

#include <nlohmann/json.hpp>

#include <system_error>

namespace fs = std::filesystem;
using nlohmann::json;

namespace wb {

namespace {

constexpr std::string_view kMagic = "WBNVRTC\n";

}  // namespace

std::string compile_cache_key(const SourceText& source, const std::string& arch,
                              const std::vector<std::string>& nvrtc_options,
                              const std::vector<std::string>& entries) {
    Sha256 h;
    h.update_field("wb-nvrtc-cache");
    h.update_field(std::to_string(kCompileCacheFormat));
    h.update_field(nvrtc_version());
    h.update_field(nvrtc_builtin_headers_digest());
    h.update_field(arch);
    h.update_field(std::to_string(nvrtc_options.size()));
    for (const auto& o : nvrtc_options) h.update_field(o);
    h.update_field(source.text);
    h.update_field(source.origin);
    h.update_field(std::to_string(entries.size()));
    for (const auto& e : entries) h.update_field(e);
    return h.finish_hex();
}

CompileCache::CompileCache(fs::path dir, std::size_t memory_entries)
    : dir_(std::move(dir)), capacity_(memory_entries == 0 ? 1 : memory_entries) {}

CompileCache& CompileCache::global() {
    static CompileCache cache;
    return cache;
}

fs::path CompileCache::directory() const { return dir_.empty() ? cache_dir() / "nvrtc" : dir_; }

fs::path CompileCache::entry_path(const std::string& key) const { return directory() / (key + ".wbc"); }

std::optional<CompileResult> CompileCache::find(const std::string& key) {
    std::optional<CompileResult> hit;
    {
        std::lock_guard lock(mutex_);
        if (auto it = memory_.find(key); it != memory_.end()) {
            lru_.splice(lru_.begin(), lru_, it->second.second);
            hit = it->second.first;
            hit->from_cache = true;
            hit->cache_source = "memory";
            hit->seconds = 0;
        }
    }
    // A hit touches the disk entry too, so another process's trim (or this
    // one's after a restart) sees it as recently used (core/disk_cache.hpp).
    if (hit) {
        touch_cache_entry(entry_path(key));
        return hit;
    }
    // Read outside the lock: disk is slow and entries are immutable once renamed in.
    auto r = read_disk(key);
    if (!r) return std::nullopt;
    touch_cache_entry(entry_path(key));
    {
        std::lock_guard lock(mutex_);
        remember(key, *r);
    }
    r->from_cache = true;
    r->cache_source = "disk";
    r->seconds = 0;
    return r;
}

namespace {

// `result` as the cache keeps it: under `key`, and not marked as a hit.
CompileResult as_stored(const std::string& key, const CompileResult& result) {
    CompileResult clean = result;
    clean.from_cache = false;
    clean.cache_source.clear();
    clean.cache_key = key;
    return clean;
}

}  // namespace

void CompileCache::store(const std::string& key, const CompileResult& result) {
    if (!result.ok) return;
    const CompileResult clean = as_stored(key, result);
    {
        std::lock_guard lock(mutex_);
        remember(key, clean);
    }
    try {
        write_disk(key, clean);
    } catch (const std::exception&) {
        // A cache we cannot write is a slower app, not a failed compile.
        return;
    }
    trim_cache(cache_folder(CacheKind::Nvrtc, directory()), key);
}

void CompileCache::remember_only(const std::string& key, const CompileResult& result) {
    if (!result.ok) return;
    std::lock_guard lock(mutex_);
    remember(key, as_stored(key, result));
}

void CompileCache::clear_memory() {
    std::lock_guard lock(mutex_);
    memory_.clear();
    lru_.clear();
}

void CompileCache::remember(const std::string& key, const CompileResult& result) {
    if (auto it = memory_.find(key); it != memory_.end()) {
        it->second.first = result;
        lru_.splice(lru_.begin(), lru_, it->second.second);
        return;
    }
    lru_.push_front(key);
    memory_.emplace(key, std::make_pair(result, lru_.begin()));
    while (memory_.size() > capacity_) {
        memory_.erase(lru_.back());
        lru_.pop_back();
    }
}

void CompileCache::write_disk(const std::string& key, const CompileResult& r) const {
    json meta = compile_result_meta(r);
    // Logs may hold any bytes; replace invalid UTF-8 rather than fail the dump.
    std::string meta_text = meta.dump(-1, ' ', false, json::error_handler_t::replace);
    std::string payload = meta_text + r.image;
    json header = {{"format", kCompileCacheFormat},
                   {"key", key},
                   {"payload_sha256", sha256_hex(payload)},
                   {"meta_bytes", meta_text.size()},
                   {"image_bytes", r.image.size()}};
    std::string file(kMagic);
    file += header.dump();
    file += '\n';
    file += payload;
    // No fsync: read_disk checks every entry's SHA-256, so a torn entry is a miss.
    write_file_atomic(entry_path(key), file, /*sync=*/false);
}

std::optional<CompileResult> CompileCache::read_disk(const std::string& key) const {
    fs::path path = entry_path(key);
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return std::nullopt;
    auto reject = [&]() -> std::optional<CompileResult> {
        fs::remove(path, ec);  // corrupt or stale: never trusted, removed so it is rewritten
        return std::nullopt;
    };
    try {
        std::string data = read_file(path, std::size_t(256) << 20);
        if (data.compare(0, kMagic.size(), kMagic) != 0) return reject();
        std::size_t eol = data.find('\n', kMagic.size());
        if (eol == std::string::npos) return reject();
        json header = json::parse(data.begin() + std::ptrdiff_t(kMagic.size()), data.begin() + std::ptrdiff_t(eol));
        if (header.at("format").get<int>() != kCompileCacheFormat) return reject();
        if (header.at("key").get<std::string>() != key) return reject();
        std::size_t meta_bytes = header.at("meta_bytes").get<std::size_t>();
        std::size_t image_bytes = header.at("image_bytes").get<std::size_t>();
        std::string_view payload(data.data() + eol + 1, data.size() - eol - 1);
        if (payload.size() != meta_bytes + image_bytes || meta_bytes > payload.size()) return reject();
        if (sha256_hex(payload) != header.at("payload_sha256").get<std::string>()) return reject();
        json meta = json::parse(payload.substr(0, meta_bytes));
        CompileResult r;
        r.ok = true;
        compile_result_from_meta(meta, r);
        r.image = std::string(payload.substr(meta_bytes));
        r.cache_key = key;
        return r;
    } catch (const std::exception&) {
        return reject();
    }
}

}  // namespace wb
