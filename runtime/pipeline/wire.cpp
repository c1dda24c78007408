// runtime/pipeline/wire.cpp — frames and the loss-free JSON of runs (see wire.hpp).
#include "pipeline/wire.hpp"

#include "core/error.hpp"
#include "lesson/lesson_files.hpp"
#include "lesson/loader.hpp"

#include <cerrno>
#include <cmath>
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

json num(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return v;
}

double get_num(const json& j) {
    if (j.is_number()) return j.get<double>();
    if (j.is_string()) {
        const auto& s = j.get_ref<const std::string&>();
        if (s == "nan") return std::nan("");
        if (s == "inf") return INFINITY;
        if (s == "-inf") return -INFINITY;
    }
    throw Error(ErrorKind::Internal, "malformed number in a worker message");
}

// Floating-point numbers may appear only where a double is decoded. A float
// read into an integer field (a line, a size, a status) converts out of range
// with undefined behaviour, so a frame with one anywhere else is malformed.
// `path` has array indices as "[]" and names map entries "*".
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

const std::set<std::string> kResultFloats = {
    "cpu_ms", "cpu_cold_ms", "emulated_ms", "bytes", "flops", "params.*", "compile.seconds", "reference.seconds",
    "comparisons[].max_abs_error", "comparisons[].max_rel_error", "comparisons[].atol", "comparisons[].rtol",
    "comparisons[].first[].got", "comparisons[].first[].want", "gpu_time.samples_ms[]", "gpu_time.median_ms",
    "gpu_time.min_ms", "gpu_time.max_ms", "gpu_time.noise", "ceilings.copy_gbs", "ceilings.fp32_gflops", "ceilings.fp16_gflops",
    "ceilings.sgemm_gflops", "baseline.median_ms", "baseline.min_ms", "baseline.max_ms", "baseline.bytes", "baseline.flops",
    "baseline.check.max_abs_error", "baseline.check.max_rel_error", "baseline.check.atol", "baseline.check.rtol",
    "baseline.check.first[].got", "baseline.check.first[].want", "wall_time.samples_ms[]", "wall_time.median_ms",
    "wall_time.min_ms", "wall_time.max_ms", "wall_time.noise", "target.this_ms", "target.that_ms", "target.at_most",
    "timeline.wall_us", "timeline.ran_past_return_us", "timeline.activities[].start_us", "timeline.activities[].end_us"};
const std::set<std::string> kRequestFloats = {"timeout_s", "params.*"};

template <class T>
T get_or(const json& j, const char* key, T fallback) {
    auto it = j.find(key);
    return it == j.end() || it->is_null() ? fallback : it->get<T>();
}

// A kernel's GPU time and a host step's run() wall time travel alike.
json timing_json(const Timing& t) {
    json samples = json::array();
    for (double s : t.samples_ms) samples.push_back(num(s));
    return {{"warmup", t.warmup}, {"samples_ms", samples}, {"median_ms", num(t.median_ms)}, {"min_ms", num(t.min_ms)},
            {"max_ms", num(t.max_ms)}, {"near_resolution", t.near_resolution}, {"noise", num(t.noise)},
            {"stopped_by", t.stopped_by}, {"l2_flushed", t.l2_flushed}, {"batch", t.batch},
            {"not_batched", t.not_batched}, {"flush_subtracted", t.flush_subtracted}, {"sm_clock_mhz", t.sm_clock_mhz},
            {"max_sm_clock_mhz", t.max_sm_clock_mhz}, {"throttled", t.throttled}};
}

Timing timing_from(const json& t) {
    Timing tm;
    tm.warmup = t.at("warmup");
    for (const auto& s : t.at("samples_ms")) tm.samples_ms.push_back(get_num(s));
    tm.median_ms = get_num(t.at("median_ms"));
    tm.min_ms = get_num(t.at("min_ms"));
    tm.max_ms = get_num(t.at("max_ms"));
    tm.near_resolution = t.at("near_resolution");
    if (t.contains("noise")) tm.noise = get_num(t.at("noise"));
    tm.stopped_by = get_or<std::string>(t, "stopped_by", "");
    tm.l2_flushed = get_or<bool>(t, "l2_flushed", false);
    tm.batch = get_or<int>(t, "batch", 1);
    tm.flush_subtracted = get_or<bool>(t, "flush_subtracted", false);
    tm.not_batched = get_or<std::string>(t, "not_batched", "");
    tm.sm_clock_mhz = get_or<unsigned>(t, "sm_clock_mhz", 0);
    tm.max_sm_clock_mhz = get_or<unsigned>(t, "max_sm_clock_mhz", 0);
    tm.throttled = get_or<std::string>(t, "throttled", "");
    return tm;
}

