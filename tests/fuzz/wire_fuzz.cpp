// tests/fuzz/wire_fuzz.cpp — libFuzzer target for the worker wire format (pipeline/wire.hpp).
//
// The supervisor reads whatever a worker writes, and a worker that is dying
// (a faulting kernel, a killed process) can leave a frame cut short or
// garbled. wire.hpp's promise is that such bytes are a ReadStatus or a
// wb::Error, never a crash, an over-allocation or undefined behaviour. Each
// input is used two ways:
//   - as raw pipe bytes, starting "WBW1": written to a memfd and read with
//     read_frame, so the header, the lengths and the limits are fuzzed;
//   - otherwise as "JSON \0 blob": framed here with a correct header, so
//     mutations of the JSON reach decode_result and decode_request instead of
//     being stopped by a length that no longer matches.
// A frame that reads is passed to decode_result and decode_request, and to the
// builder's decode_build_request and decode_build_answer; each may throw
// wb::Error and nothing else. A result that decodes must survive
// encode_result -> decode_result unchanged (the same JSON when encoded again).
//
// With $WB_FUZZ_SEEDS set, LLVMFuzzerInitialize writes seed frames there,
// made by encode_result/encode_request so they always match the current
// format (one of them the result with every path of the form set); the request names $WB_FUZZ_LESSON (a shipped lesson, only read), so
// decode_request gets as far as loading it. Built and run by
// tests/fuzz/run_fuzz.sh.
#include "pipeline/wire.hpp"

#include "core/error.hpp"
#include "pipeline/result_json.hpp"

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/mman.h>
#include <tuple>
#include <type_traits>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

// Caps for read_frame, far below its defaults: an input is at most a few
// hundred KiB, so a larger announced length must be refused, not allocated.
constexpr std::uint64_t kMaxJson = 1 << 20;
constexpr std::uint64_t kMaxBlob = 1 << 20;

// read_frame's fourth parameter is the caller's cap; this accepts it either as
// a limits struct with max_json/max_blob or as a plain blob size.
template <class Limits>
struct CapOf;
template <class R, class... A>
struct CapOf<R (*)(A...)> {
    using Type = std::decay_t<std::tuple_element_t<3, std::tuple<A...>>>;
};

// A template, so that only the branch for read_frame's actual signature is compiled.
template <class ReadFrame>
wb::ReadStatus read_capped(ReadFrame read, int fd, wb::Frame& frame) {
    using Cap = typename CapOf<ReadFrame>::Type;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    if constexpr (std::is_integral_v<Cap>) {
        return read(fd, frame, deadline, Cap(kMaxBlob));
    } else {
        Cap cap{};
        cap.max_json = kMaxJson;
        cap.max_blob = kMaxBlob;
        return read(fd, frame, deadline, cap);
    }
}

std::string header(wb::FrameKind kind, std::uint64_t json_len, std::uint64_t blob_len) {
    std::string h = "WBW1";
    const auto k = static_cast<std::uint32_t>(kind);
    h.append(reinterpret_cast<const char*>(&k), 4);
    h.append(reinterpret_cast<const char*>(&json_len), 8);
    h.append(reinterpret_cast<const char*>(&blob_len), 8);
    return h;
}

// The bytes write_frame would send for `f`.
std::string raw_frame(const wb::Frame& f) {
    const std::string text = f.json.dump();
    const std::string blob = wb::frame_blob(f);
    return header(f.kind, text.size(), blob.size()) + text + blob;
}

// The "JSON \0 blob" form of `f`.
std::string json_and_blob(const wb::Frame& f) { return f.json.dump() + std::string(1, '\0') + wb::frame_blob(f); }

