// runtime/pipeline/reference_store.hpp — the CPU reference's outputs for one
// case, kept on disk so that every worker of a grade reads them instead of
// running the reference again.
//
// A grade starts a fresh worker for each submission (grade/grade.hpp), and a
// fresh worker keeps nothing in memory: without this, lesson 06's 1024^3
// reference would run once per student and case, and inside each student's
// deadline. So before any submission runs, the grade runs each case's
// reference once, in its own process (a RunRequest with reference_only), and
// that run stores the outputs here; a worker's ReferenceRunner looks here
// when it has no outputs of its own for the same key.
//
// Who may write: only a reference_only run. The grade's own process makes
// those, and runs no student's code. A worker only reads: inside its sandbox
// the cache folder is read-only (sandbox/sandbox.hpp), so nothing a
// submission does there can change the outputs another is compared with.
//
// An entry is cache_dir()/outputs/<sha256 of the key>.wbo, under the
// folder's cap (core/disk_cache.hpp): the key in full (a reader checks it,
// not only its hash), the reference's timing, each output buffer's summary
// and bytes, and the SHA-256 of those bytes, so a torn or altered file is a
// miss, never an output. Input buffers are not stored; the reader has them.
#pragma once

#include "data/buffers.hpp"
#include "reference/isolated.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace wb {

struct StoredReference {
    std::vector<HostBuffer> outputs;  // the buffers given, each not an input replaced by the stored one
    ReferenceTiming timing;
};

// An entry holds at most this many bytes of outputs; a larger case is run by each worker.
inline constexpr std::uint64_t kStoredReferenceBytes = std::uint64_t(256) << 20;

// Writes the non-input buffers of `outputs` under `key`. False (and nothing
// written) when they are over kStoredReferenceBytes or the folder cannot be
// written; never throws.
bool store_reference(const std::string& key, const std::vector<HostBuffer>& outputs, const ReferenceTiming& timing,
                     const std::filesystem::path& folder = {}) noexcept;

// The entry for `key`, laid over `host` (the case's inputs, as the reader
// made them): nullopt when there is none, or it is not whole, or it names a
// buffer `host` lacks or one of another type or size. Never throws.
std::optional<StoredReference> load_reference(const std::string& key, const std::vector<HostBuffer>& host,
                                              const std::filesystem::path& folder = {}) noexcept;

}  // namespace wb