json diags_json(const std::vector<Diagnostic>& ds) {
    json a = json::array();
    for (const auto& d : ds)
        a.push_back({{"file", d.file}, {"line", d.line}, {"column", d.column}, {"severity", int(d.severity)},
                     {"message", d.message}, {"code", d.code}});
    return a;
}

std::vector<Diagnostic> diags_from(const json& a) {
    std::vector<Diagnostic> out;
    for (const auto& j : a) {
        Diagnostic d;
        d.file = j.at("file");
        d.line = j.at("line");
        d.column = j.at("column");
        d.severity = Severity(j.at("severity").get<int>());
        d.message = j.at("message");
        d.code = j.at("code");
        out.push_back(std::move(d));
    }
    return out;
}

json compare_to_json(const CompareResult& cr) {
    json first = json::array();
    for (const auto& m : cr.first)
        first.push_back({{"flat", m.flat}, {"index", m.index}, {"got", num(m.got)}, {"want", num(m.want)},
                         {"reason", int(m.reason)}});
    // Flat pairs: start, count, start, count...
    json runs = json::array();
    for (const MismatchRun& run : cr.mismatch_runs) {
        runs.push_back(run.start);
        runs.push_back(run.count);
    }
    return {{"buffer", cr.buffer}, {"passed", cr.passed}, {"count", cr.count}, {"mismatches", cr.mismatches},
                     {"unwritten", cr.unwritten}, {"nondeterministic", cr.nondeterministic},
                     {"max_abs_error", num(cr.max_abs_error)}, {"max_rel_error", num(cr.max_rel_error)},
                     {"max_abs_at", cr.max_abs_at}, {"atol", cr.atol}, {"rtol", cr.rtol}, {"first", first},
                     {"note", cr.note}, {"note_said", encode_sentence(cr.note_said)},
                     {"changed_and_failed", cr.changed_and_failed},
                     {"deterministic", cr.deterministic}, {"mismatch_runs", runs},
                     {"mismatch_runs_truncated", cr.mismatch_runs_truncated}};
}

CompareResult compare_from_json(const json& cj) {
    CompareResult cr;
    cr.buffer = cj.at("buffer");
    cr.passed = cj.at("passed");
    cr.count = cj.at("count");
    cr.mismatches = cj.at("mismatches");
    cr.unwritten = cj.at("unwritten");
    cr.nondeterministic = cj.at("nondeterministic");
    cr.max_abs_error = get_num(cj.at("max_abs_error"));
    cr.max_rel_error = get_num(cj.at("max_rel_error"));
    cr.max_abs_at = cj.at("max_abs_at");
    cr.atol = cj.at("atol");
    cr.rtol = cj.at("rtol");
    cr.note = cj.at("note");
    cr.note_said = decode_sentence(cj, "note_said");
    cr.changed_and_failed = get_or<std::size_t>(cj, "changed_and_failed", 0);
    cr.deterministic = get_or<bool>(cj, "deterministic", false);
    cr.mismatch_runs_truncated = get_or<bool>(cj, "mismatch_runs_truncated", false);
    if (cj.contains("mismatch_runs")) {
        const json& runs = cj.at("mismatch_runs");
        if (!runs.is_array() || runs.size() % 2 != 0 || runs.size() / 2 > kMaxMismatchRuns)
            throw Error(ErrorKind::Internal, "malformed result from the worker: comparisons[].mismatch_runs is not start/count pairs");
        for (std::size_t k = 0; k < runs.size(); k += 2)
            cr.mismatch_runs.push_back({runs[k].get<std::size_t>(), runs[k + 1].get<std::size_t>()});
    }
    for (const auto& mj : cj.at("first")) {
        Mismatch m;
        m.flat = mj.at("flat");
        m.index = mj.at("index").get<std::vector<std::size_t>>();
        m.got = get_num(mj.at("got"));
        m.want = get_num(mj.at("want"));
        m.reason = MismatchReason(mj.at("reason").get<int>());
        cr.first.push_back(std::move(m));
    }
    return cr;
}