wb::RunResult sample_result() {
    wb::RunResult r;
    r.status = wb::RunStatus::Mismatch;
    r.message = "output 'c' differs from the CPU reference";
    r.hint = "look at the first mismatches";
    r.output = "printf from the kernel\n";
    r.lesson_id = "vector_add";
    r.step_id = "one_thread_per_element";
    r.case_name = "small";
    r.arch = "sm_90";
    r.params = {{"N", 6}};
    r.cpu_ms = 1.5;
    r.bytes = 72;
    r.flops = 6;
    wb::DeviceInfo dev;
    dev.name = "Fuzz GPU";
    dev.cc_major = 9;
    dev.sm_count = 132;
    r.device = dev;
    r.compile.ok = true;
    r.compile.arch = "sm_90";
    r.compile.diagnostics.push_back({"kernel.cu", 4, 9, wb::Severity::Warning, "variable \"y\" unused", "177"});
    r.compile.lowered_names = {{"vector_add", "vector_add"}};
    r.compile.options = {"--std=c++17", "-lineinfo"};
    r.reference.ok = true;
    r.reference.command = {"g++", "-O2"};
    wb::LaunchReport launch;
    launch.entry = "vector_add";
    launch.dims.grid = {2, 1, 1};
    launch.dims.block = {4, 1, 1};
    launch.refusal = wb::LaunchRefusal{"threads_per_block",
                                       {{"refuse.threads", {"2048", "1", "1", "2048", "1024", "@limits.this_gpu"}}}};
    r.launches.push_back(launch);
    wb::CompareResult c;
    c.buffer = "c";
    c.count = 6;
    c.mismatches = 1;
    c.max_abs_error = INFINITY;
    wb::Mismatch m;
    m.flat = 5;
    m.index = {1, 2};
    m.got = std::nan("");
    m.want = -2.5;
    m.reason = wb::MismatchReason::Unwritten;
    c.first.push_back(m);
    r.comparisons.push_back(c);
    wb::Timing t;
    t.warmup = 2;
    t.samples_ms = {0.5, 0.25, 0.75};
    t.median_ms = 0.5;
    t.min_ms = 0.25;
    t.max_ms = 0.75;
    r.gpu_time = t;
    r.sanitizer = wb::SanitizerTool::Memcheck;
    r.sanitizer_errors = 1;
    wb::SanitizerFinding finding;
    finding.kind = "Invalid __global__ write of size 4 bytes";
    finding.file = "kernel.cu";
    finding.line = 4;
    finding.has_thread = true;
    finding.thread = {3, 0, 0};
    finding.address = "0x7f1c2e000fa0 is out of bounds";
    r.sanitizer_findings.push_back(finding);
    for (const char* name : {"a", "c"}) {
        wb::HostBuffer b;
        b.name = name;
        b.shape = {2, 3};
        b.type = wb::DType::F32;
        b.role = name[0] == 'a' ? wb::BufferRole::Input : wb::BufferRole::Output;
        b.bytes = wb::Bytes(24, std::byte{7});
        (name[0] == 'a' ? r.inputs : r.gpu_outputs).push_back(b);
    }
    r.cpu_outputs.push_back(r.gpu_outputs.back());
    return r;
}

