// runtime/pipeline/wire.cpp — frames, requests, and results in their one JSON
// form (pipeline/result_json.hpp) with the buffers' bytes beside it (see wire.hpp).
#include "pipeline/wire.hpp"

#include "pipeline/result_json.hpp"

#include "core/error.hpp"
#include "lesson/lesson_files.hpp"
#include "sandbox/sandbox.hpp"
#include "lesson/loader.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <deque>
#include <mutex>
#include <set>
#include <csignal>
#include <poll.h>
#include <pthread.h>
#include <unistd.h>

namespace wb {

using nlohmann::json;

namespace {

constexpr char kMagic[4] = {'W', 'B', 'W', '1'};

// Writing into a pipe whose reader has died raises SIGPIPE, and its default
// action ends the process: the GUI exited with status 141 when its idle
// worker was killed and the next compile was sent. While one of these lives,
// SIGPIPE is blocked in this thread; one raised meanwhile is taken off the
// pending set before the mask is restored, so the write fails with EPIPE and
// nothing else happens. (send()'s MSG_NOSIGNAL does not exist for pipes, and
// a library must not change the process's signal dispositions.)
class SigpipeBlocked {
public:
    SigpipeBlocked() {
        sigemptyset(&pipe_);
        sigaddset(&pipe_, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
        sigset_t pending;
        sigpending(&pending);
        was_pending_ = sigismember(&pending, SIGPIPE) == 1;
    }
    ~SigpipeBlocked() {
        const int saved_errno = errno;
        sigset_t pending;
        if (!was_pending_ && sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1) {
            const timespec zero{0, 0};
            while (sigtimedwait(&pipe_, nullptr, &zero) < 0 && errno == EINTR) {}
        }
        pthread_sigmask(SIG_SETMASK, &old_, nullptr);
        errno = saved_errno;
    }
    SigpipeBlocked(const SigpipeBlocked&) = delete;
    SigpipeBlocked& operator=(const SigpipeBlocked&) = delete;

private:
    sigset_t pipe_, old_;
    bool was_pending_ = false;
};

bool write_all(int fd, const char* p, std::size_t n) {
    while (n > 0) {
        ssize_t w = ::write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        p += w;
        n -= std::size_t(w);
    }
    return true;
}

ReadStatus read_all(int fd, char* p, std::size_t n, std::chrono::steady_clock::time_point deadline) {
    while (n > 0) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
        if (left <= 0) return ReadStatus::TimedOut;
        pollfd pfd{fd, POLLIN, 0};
        int pr = ::poll(&pfd, 1, int(std::min<long long>(left, 1000)));
        if (pr < 0 && errno != EINTR) return ReadStatus::Closed;
        if (pr <= 0) continue;
        ssize_t r = ::read(fd, p, n);
        if (r < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return ReadStatus::Closed;
        }
        if (r == 0) return ReadStatus::Closed;
        p += r;
        n -= std::size_t(r);
    }
    return ReadStatus::Ok;
}

// In a request, floating-point numbers may appear only where a double is
// decoded (a result's form checks its own: result_from_json). A float read
// into an integer field converts out of range with undefined behaviour, so a
// frame with one anywhere else is malformed. `path` has array indices as "[]"
// and names map entries "*".
void check_floats(const json& j, const std::string& path, const std::set<std::string>& allowed) {
    if (j.is_number_float()) {
        if (!allowed.count(path))
            throw Error(ErrorKind::Internal, "malformed worker message: a fraction where a whole number belongs (" + path + ")");
        return;
    }
    if (j.is_array()) {
        for (const auto& v : j) check_floats(v, path + "[]", allowed);
    } else if (j.is_object()) {
        const bool map = path == "params";  // names chosen by the lesson
        for (const auto& [k, v] : j.items()) check_floats(v, path.empty() ? k : path + "." + (map ? "*" : k), allowed);
    }
}

const std::set<std::string> kRequestFloats = {"timeout_s", "params.*"};

template <class T>
T get_or(const json& j, const char* key, T fallback) {
    auto it = j.find(key);
    return it == j.end() || it->is_null() ? fallback : it->get<T>();
}

// A result's buffers, by the key of their list in its form.
template <class Result>
auto buffer_sets(Result& r) {
    return std::array{std::pair{"inputs", &r.inputs}, std::pair{"gpu_outputs", &r.gpu_outputs},
                      std::pair{"cpu_outputs", &r.cpu_outputs}};
}

}  // namespace

bool write_frame(int fd, const Frame& f) {
    const SigpipeBlocked no_sigpipe;
    std::string text = f.json.dump(-1, ' ', false, json::error_handler_t::replace);
    char header[24];
    std::memcpy(header, kMagic, 4);
    uint32_t kind = uint32_t(f.kind);
    uint64_t jl = text.size(), bl = f.blob.size();
    for (const Bytes& part : f.blob_tail) bl += part.size();
    std::memcpy(header + 4, &kind, 4);
    std::memcpy(header + 8, &jl, 8);
    std::memcpy(header + 16, &bl, 8);
    if (!(write_all(fd, header, sizeof header) && write_all(fd, text.data(), text.size()) &&
          write_all(fd, f.blob.data(), f.blob.size())))
        return false;
    for (const Bytes& part : f.blob_tail)
        if (!write_all(fd, reinterpret_cast<const char*>(part.data()), part.size())) return false;
    return true;
}

std::string frame_blob(const Frame& f) {
    std::string blob = f.blob;
    for (const Bytes& part : f.blob_tail) blob.append(reinterpret_cast<const char*>(part.data()), part.size());
    return blob;
}

ReadStatus read_frame(int fd, Frame& out, std::chrono::steady_clock::time_point deadline, const FrameLimits& limits) {
    char header[24];
    ReadStatus st = read_all(fd, header, sizeof header, deadline);
    if (st != ReadStatus::Ok) return st;
    if (std::memcmp(header, kMagic, 4) != 0) return ReadStatus::Corrupt;
    uint32_t kind;
    uint64_t jl, bl;
    std::memcpy(&kind, header + 4, 4);
    std::memcpy(&jl, header + 8, 8);
    std::memcpy(&bl, header + 16, 8);
    if (kind < 1 || kind > 4 || jl > limits.max_json || bl > limits.max_blob) return ReadStatus::Corrupt;
    std::string text(jl, '\0');
    if ((st = read_all(fd, text.data(), jl, deadline)) != ReadStatus::Ok) return st;
    out.blob.assign(bl, '\0');
    if ((st = read_all(fd, out.blob.data(), bl, deadline)) != ReadStatus::Ok) return st;
    out.kind = FrameKind(kind);
    out.json = json::parse(text, nullptr, false);
    return out.json.is_discarded() ? ReadStatus::Corrupt : ReadStatus::Ok;
}

Frame encode_request(const RunRequest& r) {
    Frame f;
    f.kind = FrameKind::Request;
    json launches = json::array();
    for (const auto& l : r.launches) {
        json lj = json::object();
        if (l.block) lj["block"] = *l.block;
        if (l.grid) lj["grid"] = *l.grid;
        if (l.shared_bytes) lj["shared_bytes"] = *l.shared_bytes;
        launches.push_back(lj);
    }
    f.json = {{"lesson_file", r.lesson ? r.lesson->file.string() : std::string()},
              {"lesson_text", r.lesson ? r.lesson->json_text : std::string()},
              {"step", r.step},
              {"case", r.test_case},
              {"source", int(r.source)},
              {"custom_source", r.custom_source},
              {"custom_origin", r.custom_origin},
              {"params", r.params},
              {"launches", launches},
              {"arch", r.arch},
              {"compile_only", r.compile_only},
              {"executor", int(r.executor)},
              {"timing", r.timing},
              {"warm_l2", r.warm_l2},
              {"warmup", r.warmup},
              {"repeat", r.repeat},
              {"keep_buffers", r.keep_buffers},
              {"sample_over", r.sample_over},
              {"timeout_s", r.timeout_s},
              {"sanitizer", int(r.sanitizer)},
              {"reference", r.reference},
              {"reference_build_only", r.reference_build_only},
              {"inspect", r.inspect},
              {"trusted", r.trusted},
              {"cancel_token", r.cancel_token}};
    return f;
}

// The lesson a request names, parsed once: a warm worker gets the same text
// with every compile and run of an edit loop, and parsing it (with its images)
// each time would sit on the edit-to-result path. A lesson is parsed again
// when its text changes or any file it was made from changes on disk.
static std::shared_ptr<const Lesson> parsed_lesson(const std::string& file, const std::string& text) {
    struct Entry {
        std::string file, text;
        std::vector<FileStamp> stamps;
        std::shared_ptr<const Lesson> lesson;
    };
    static std::mutex mutex;
    static std::deque<Entry> cache;  // most recent first
    constexpr std::size_t kKeep = 4;
    auto stamps_of = [](const Lesson& l) {
        std::vector<FileStamp> v;
        for (const auto& f : lesson_files(l)) v.push_back(stamp_file(f));
        return v;
    };
    {
        std::lock_guard<std::mutex> lock(mutex);
        for (auto it = cache.begin(); it != cache.end(); ++it) {
            if (it->file != file || it->text != text) continue;
            if (stamps_of(*it->lesson) == it->stamps) {
                Entry hit = std::move(*it);
                cache.erase(it);
                cache.push_front(std::move(hit));
                return cache.front().lesson;
            }
            cache.erase(it);
            break;
        }
    }
    // The text the front end loaded, when it sent one; side files (sources,
    // images) are read from the lesson's folder either way.
    LoadResult lr = text.empty() ? load_lesson(file) : load_lesson_text(text, file);
    if (!lr.ok()) {
        std::string msg = "the lesson does not load";
        if (!lr.issues.empty()) msg += ": " + lr.issues[0].to_string();
        throw Error(ErrorKind::Usage, msg);
    }
    auto lesson = std::make_shared<const Lesson>(std::move(*lr.lesson));
    std::lock_guard<std::mutex> lock(mutex);
    cache.push_front({file, text, stamps_of(*lesson), lesson});
    if (cache.size() > kKeep) cache.pop_back();
    return lesson;
}

RunRequest decode_request(const Frame& f) {
    check_floats(f.json, "", kRequestFloats);
    RunRequest r;
    std::string file, text;
    try {
        const json& j = f.json;
        file = j.at("lesson_file");
        text = j.at("lesson_text");
        r.step = j.at("step");
        r.test_case = j.at("case");
        r.source = SourceChoice(j.at("source").get<int>());
        r.custom_source = j.at("custom_source");
        r.custom_origin = j.at("custom_origin");
        r.params = j.at("params").get<std::map<std::string, double>>();
        for (const auto& lj : j.at("launches")) {
            LaunchOverride o;
            if (lj.contains("block")) o.block = lj["block"].get<std::array<long long, 3>>();
            if (lj.contains("grid")) o.grid = lj["grid"].get<std::array<long long, 3>>();
            if (lj.contains("shared_bytes")) o.shared_bytes = lj["shared_bytes"].get<long long>();
            r.launches.push_back(o);
        }
        r.arch = j.at("arch");
        r.compile_only = j.at("compile_only");
        {
            const int e = get_or<int>(j, "executor", 0);
            if (e < 0 || e > int(Executor::Auto)) throw Error(ErrorKind::Internal, "malformed worker message: executor out of range");
            r.executor = Executor(e);
        }
        r.timing = j.at("timing");
        r.warm_l2 = get_or<bool>(j, "warm_l2", false);
        r.warmup = j.at("warmup");
        r.repeat = j.at("repeat");
        r.keep_buffers = j.at("keep_buffers");
        r.sample_over = j.value("sample_over", std::size_t(0));
        r.timeout_s = j.at("timeout_s");
        r.sanitizer = SanitizerTool(get_or<int>(j, "sanitizer", 0));
        r.reference = j.at("reference");
        r.reference_build_only = get_or<bool>(j, "reference_build_only", false);
        r.inspect = get_or<bool>(j, "inspect", false);
        r.trusted = j.at("trusted");
        r.cancel_token = j.at("cancel_token");
    } catch (const nlohmann::json::exception& e) {
        throw Error(ErrorKind::Internal, std::string("malformed request to the worker: ") + e.what());
    }
    // A worker works in an empty folder (sandbox/sandbox.hpp); a relative lesson path is the front end's.
    r.lesson = parsed_lesson(from_start_folder(file).string(), text);
    return r;
}

json encode_sentence(const Sentence& s) { return s; }

Sentence decode_sentence(const json& object, const char* member) {
    if (!object.is_object() || !object.contains(member)) return {};
    try {
        return object[member].get<Sentence>();
    } catch (const json::exception&) {
    } catch (const Error&) {
    }
    return {};
}

Frame encode_result(const RunResult& r) {
    Frame f;
    f.kind = FrameKind::Result;
    f.json = result_json(r);
    // Each buffer's summary gets the offset of its bytes in the blob, where
    // they are queued shared with the result, not copied.
    std::size_t offset = 0;
    for (const auto& [set, bufs] : buffer_sets(r)) {
        json& list = f.json[set];
        for (std::size_t i = 0; i < bufs->size(); ++i) {
            const Bytes& bytes = (*bufs)[i].bytes;
            list[i]["offset"] = offset;
            offset += bytes.size();
            if (!bytes.empty()) f.blob_tail.push_back(bytes);
        }
    }
    return f;
}

RunResult decode_result(const Frame& frame) {
    // A frame from encode_result, not through a pipe, still has its tail apart.
    Frame joined;
    if (!frame.blob_tail.empty()) {
        joined.kind = frame.kind;
        joined.json = frame.json;
        joined.blob = frame_blob(frame);
    }
    const Frame& f = frame.blob_tail.empty() ? frame : joined;
    auto malformed = [](const std::string& why) { return Error(ErrorKind::Internal, "the worker sent a " + why); };
    if (!f.json.is_object() || !f.json.contains("status")) throw malformed("malformed result: it has no status");
    RunResult r;
    try {
        r = result_from_json(f.json);
    } catch (const Error& e) {
        throw malformed(e.message());
    }
    for (auto& [set, bufs] : buffer_sets(r)) {
        for (std::size_t i = 0; i < bufs->size(); ++i) {
            const json& b = f.json.at(set).at(i);  // there: the list decoded into `bufs`
            const json* offset = b.contains("offset") ? &b.at("offset") : nullptr;
            const json* size = b.contains("bytes") ? &b.at("bytes") : nullptr;
            if (!offset || !size || !offset->is_number_unsigned() || !size->is_number_unsigned())
                throw malformed("malformed result: " + std::string(set) + "[" + std::to_string(i) + "] does not say where its bytes are");
            const std::size_t off = offset->get<std::size_t>(), n = size->get<std::size_t>();
            if (off > f.blob.size() || n > f.blob.size() - off)
                throw malformed("malformed result: the bytes of " + std::string(set) + "[" + std::to_string(i) + "] lie outside its data");
            HostBuffer& buf = (*bufs)[i];
            buf.bytes = Bytes(n);
            if (n) std::memcpy(buf.bytes.mutable_data(), f.blob.data() + off, n);
        }
    }
    return r;
}

}  // namespace wb