json device_json(const DeviceInfo& d) {
    const auto& l = d.limits;
    return {{"ordinal", d.ordinal}, {"name", d.name}, {"cc", {d.cc_major, d.cc_minor}}, {"sm_count", d.sm_count},
            {"total_memory", d.total_memory}, {"free_memory", d.free_memory}, {"clock_khz", d.clock_khz},
            {"memory_clock_khz", d.memory_clock_khz}, {"memory_bus_bits", d.memory_bus_bits}, {"l2_bytes", d.l2_bytes},
            {"driver_version", d.driver_version}, {"pci_bus_id", d.pci_bus_id},
            {"limits", {l.max_threads_per_block, l.max_block, l.max_grid, l.shared_per_block, l.shared_per_block_optin,
                        l.shared_per_sm, l.regs_per_block, l.regs_per_sm, l.max_threads_per_sm, l.warp_size}}};
}

DeviceInfo device_from(const json& j) {
    DeviceInfo d;
    d.ordinal = j.at("ordinal");
    d.name = j.at("name");
    d.cc_major = j.at("cc").at(0);
    d.cc_minor = j.at("cc").at(1);
    d.sm_count = j.at("sm_count");
    d.total_memory = j.at("total_memory");
    d.free_memory = j.at("free_memory");
    d.clock_khz = j.at("clock_khz");
    d.memory_clock_khz = j.at("memory_clock_khz");
    d.memory_bus_bits = j.at("memory_bus_bits");
    d.l2_bytes = j.at("l2_bytes");
    d.driver_version = j.at("driver_version");
    d.pci_bus_id = j.value("pci_bus_id", "");
    const json& l = j.at("limits");
    d.limits.max_threads_per_block = l.at(0);
    d.limits.max_block = l.at(1).get<std::array<long long, 3>>();
    d.limits.max_grid = l.at(2).get<std::array<long long, 3>>();
    d.limits.shared_per_block = l.at(3);
    d.limits.shared_per_block_optin = l.at(4);
    d.limits.shared_per_sm = l.at(5);
    d.limits.regs_per_block = l.at(6);
    d.limits.regs_per_sm = l.at(7);
    d.limits.max_threads_per_sm = l.at(8);
    d.limits.warp_size = l.at(9);
    return d;
}

json findings_json(const std::vector<SanitizerFinding>& fs) {
    json a = json::array();
    for (const auto& f : fs)
        a.push_back({{"kind", f.kind}, {"file", f.file}, {"line", f.line}, {"other_line", f.other_line},
                     {"function", f.function}, {"has_thread", f.has_thread}, {"block", f.block}, {"thread", f.thread},
                     {"address", f.address}, {"message", f.message}, {"is_error", f.is_error}, {"count", f.count}});
    return a;
}

std::vector<SanitizerFinding> findings_from(const json& a) {
    std::vector<SanitizerFinding> out;
    for (const auto& j : a) {
        SanitizerFinding f;
        f.kind = j.at("kind");
        f.file = j.at("file");
        f.line = j.at("line");
        f.other_line = j.at("other_line");
        f.function = j.at("function");
        f.has_thread = j.at("has_thread");
        f.block = j.at("block").get<std::array<int, 3>>();
        f.thread = j.at("thread").get<std::array<int, 3>>();
        f.address = j.at("address");
        f.message = j.at("message");
        f.is_error = j.at("is_error");
        f.count = j.at("count");
        out.push_back(std::move(f));
    }
    return out;
}

// Lists `bufs` in `list` and queues their bytes on the frame's blob tail
// (shared, not copied), each at the offset the list gives.
void add_buffers(json& list, Frame& f, const char* set, const std::vector<HostBuffer>& bufs) {
    for (const auto& b : bufs) {
        std::size_t offset = f.blob.size();
        for (const Bytes& part : f.blob_tail) offset += part.size();
        list.push_back({{"set", set}, {"name", b.name}, {"type", int(b.type)}, {"role", int(b.role)},
                        {"shape", b.shape}, {"offset", offset}, {"bytes", b.bytes.size()}});
        if (b.sample_of) list.back()["sample_of"] = {{"shape", b.sample_of->shape}, {"step", b.sample_of->step}};
        if (!b.bytes.empty()) f.blob_tail.push_back(b.bytes);
    }
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
    r.lesson = parsed_lesson(file, text);
    return r;
}