void write_seeds(const fs::path& dir) {
    fs::create_directories(dir);
    auto put = [&](const std::string& name, const std::string& bytes) {
        std::ofstream(dir / name, std::ios::binary) << bytes;
    };
    const wb::Frame result = wb::encode_result(sample_result());
    const wb::Frame empty_result = wb::encode_result(wb::RunResult{});
    wb::RunRequest req;
    req.step = "one_thread_per_element";
    req.test_case = "small";
    req.params = {{"N", 6}};
    req.launches.push_back({});
    req.launches.back().block = std::array<long long, 3>{128, 1, 1};
    wb::Frame request = wb::encode_request(req);
    if (const char* lesson = std::getenv("WB_FUZZ_LESSON")) request.json["lesson_file"] = lesson;
    put("result.frame", raw_frame(result));
    put("result_empty.frame", raw_frame(empty_result));
    put("result_every_path.frame", raw_frame(wb::encode_result(wb::every_path_result())));
    put("request.frame", raw_frame(request));
    put("result.json", json_and_blob(result));
    put("request.json", json_and_blob(request));
    // The builder's frames (a contained worker and its builder).
    wb::BuildRequest library;
    library.id = 7;
    library.library.tu = "extern \"C\" int f() { return 1; }\n";
    library.library.flags = {"-O2", "-fPIC", "-shared"};
    library.library.kind = wb::CacheKind::Emulated;
    library.library.cache_tag = "wb-emulated-3";
    wb::BuildRequest nvrtc;
    nvrtc.id = 8;
    nvrtc.nvrtc = true;
    nvrtc.source.text = "extern \"C\" __global__ void k(float* x) { x[0] = 1; }\n";
    nvrtc.source.origin = "kernel.cu";
    nvrtc.options.entries = {"k"};
    nvrtc.options.extra = {"-DTILE=16"};
    wb::BuildAnswer built;
    built.id = 7;
    built.library.ok = true;
    built.library.library = "/tmp/x.so";
    built.library.command = {"c++", "-O2"};
    built.library.seconds = 0.5;
    wb::BuildAnswer compiled;
    compiled.id = 8;
    compiled.nvrtc = true;
    compiled.compiled.ok = true;
    compiled.compiled.image = std::string(16, '\x01');
    wb::BuildAnswer failed;
    failed.id = 9;
    failed.failed = true;
    failed.error_kind = wb::ErrorKind::Io;
    failed.error_message = "cannot write";
    for (const auto& [name, frame] : std::vector<std::pair<std::string, wb::Frame>>{
             {"build_library", wb::encode_build_request(library)},
             {"build_nvrtc", wb::encode_build_request(nvrtc)},
             {"built_library", wb::encode_build_answer(built)},
             {"built_nvrtc", wb::encode_build_answer(compiled)},
             {"build_failed", wb::encode_build_answer(failed)}}) {
        put(name + ".frame", raw_frame(frame));
        put(name + ".json", json_and_blob(frame));
    }
}

// What `decode` accepts, `encode` writes in a form `decode` takes back to the same frame.
template <class Decode, class Encode>
void round_trip(const wb::Frame& frame, Decode decode, Encode encode) {
    try {
        const wb::Frame again = encode(decode(frame));
        wb::Frame twice;
        try {
            twice = encode(decode(again));
        } catch (const wb::Error&) {
            std::abort();
        }
        if (twice.json != again.json || twice.blob != again.blob) std::abort();
    } catch (const wb::Error&) {
    }
}

void check(const wb::Frame& frame) {
    try {
        const wb::RunResult r = wb::decode_result(frame);
        const wb::Frame again = wb::encode_result(r);
        wb::RunResult back;
        try {
            back = wb::decode_result(again);
        } catch (const wb::Error&) {
            std::abort();  // what decode_result accepted, encode_result wrote in a form it refuses
        }
        if (wb::encode_result(back).json != again.json) std::abort();  // not the same result after a round trip
    } catch (const wb::Error&) {
    }
    try {
        (void)wb::decode_request(frame);
    } catch (const wb::Error&) {
    }
    // The builder's frames: a request or an answer that decodes must survive
    // encoding and decoding again unchanged.
    round_trip(frame, wb::decode_build_request, wb::encode_build_request);
    round_trip(frame, wb::decode_build_answer, wb::encode_build_answer);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    if (const char* seeds = std::getenv("WB_FUZZ_SEEDS")) write_seeds(seeds);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string input(reinterpret_cast<const char*>(data), size);
    std::string bytes;
    if (input.rfind("WBW1", 0) == 0) {
        bytes = input;
    } else {
        const std::size_t nul = input.find('\0');
        const std::string text = input.substr(0, nul);
        const std::string blob = nul == std::string::npos ? std::string() : input.substr(nul + 1);
        bytes = header(wb::FrameKind::Result, text.size(), blob.size()) + text + blob;
    }
    const int fd = ::memfd_create("wire_fuzz", MFD_CLOEXEC);
    if (fd < 0) std::abort();
    for (std::size_t off = 0; off < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + off, bytes.size() - off);
        if (n <= 0) std::abort();
        off += std::size_t(n);
    }
    ::lseek(fd, 0, SEEK_SET);
    wb::Frame frame;
    const wb::ReadStatus st = read_capped(&wb::read_frame, fd, frame);
    ::close(fd);
    if (st == wb::ReadStatus::Ok) check(frame);
    return 0;
}
