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
    if (kind < 1 || kind > kLastFrameKind || jl > limits.max_json || bl > limits.max_blob) return ReadStatus::Corrupt;
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
              {"access", r.access},
              {"profile", r.profile},
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
        r.access = get_or<bool>(j, "access", false);
        r.profile = get_or<bool>(j, "profile", false);
        r.trusted = j.at("trusted");
        r.cancel_token = j.at("cancel_token");
    } catch (const nlohmann::json::exception& e) {
        throw Error(ErrorKind::Internal, std::string("malformed request to the worker: ") + e.what());
    }
    // A worker works in an empty folder (sandbox/sandbox.hpp); a relative lesson path is the front end's.
    r.lesson = parsed_lesson(from_start_folder(file).string(), text);
    return r;
}

Frame encode_info(const BackendInfo& bi) {
    Frame a;
    a.kind = FrameKind::Result;
    a.json = {{"has_gpu", bi.has_gpu}, {"no_gpu_reason", bi.no_gpu_reason}, {"no_gpu_said", encode_sentence(bi.no_gpu_said)}};
    if (!bi.devices.empty()) {
        RunResult tmp;
        tmp.device = bi.devices[0];
        a.json["device"] = encode_result(tmp).json;
    }
    return a;
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

// ---- a worker and its builder ------------------------------------------------

namespace {

constexpr std::pair<CacheKind, const char*> kCacheKinds[] = {
    {CacheKind::Nvrtc, "nvrtc"}, {CacheKind::Reference, "reference"}, {CacheKind::Emulated, "emulated"},
    {CacheKind::HostStep, "host_step"}};

[[noreturn]] void malformed(const std::string& what) {
    throw Error(ErrorKind::Internal, "a malformed build frame: " + what);
}

const json& member(const json& j, const char* name, json::value_t type) {
    if (!j.is_object()) malformed("not an object");
    const auto it = j.find(name);
    if (it == j.end()) malformed(std::string("no '") + name + "'");
    const bool ok = type == json::value_t::number_unsigned ? it->is_number_unsigned()
                    : type == json::value_t::number_integer ? it->is_number_integer()
                    : type == json::value_t::number_float   ? it->is_number()
                                                            : it->type() == type;
    if (!ok) malformed(std::string("'") + name + "' has the wrong type");
    return *it;
}

std::string string_of(const json& j, const char* name) { return member(j, name, json::value_t::string).get<std::string>(); }
bool bool_of(const json& j, const char* name) { return member(j, name, json::value_t::boolean).get<bool>(); }

std::vector<std::string> strings_of(const json& j, const char* name) {
    std::vector<std::string> out;
    for (const auto& e : member(j, name, json::value_t::array)) {
        if (!e.is_string()) malformed(std::string("'") + name + "' holds a non-string");
        out.push_back(e.get<std::string>());
    }
    return out;
}

}  // namespace

Frame encode_build_request(const BuildRequest& r) {
    Frame f;
    f.kind = FrameKind::BuildRequest;
    if (!r.nvrtc) {
        const char* kind = "";
        for (const auto& [k, name] : kCacheKinds)
            if (k == r.library.kind) kind = name;
        f.json = {{"id", r.id},        {"op", "library"},          {"kind", kind},
                  {"tag", r.library.cache_tag}, {"flags", r.library.flags}, {"nvcc", r.library.nvcc}};
        f.blob = r.library.tu;
        return f;
    }
    f.json = {{"id", r.id},
              {"op", "nvrtc"},
              {"origin", r.source.origin},
              {"json_path", r.source.json_path},
              {"arch", r.options.arch},
              {"std", r.options.std},
              {"line_info", r.options.line_info},
              {"extra", r.options.extra},
              {"entries", r.options.entries},
              {"minimal", r.options.minimal}};
    f.blob = r.source.text;
    return f;
}

BuildRequest decode_build_request(const Frame& f) {
    if (f.kind != FrameKind::BuildRequest) malformed("not a build request");
    BuildRequest r;
    r.id = member(f.json, "id", json::value_t::number_unsigned).get<std::uint64_t>();
    const std::string op = string_of(f.json, "op");
    if (op == "library") {
        const std::string kind = string_of(f.json, "kind");
        bool known = false;
        for (const auto& [k, name] : kCacheKinds)
            if (kind == name && k != CacheKind::Nvrtc) r.library.kind = k, known = true;
        if (!known) malformed("no library cache named '" + kind + "'");
        r.library.cache_tag = string_of(f.json, "tag");
        r.library.flags = strings_of(f.json, "flags");
        r.library.nvcc = bool_of(f.json, "nvcc");
        r.library.tu = frame_blob(f);
        return r;
    }
    if (op != "nvrtc") malformed("no operation named '" + op + "'");
    r.nvrtc = true;
    r.source.origin = string_of(f.json, "origin");
    r.source.json_path = string_of(f.json, "json_path");
    r.source.text = frame_blob(f);
    r.options.arch = string_of(f.json, "arch");
    r.options.std = string_of(f.json, "std");
    r.options.line_info = bool_of(f.json, "line_info");
    r.options.extra = strings_of(f.json, "extra");
    r.options.entries = strings_of(f.json, "entries");
    r.options.minimal = bool_of(f.json, "minimal");
    r.options.use_cache = true;  // the builder's purpose: what passes is stored
    return r;
}

Frame encode_build_answer(const BuildAnswer& a) {
    Frame f;
    f.kind = FrameKind::BuildAnswer;
    f.json = {{"id", a.id}};
    if (a.failed) {
        f.json["error"] = {{"kind", int(a.error_kind)}, {"message", a.error_message}, {"hint", a.error_hint}};
        return f;
    }
    if (!a.nvrtc) {
        const HostLibrary& l = a.library;
        f.json.update({{"ok", l.ok},         {"log", l.log},         {"library", l.library.string()},
                       {"command", l.command}, {"exit_code", l.exit_code}, {"seconds", l.seconds},
                       {"from_cache", l.from_cache}});
        return f;
    }
    const CompileResult& c = a.compiled;
    f.json.update({{"ok", c.ok},           {"meta", compile_result_meta(c)}, {"key", c.cache_key},
                   {"seconds", c.seconds}, {"from_cache", c.from_cache},     {"cache_source", c.cache_source}});
    f.blob = c.image;
    return f;
}

BuildAnswer decode_build_answer(const Frame& f) {
    if (f.kind != FrameKind::BuildAnswer) malformed("not a build answer");
    BuildAnswer a;
    a.id = member(f.json, "id", json::value_t::number_unsigned).get<std::uint64_t>();
    if (f.json.contains("error")) {
        const json& e = member(f.json, "error", json::value_t::object);
        const int kind = member(e, "kind", json::value_t::number_integer).get<int>();
        if (kind < int(ErrorKind::Io) || kind > int(ErrorKind::Internal)) malformed("an error kind out of range");
        a.failed = true;
        a.error_kind = ErrorKind(kind);
        a.error_message = string_of(e, "message");
        a.error_hint = string_of(e, "hint");
        return a;
    }
    const double seconds = member(f.json, "seconds", json::value_t::number_float).get<double>();
    if (!(seconds >= 0) || seconds > 1e6) malformed("'seconds' out of range");
    if (f.json.contains("meta")) {
        a.nvrtc = true;
        CompileResult& c = a.compiled;
        c.ok = bool_of(f.json, "ok");
        try {
            compile_result_from_meta(member(f.json, "meta", json::value_t::object), c);
        } catch (const json::exception& e) {
            malformed(std::string("its compile result: ") + e.what());
        }
        c.cache_key = string_of(f.json, "key");
        c.seconds = seconds;
        c.from_cache = bool_of(f.json, "from_cache");
        c.cache_source = string_of(f.json, "cache_source");
        c.image = frame_blob(f);
        c.image_bytes = c.image.size();
        return a;
    }
    HostLibrary& l = a.library;
    l.ok = bool_of(f.json, "ok");
    l.log = string_of(f.json, "log");
    l.library = string_of(f.json, "library");
    l.command = strings_of(f.json, "command");
    l.exit_code = member(f.json, "exit_code", json::value_t::number_integer).get<int>();
    l.seconds = seconds;
    l.from_cache = bool_of(f.json, "from_cache");
    return a;
}

}  // namespace wb