json encode_sentence(const Sentence& s) {
    json out = json::array();
    for (const Phrase& p : s) {
        json one = json::array({p.key});
        for (const auto& a : p.args) one.push_back(a);
        out.push_back(std::move(one));
    }
    return out;
}

Sentence decode_sentence(const json& object, const char* member) {
    Sentence s;
    if (!object.is_object() || !object.contains(member) || !object[member].is_array()) return s;
    for (const json& one : object[member]) {
        if (!one.is_array() || one.empty()) return {};
        Phrase p;
        for (std::size_t i = 0; i < one.size(); ++i) {
            if (!one[i].is_string()) return {};
            (i == 0 ? p.key : p.args.emplace_back()) = one[i].get<std::string>();
        }
        s.push_back(std::move(p));
    }
    return s;
}

Frame encode_result(const RunResult& r) {
    Frame f;
    f.kind = FrameKind::Result;
    json j = {{"status", int(r.status)}, {"message", r.message}, {"hint", r.hint}, {"error_code", r.error_code},
              {"output", r.output}, {"context_lost", r.context_lost}, {"lesson_id", r.lesson_id},
              {"step_id", r.step_id}, {"case_name", r.case_name}, {"arch", r.arch}, {"device_note", r.device_note},
              {"cpu_ms", num(r.cpu_ms)}, {"cpu_cold_ms", num(r.cpu_cold_ms)}, {"cpu_warm_runs", r.cpu_warm_runs},
              {"cpu_threads", r.cpu_threads}, {"cpu_from_cache", r.cpu_from_cache}, {"bytes", num(r.bytes)}, {"flops", num(r.flops)},
              {"emulated", r.emulated}, {"emulated_ms", num(r.emulated_ms)},
              {"message_said", encode_sentence(r.message_said)}, {"hint_said", encode_sentence(r.hint_said)},
              {"device_note_said", encode_sentence(r.device_note_said)}, {"fault_line", r.fault_line}};
    json params = json::object();
    for (const auto& [k, v] : r.params) params[k] = num(v);
    j["params"] = params;
    if (r.device) j["device"] = device_json(*r.device);
    const auto& c = r.compile;
    j["compile"] = {{"ok", c.ok}, {"diagnostics", diags_json(c.diagnostics)},
                    {"omitted", {c.diagnostics_omitted, c.omitted_errors, c.omitted_warnings}}, {"log", c.log}, {"arch", c.arch},
                    {"is_cubin", c.is_cubin}, {"image_bytes", c.image_bytes}, {"lowered_names", c.lowered_names},
                    {"options", c.options}, {"seconds", c.seconds}, {"from_cache", c.from_cache},
                    {"cache_source", c.cache_source}, {"cache_key", c.cache_key}};
    const auto& rb = r.reference;
    j["reference"] = {{"ok", rb.ok}, {"diagnostics", diags_json(rb.diagnostics)}, {"log", rb.log},
                      {"seconds", rb.seconds}, {"from_cache", rb.from_cache}, {"command", rb.command}};
    json launches = json::array();
    for (const auto& l : r.launches) {
        json lj = {{"entry", l.entry}, {"grid", l.dims.grid}, {"block", l.dims.block}, {"shared_bytes", l.dims.shared_bytes},
                   {"resources", {l.resources.registers, l.resources.static_shared, l.resources.local_bytes,
                                  l.resources.max_threads_per_block}},
                   {"shared_optin", l.shared_optin}, {"passes", l.passes}, {"tuned", l.tuned}};
        if (l.refusal) lj["refusal"] = {l.refusal->limit, l.refusal->message, encode_sentence(l.refusal->said)};
        launches.push_back(lj);
    }
    j["launches"] = launches;
    json comps = json::array();
    for (const auto& cr : r.comparisons) comps.push_back(compare_to_json(cr));
    j["comparisons"] = comps;
    if (r.ceilings)
        j["ceilings"] = {{"device", r.ceilings->device},          {"arch", r.ceilings->arch},
                         {"driver_version", r.ceilings->driver_version}, {"copy_gbs", num(r.ceilings->copy_gbs)},
                         {"fp32_gflops", num(r.ceilings->fp32_gflops)},  {"fp16_gflops", num(r.ceilings->fp16_gflops)},
                         {"sgemm_gflops", num(r.ceilings->sgemm_gflops)}, {"sgemm_note", r.ceilings->sgemm_note},
                         {"measured_at", r.ceilings->measured_at}};
    if (r.baseline) {
        const BaselineResult& b = *r.baseline;
        j["baseline"] = {{"kind", b.kind},       {"label", b.label},           {"ran", b.ran},
                         {"passed", b.passed},   {"note", b.note},             {"median_ms", num(b.median_ms)},
                         {"min_ms", num(b.min_ms)}, {"max_ms", num(b.max_ms)}, {"samples", b.samples}, {"batch", b.batch},
                         {"bytes", num(b.bytes)}, {"flops", num(b.flops)}};
        if (b.check) j["baseline"]["check"] = compare_to_json(*b.check);
    }
    if (r.inspection) {
        const InspectionReport& in = *r.inspection;
        json kernels = json::array();
        for (const KernelUsage& k : in.kernels)
            kernels.push_back({k.entry, k.registers, k.barriers, k.shared_static, k.constant, k.stack_frame,
                               k.spill_stores, k.spill_loads});
        auto listing = [](const Listing& lines) {
            json out = json::array();
            for (const ListingLine& l : lines) out.push_back({l.text, l.source_line, l.is_source});
            return out;
        };
        j["inspection"] = {{"arch", in.arch}, {"cc", in.cc}, {"kernels", kernels}, {"ptx", listing(in.ptx)},
                           {"sass", listing(in.sass)}, {"sass_unavailable", in.sass_unavailable}};
    }
    if (r.gpu_time) j["gpu_time"] = timing_json(*r.gpu_time);
    j["host_step"] = r.host_step;
    if (r.wall_time) j["wall_time"] = timing_json(*r.wall_time);
    if (r.timeline) j["timeline"] = timeline_to_json(*r.timeline);
    if (r.target) {
        const TargetResult& t = *r.target;
        j["target"] = {{"step", t.step}, {"measure", int(t.measure)}, {"at_most", t.at_most}, {"this_ms", num(t.this_ms)},
                       {"that_ms", num(t.that_ms)}, {"min_gpus", t.min_gpus}, {"gpus", t.gpus},
                       {"not_applicable", encode_sentence(t.not_applicable)}};
    }
    j["sanitizer"] = int(r.sanitizer);
    j["sanitizer_errors"] = r.sanitizer_errors;
    j["sanitizer_findings"] = findings_json(r.sanitizer_findings);
    json bufs = json::array();
    add_buffers(bufs, f, "inputs", r.inputs);
    add_buffers(bufs, f, "gpu", r.gpu_outputs);
    add_buffers(bufs, f, "cpu", r.cpu_outputs);
    j["buffers"] = bufs;
    f.json = std::move(j);
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
    check_floats(f.json, "", kResultFloats);
    try {
        const json& j = f.json;
        RunResult r;
        r.status = RunStatus(j.at("status").get<int>());
        r.message = j.at("message");
        r.hint = j.at("hint");
        r.error_code = j.at("error_code");
        r.output = j.at("output");
        r.context_lost = j.at("context_lost");
        r.lesson_id = j.at("lesson_id");
        r.step_id = j.at("step_id");
        r.case_name = j.at("case_name");
        r.arch = j.at("arch");
        r.device_note = j.at("device_note");
        r.message_said = decode_sentence(j, "message_said");
        r.hint_said = decode_sentence(j, "hint_said");
        r.device_note_said = decode_sentence(j, "device_note_said");
        r.fault_line = get_or<int>(j, "fault_line", 0);
        r.cpu_ms = get_num(j.at("cpu_ms"));
        if (j.contains("cpu_cold_ms")) r.cpu_cold_ms = get_num(j.at("cpu_cold_ms"));
        r.cpu_warm_runs = get_or<int>(j, "cpu_warm_runs", 0);
        r.cpu_threads = get_or<int>(j, "cpu_threads", 1);
        r.cpu_from_cache = get_or<bool>(j, "cpu_from_cache", false);
        r.emulated = get_or<bool>(j, "emulated", false);
        if (j.contains("emulated_ms")) r.emulated_ms = get_num(j.at("emulated_ms"));
        r.bytes = get_num(j.at("bytes"));
        r.flops = get_num(j.at("flops"));
        for (const auto& [k, v] : j.at("params").items()) r.params[k] = get_num(v);
        if (j.contains("device")) r.device = device_from(j["device"]);
        const json& c = j.at("compile");
        r.compile.ok = c.at("ok");
        r.compile.diagnostics = diags_from(c.at("diagnostics"));
        r.compile.diagnostics_omitted = c.at("omitted").at(0).get<std::size_t>();
        r.compile.omitted_errors = c.at("omitted").at(1).get<int>();
        r.compile.omitted_warnings = c.at("omitted").at(2).get<int>();
        r.compile.log = c.at("log");
        r.compile.arch = c.at("arch");
        r.compile.is_cubin = c.at("is_cubin");
        r.compile.image_bytes = c.at("image_bytes");
        r.compile.lowered_names = c.at("lowered_names").get<std::map<std::string, std::string>>();
        r.compile.options = c.at("options").get<std::vector<std::string>>();
        r.compile.seconds = c.at("seconds");
        r.compile.from_cache = c.at("from_cache");
        r.compile.cache_source = c.at("cache_source");
        r.compile.cache_key = c.at("cache_key");
        const json& rb = j.at("reference");
        r.reference.ok = rb.at("ok");
        r.reference.diagnostics = diags_from(rb.at("diagnostics"));
        r.reference.log = rb.at("log");
        r.reference.seconds = rb.at("seconds");
        r.reference.from_cache = rb.at("from_cache");
        r.reference.command = rb.at("command").get<std::vector<std::string>>();
        for (const auto& lj : j.at("launches")) {
            LaunchReport l;
            l.entry = lj.at("entry");
            l.dims.grid = lj.at("grid").get<std::array<long long, 3>>();
            l.dims.block = lj.at("block").get<std::array<long long, 3>>();
            l.dims.shared_bytes = lj.at("shared_bytes");
            const json& res = lj.at("resources");
            l.resources.registers = res.at(0);
            l.resources.static_shared = res.at(1);
            l.resources.local_bytes = res.at(2);
            l.resources.max_threads_per_block = res.at(3);
            l.shared_optin = lj.at("shared_optin");
            l.passes = lj.at("passes");
            l.tuned = lj.at("tuned");
            if (lj.contains("refusal")) {
                const json& rj = lj.at("refusal");
                l.refusal = LaunchRefusal{};
                l.refusal->limit = rj.at(0);
                l.refusal->message = rj.at(1);
                if (rj.size() > 2) l.refusal->said = decode_sentence(json{{"said", rj.at(2)}}, "said");
            }
            r.launches.push_back(std::move(l));
        }
        for (const auto& cj : j.at("comparisons")) r.comparisons.push_back(compare_from_json(cj));
        if (j.contains("ceilings")) {
            const json& cj = j.at("ceilings");
            Ceilings c;
            c.device = cj.at("device");
            c.arch = cj.at("arch");
            c.driver_version = cj.at("driver_version");
            c.copy_gbs = get_num(cj.at("copy_gbs"));
            c.fp32_gflops = get_num(cj.at("fp32_gflops"));
            c.fp16_gflops = get_num(cj.at("fp16_gflops"));
            c.sgemm_gflops = get_num(cj.at("sgemm_gflops"));
            c.sgemm_note = cj.at("sgemm_note");
            c.measured_at = cj.at("measured_at");
            r.ceilings = std::move(c);
        }
        if (j.contains("baseline")) {
            const json& bj = j.at("baseline");
            BaselineResult b;
            b.kind = bj.at("kind");
            b.label = bj.at("label");
            b.ran = bj.at("ran");
            b.passed = bj.at("passed");
            b.note = bj.at("note");
            b.median_ms = get_num(bj.at("median_ms"));
            b.min_ms = get_num(bj.at("min_ms"));
            b.max_ms = get_num(bj.at("max_ms"));
            b.samples = bj.at("samples");
            b.batch = get_or<int>(bj, "batch", 1);
            b.bytes = get_num(bj.at("bytes"));
            b.flops = get_num(bj.at("flops"));
            if (bj.contains("check")) b.check = compare_from_json(bj.at("check"));
            r.baseline = std::move(b);
        }
        if (j.contains("inspection")) {
            const json& ij = j.at("inspection");
            InspectionReport in;
            in.arch = ij.at("arch");
            in.cc = ij.at("cc");
            for (const auto& kj : ij.at("kernels")) {
                KernelUsage k;
                k.entry = kj.at(0);
                k.registers = kj.at(1);
                k.barriers = kj.at(2);
                k.shared_static = kj.at(3);
                k.constant = kj.at(4);
                k.stack_frame = kj.at(5);
                k.spill_stores = kj.at(6);
                k.spill_loads = kj.at(7);
                in.kernels.push_back(std::move(k));
            }
            auto listing = [](const json& lines) {
                Listing out;
                for (const auto& lj : lines) out.push_back({lj.at(0).get<std::string>(), lj.at(1).get<int>(), lj.at(2).get<bool>()});
                return out;
            };
            in.ptx = listing(ij.at("ptx"));
            in.sass = listing(ij.at("sass"));
            in.sass_unavailable = ij.at("sass_unavailable");
            r.inspection = std::move(in);
        }
        if (j.contains("gpu_time")) r.gpu_time = timing_from(j["gpu_time"]);
        r.host_step = get_or<bool>(j, "host_step", false);
        if (j.contains("wall_time")) r.wall_time = timing_from(j["wall_time"]);
        if (j.contains("timeline")) r.timeline = timeline_from_json(j["timeline"]);
        if (j.contains("target")) {
            const json& t = j["target"];
            TargetResult tr;
            tr.step = t.at("step");
            tr.measure = TargetMeasure(t.at("measure").get<int>());
            tr.at_most = t.at("at_most");
            tr.this_ms = get_num(t.at("this_ms"));
            tr.that_ms = get_num(t.at("that_ms"));
            tr.min_gpus = t.at("min_gpus");
            tr.gpus = t.at("gpus");
            tr.not_applicable = decode_sentence(t, "not_applicable");
            r.target = std::move(tr);
        }
        r.sanitizer = SanitizerTool(get_or<int>(j, "sanitizer", 0));
        r.sanitizer_errors = get_or<int>(j, "sanitizer_errors", -1);
        if (j.contains("sanitizer_findings")) r.sanitizer_findings = findings_from(j["sanitizer_findings"]);
        for (const auto& bj : j.at("buffers")) {
            HostBuffer b;
            b.name = bj.at("name");
            b.type = DType(bj.at("type").get<int>());
            b.role = BufferRole(bj.at("role").get<int>());
            b.shape = bj.at("shape").get<std::vector<std::size_t>>();
            if (bj.contains("sample_of")) {
                SampleOf of{bj["sample_of"].at("shape").get<std::vector<std::size_t>>(),
                            bj["sample_of"].at("step").get<std::vector<std::size_t>>()};
                if (of.shape.size() != b.shape.size() || of.step.size() != b.shape.size())
                    throw Error(ErrorKind::Internal, "a worker message's sampled buffer has mismatched dimensions");
                for (std::size_t d = 0; d < of.shape.size(); ++d)
                    if (of.step[d] == 0 || b.shape[d] != (of.shape[d] + of.step[d] - 1) / of.step[d])
                        throw Error(ErrorKind::Internal, "a worker message's sampled buffer does not match its whole");
                b.sample_of = std::move(of);
            }
            std::size_t off = bj.at("offset"), n = bj.at("bytes");
            if (off > f.blob.size() || n > f.blob.size() - off)
                throw Error(ErrorKind::Internal, "a worker message's buffer lies outside its data");
            b.bytes = Bytes(n);
            if (n) std::memcpy(b.bytes.mutable_data(), f.blob.data() + off, n);
            std::string set = bj.at("set");
            (set == "inputs" ? r.inputs : set == "gpu" ? r.gpu_outputs : r.cpu_outputs).push_back(std::move(b));
        }
        return r;
    } catch (const nlohmann::json::exception& e) {
        throw Error(ErrorKind::Internal, std::string("malformed result from the worker: ") + e.what());
    }
}

}  // namespace wb
