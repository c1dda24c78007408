// runtime/pipeline/reference_store.cpp — reference outputs on disk (reference_store.hpp).
//
// An entry: the line "wb-reference-outputs-1", the header's length as a
// decimal line, the header (JSON: key, timing, buffers with their offsets,
// sha256 of the data), then the data.
#include "pipeline/reference_store.hpp"

#include "core/disk_cache.hpp"
#include "core/fs.hpp"
#include "core/sha256.hpp"
#include "pipeline/result_json.hpp"

#include <nlohmann/json.hpp>

#include <cstring>

namespace fs = std::filesystem;
using nlohmann::json;

namespace wb {

namespace {

constexpr const char* kMagic = "wb-reference-outputs-1\n";

CacheFolder folder_of(const fs::path& dir) { return cache_folder(CacheKind::Outputs, dir); }

std::string entry_key(const std::string& key) { return sha256_hex(key); }

}  // namespace

bool store_reference(const std::string& key, const std::vector<HostBuffer>& outputs, const ReferenceTiming& timing,
                     const fs::path& dir) noexcept {
    try {
        std::uint64_t bytes = 0;
        for (const HostBuffer& h : outputs)
            if (h.role != BufferRole::Input) bytes += h.size_bytes();
        if (bytes > kStoredReferenceBytes) return false;
        json buffers = json::array();
        std::string data;
        data.reserve(bytes);
        for (const HostBuffer& h : outputs) {
            if (h.role == BufferRole::Input) continue;
            json b = h;
            b["offset"] = data.size();
            b["bytes"] = h.size_bytes();
            buffers.push_back(std::move(b));
            data.append(reinterpret_cast<const char*>(h.data()), h.size_bytes());
        }
        const json header = {{"key", key},
                             {"timing",
                              {{"seconds", timing.seconds},
                               {"cold_seconds", timing.cold_seconds},
                               {"warm_runs", timing.warm_runs},
                               {"threads", timing.threads}}},
                             {"buffers", buffers},
                             {"sha256", sha256_hex(data)}};
        const std::string h = header.dump();
        const CacheFolder folder = folder_of(dir);
        fs::create_directories(folder.dir);
        const std::string name = entry_key(key);
        write_file_atomic(folder.dir / (name + ".wbo"), kMagic + std::to_string(h.size()) + "\n" + h + data);
        trim_cache(folder, name);
        return true;
    } catch (...) {
        return false;
    }
}

std::optional<StoredReference> load_reference(const std::string& key, const std::vector<HostBuffer>& host,
                                              const fs::path& dir) noexcept {
    try {
        const CacheFolder folder = folder_of(dir);
        const fs::path file = folder.dir / (entry_key(key) + ".wbo");
        std::error_code ec;
        if (!fs::is_regular_file(file, ec)) return std::nullopt;
        const std::string text = read_file(file, kStoredReferenceBytes + (std::size_t(16) << 20), false);
        const std::size_t magic = std::strlen(kMagic);
        if (text.compare(0, magic, kMagic) != 0) return std::nullopt;
        const std::size_t eol = text.find('\n', magic);
        if (eol == std::string::npos || eol - magic > 12) return std::nullopt;
        const std::size_t header_size = std::stoull(text.substr(magic, eol - magic));
        if (header_size > text.size() - eol - 1) return std::nullopt;
        const json header = json::parse(text.substr(eol + 1, header_size));
        const std::string_view data(text.data() + eol + 1 + header_size, text.size() - eol - 1 - header_size);
        if (header.at("key").get<std::string>() != key || header.at("sha256").get<std::string>() != sha256_hex(data))
            return std::nullopt;
        StoredReference s;
        s.outputs = host;
        std::size_t not_inputs = 0;
        for (const HostBuffer& h : host) not_inputs += h.role != BufferRole::Input;
        if (header.at("buffers").size() != not_inputs) return std::nullopt;
        for (const json& b : header.at("buffers")) {
            const HostBuffer summary = b.get<HostBuffer>();
            const std::size_t off = b.at("offset").get<std::size_t>(), n = b.at("bytes").get<std::size_t>();
            if (off > data.size() || n > data.size() - off) return std::nullopt;
            HostBuffer* into = nullptr;
            for (HostBuffer& h : s.outputs)
                if (h.name == summary.name) into = &h;
            if (!into || into->role == BufferRole::Input || into->type != summary.type || into->shape != summary.shape ||
                into->size_bytes() != n)
                return std::nullopt;
            into->bytes = Bytes(n);
            if (n) std::memcpy(into->bytes.mutable_data(), data.data() + off, n);
        }
        const json& t = header.at("timing");
        s.timing.seconds = t.at("seconds").get<double>();
        s.timing.cold_seconds = t.at("cold_seconds").get<double>();
        s.timing.warm_runs = t.at("warm_runs").get<int>();
        s.timing.threads = t.at("threads").get<int>();
        touch_cache_entry(file);  // in a worker's sandbox the folder is read-only, and this does nothing
        return s;
    } catch (...) {
        return std::nullopt;
    }
}

}  // namespace wb
