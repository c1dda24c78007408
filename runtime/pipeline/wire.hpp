// runtime/pipeline/wire.hpp — RunRequest and RunResult across a process boundary.
//
// The worker process (worker.hpp) and its supervisor talk over two pipes in
// frames: a 24-byte header ("WBW1", kind, JSON length, blob length), a JSON
// document, then a binary blob that holds buffer contents. A result's JSON is
// its one form (result_json.hpp: the report prints the same), in which each
// buffer's summary gives its size as "bytes"; the wire adds its "offset" in
// the blob. The bytes themselves are never JSON: they are written straight
// from the result's buffers.
#pragma once

#include "compile/cache.hpp"
#include "compile/remote_build.hpp"
#include "core/error.hpp"
#include "pipeline/run.hpp"

#include <chrono>
#include <cstdint>
#include "data/bytes.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace wb {

// BuildRequest and BuildAnswer pass between a contained worker and its
// builder (pipeline/builder.hpp), on pipes of their own. Output carries, in
// its blob, bytes a `--stdio` worker printed (pipeline/remote.hpp): there the
// frames and the output share one stream.
enum class FrameKind : uint32_t { Request = 1, Result = 2, Progress = 3, Quit = 4, BuildRequest = 5, BuildAnswer = 6, Output = 7 };
constexpr uint32_t kLastFrameKind = 7;
constexpr std::size_t kFrameHeaderBytes = 24;

struct Frame {
    FrameKind kind = FrameKind::Request;
    nlohmann::json json;
    std::string blob;
    // Written after `blob`, in order, as if appended to it: a result's
    // buffers, shared with the result rather than copied into the frame. A
    // frame read from a pipe has everything in `blob`.
    std::vector<Bytes> blob_tail;
};

// The blob as it crosses the pipe: `blob` followed by `blob_tail`.
std::string frame_blob(const Frame& f);

// Writes a whole frame; false when the other end is gone. Never raises
// SIGPIPE: a reader that died makes it return false, whatever the process's
// SIGPIPE disposition is.
bool write_frame(int fd, const Frame& frame);

enum class ReadStatus { Ok, Closed, TimedOut, Corrupt };

// The most a frame may carry. The reader decides from what it asked for: a
// header announcing more is a protocol error (Corrupt), never an allocation.
struct FrameLimits {
    std::uint64_t max_json = 64ull << 20;
    std::uint64_t max_blob = 16ull << 30;
};

// Reads one frame, waiting at most until `deadline` (poll). A frame that does
// not parse, or is larger than `limits`, is Corrupt, never a crash.
ReadStatus read_frame(int fd, Frame& out, std::chrono::steady_clock::time_point deadline, const FrameLimits& limits = {});

// The request names the lesson by file: the worker loads it itself.
Frame encode_request(const RunRequest& request);
// Throws wb::Error (Usage) when the lesson file does not load.
RunRequest decode_request(const Frame& frame);

Frame encode_result(const RunResult& result);
// The answer to {"info": true}: {"has_gpu", "no_gpu_reason", "no_gpu_said",
// "device" (the first device, in a result's form)}.
Frame encode_info(const BackendInfo& info);
// A Sentence (core/phrase.hpp) in its form, [[key, arg, ...], ...], for the
// worker's answer to "info". Decoding is lenient: a missing or malformed
// member gives an empty sentence, and the English text is shown instead.
nlohmann::json encode_sentence(const Sentence& s);
Sentence decode_sentence(const nlohmann::json& object, const char* member);
// Throws wb::Error (Internal) when malformed: not a result's form (see
// result_from_json), no status, or a buffer whose bytes are not in the blob.
RunResult decode_result(const Frame& frame);

// ---- a worker and its builder (pipeline/builder.hpp) ----
// A request: {"id", "op": "library", "kind", "tag", "flags", "nvcc"} with the
// translation unit as the blob, or {"id", "op": "nvrtc", "origin",
// "json_path", "arch", "std", "line_info", "extra", "entries", "minimal"}
// with the source as the blob. The answer: {"id"} and either "error"
// ({"kind", "message", "hint"}), a library's {"ok", "log", "library",
// "command", "exit_code", "seconds", "from_cache"}, or a compile's {"ok",
// "meta", "key", "seconds", "from_cache", "cache_source"} with the image as the blob.
struct BuildRequest {
    std::uint64_t id = 0;
    bool nvrtc = false;
    LibraryRequest library;  // when !nvrtc
    SourceText source;       // when nvrtc
    CompileOptions options;
};

struct BuildAnswer {
    std::uint64_t id = 0;
    bool failed = false;  // the builder threw: error_* say what
    ErrorKind error_kind = ErrorKind::Internal;
    std::string error_message, error_hint;
    bool nvrtc = false;
    HostLibrary library;
    CompileResult compiled;
};

Frame encode_build_request(const BuildRequest& request);
// Throws wb::Error (Internal) on any field that is missing, of the wrong
// type, or out of range.
BuildRequest decode_build_request(const Frame& frame);
Frame encode_build_answer(const BuildAnswer& answer);
// Throws wb::Error (Internal) when malformed.
BuildAnswer decode_build_answer(const Frame& frame);

}  // namespace wb
