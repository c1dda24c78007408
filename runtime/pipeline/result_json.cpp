// runtime/pipeline/result_json.cpp — the hand-written parts of a result's one
// JSON form, and the checks that keep decoding it safe (see result_json.hpp).
#include "pipeline/result_json.hpp"

#include "core/error.hpp"

#include <cmath>

namespace wb {

using nlohmann::json;

namespace {

// An enum as its name. `last` is the highest value: a value added after it
// must move it, or its name does not decode (a test round-trips every status).
template <class E, class NameOf>
void enum_from_json(const json& j, E& e, E last, NameOf name_of, const char* what) {
    if (!j.is_string()) throw Error(ErrorKind::Usage, std::string("a ") + what + " is a name, not a " + j.type_name());
    const auto& s = j.get_ref<const std::string&>();
    for (int i = 0; i <= static_cast<int>(last); ++i)
        if (s == name_of(static_cast<E>(i))) {
            e = static_cast<E>(i);
            return;
        }
    throw Error(ErrorKind::Usage, std::string("no ") + what + " is named '" + s + "'");
}

const char* tool_name(SanitizerTool t) { return t == SanitizerTool::None ? "none" : sanitizer_tool_name(t); }

const char* role_name(BufferRole r) {
    switch (r) {
    case BufferRole::Input: return "input";
    case BufferRole::Output: return "output";
    case BufferRole::InOut: return "inout";
    }
    return "?";
}

// Where in the form a value is: keys joined by ".", array elements as "[]",
// and a map's entries (names chosen by the lesson) as "*".
bool is_map(const std::string& path) { return path == "params"; }

void append_key(std::string& path, const std::string& parent, const std::string& key) {
    path += path.empty() ? "" : ".";
    path += is_map(parent) ? std::string("*") : key;
}

// The paths of `j` that hold a number: fractions into `fractions`, whole numbers into `wholes`.
void number_paths(const json& j, std::string& path, std::set<std::string>& fractions, std::set<std::string>& wholes) {
    if (j.is_number_float()) {
        fractions.insert(path);
    } else if (j.is_number()) {
        wholes.insert(path);
    } else if (j.is_array()) {
        const std::size_t n = path.size();
        path += "[]";
        for (const auto& v : j) number_paths(v, path, fractions, wholes);
        path.resize(n);
    } else if (j.is_object()) {
        const std::string parent = path;
        for (const auto& [k, v] : j.items()) {
            append_key(path, parent, k);
            number_paths(v, path, fractions, wholes);
            path = parent;
        }
    }
}

// Where the form holds a double, and where a whole number: learnt from the
// result with every path.
struct NumberPaths {
    std::set<std::string> doubles, wholes;
};

const NumberPaths& number_paths() {
    static const NumberPaths paths = [] {
        NumberPaths p;
        std::string path;
        number_paths(json(every_path_result()), path, p.doubles, p.wholes);
        return p;
    }();
    return paths;
}

void nonfinite_to_names(json& j) {
    if (j.is_number_float()) {
        const double v = j.get<double>();
        if (std::isnan(v)) j = "nan";
        else if (std::isinf(v)) j = v > 0 ? "inf" : "-inf";
    } else if (j.is_structured()) {
        for (auto& v : j) nonfinite_to_names(v);
    }
}

// No fraction where the form has a whole number: read into an integer
// member, one out of range converts with undefined behaviour. (A fraction
// under a key the form does not have, a report's derived figure, is never
// read.) Where a double belongs, "nan", "inf" and "-inf" become numbers again.
void check_numbers(json& j, std::string& path, const NumberPaths& known) {
    if (j.is_number_float()) {
        if (known.wholes.count(path)) throw Error(ErrorKind::Internal, "a fraction where a whole number belongs (" + path + ")");
    } else if (j.is_string()) {
        if (!known.doubles.count(path)) return;
        const auto& s = j.get_ref<const std::string&>();
        if (s == "nan") j = std::nan("");
        else if (s == "inf") j = INFINITY;
        else if (s == "-inf") j = -INFINITY;
    } else if (j.is_array()) {
        const std::size_t n = path.size();
        path += "[]";
        for (auto& v : j) check_numbers(v, path, known);
        path.resize(n);
    } else if (j.is_object()) {
        const std::string parent = path;
        for (auto& [k, v] : j.items()) {
            append_key(path, parent, k);
            check_numbers(v, path, known);
            path = parent;
        }
    }
}

// What the types cannot say: a sample fits its whole, mismatch runs are capped.
void check_consistent(const RunResult& r) {
    auto check_compare = [](const CompareResult& c) {
        if (c.mismatch_runs.size() > kMaxMismatchRuns)
            throw Error(ErrorKind::Internal, "comparisons[].mismatch_runs has more runs than are ever kept");
    };
    for (const CompareResult& c : r.comparisons) check_compare(c);
    if (r.baseline && r.baseline->check) check_compare(*r.baseline->check);
    if (r.access) {
        // The access record's indices point into its own lists, and a lane is one of a warp's.
        const AccessSummary& a = *r.access;
        const auto buffer_ok = [&](int b) { return b >= 0 && std::size_t(b) < a.buffers.size(); };
        for (const AccessLine& l : a.lines)
            for (const AccessRequest& q : l.examples) {
                if (!buffer_ok(q.buffer)) throw Error(ErrorKind::Internal, "access.lines[].examples[].buffer is not one of access.buffers");
                for (const AccessLane& lane : q.lanes)
                    if (lane.lane < 0 || lane.lane >= kWarpLanes)
                        throw Error(ErrorKind::Internal, "access.lines[].examples[].lanes[] has a lane outside a warp");
            }
        for (const AccessThread& t : a.threads)
            for (const ThreadAccess& x : t.accesses)
                if (!buffer_ok(x.buffer) || x.row < 0 || std::size_t(x.row) >= a.lines.size())
                    throw Error(ErrorKind::Internal, "access.threads[].accesses[] names a row or buffer the record does not have");
    }
    for (const auto* set : {&r.inputs, &r.gpu_outputs, &r.cpu_outputs})
        for (const HostBuffer& b : *set) {
            if (!b.sample_of) continue;
            const SampleOf& of = *b.sample_of;
            if (of.shape.size() != b.shape.size() || of.step.size() != b.shape.size())
                throw Error(ErrorKind::Internal, "the sampled buffer '" + b.name + "' has mismatched dimensions");
            for (std::size_t d = 0; d < of.shape.size(); ++d)
                if (of.step[d] == 0 || b.shape[d] != (of.shape[d] + of.step[d] - 1) / of.step[d])
                    throw Error(ErrorKind::Internal, "the sampled buffer '" + b.name + "' does not match its whole");
        }
}

}  // namespace

void to_json(json& j, RunStatus s) { j = run_status_name(s); }
void from_json(const json& j, RunStatus& s) { enum_from_json(j, s, RunStatus::AccessLimit, run_status_name, "run status"); }
void to_json(json& j, LimitVerdict v) { j = limit_verdict_name(v); }
void from_json(const json& j, LimitVerdict& v) { enum_from_json(j, v, LimitVerdict::NotJudged, limit_verdict_name, "limit verdict"); }
void to_json(json& j, Severity s) { j = severity_name(s); }
void from_json(const json& j, Severity& s) { enum_from_json(j, s, Severity::Note, severity_name, "severity"); }
void to_json(json& j, MismatchReason r) { j = mismatch_reason_name(r); }
void from_json(const json& j, MismatchReason& r) {
    enum_from_json(j, r, MismatchReason::Nondeterministic, mismatch_reason_name, "mismatch reason");
}
void to_json(json& j, SanitizerTool t) { j = tool_name(t); }
void from_json(const json& j, SanitizerTool& t) { enum_from_json(j, t, SanitizerTool::Racecheck, tool_name, "sanitizer tool"); }
void to_json(json& j, TargetMeasure m) { j = target_measure_name(m); }
void from_json(const json& j, TargetMeasure& m) { enum_from_json(j, m, TargetMeasure::Kernels, target_measure_name, "target measure"); }
void to_json(json& j, DType t) { j = std::string(dtype_name(t)); }
void from_json(const json& j, DType& t) {
    enum_from_json(j, t, DType::F16, [](DType d) { return std::string(dtype_name(d)); }, "element type");
}
void to_json(json& j, BufferRole r) { j = role_name(r); }
void from_json(const json& j, BufferRole& r) { enum_from_json(j, r, BufferRole::InOut, role_name, "buffer role"); }

void to_json(json& j, const Phrase& p) {
    j = json::array({p.key});
    for (const auto& a : p.args) j.push_back(a);
}

void from_json(const json& j, Phrase& p) {
    if (!j.is_array() || j.empty()) throw Error(ErrorKind::Usage, "a phrase is [key, arg, ...]");
    p.key = j[0].get<std::string>();
    p.args.clear();
    for (std::size_t i = 1; i < j.size(); ++i) p.args.push_back(j[i].get<std::string>());
}

void to_json(json& j, const MismatchRun& r) { j = json::array({r.start, r.count}); }

void from_json(const json& j, MismatchRun& r) {
    if (!j.is_array() || j.size() != 2) throw Error(ErrorKind::Usage, "a mismatch run is [start, count]");
    r.start = j[0].get<std::size_t>();
    r.count = j[1].get<std::size_t>();
}

void to_json(json& j, const ListingLine& l) { j = json::array({l.text, l.source_line, l.is_source}); }

void from_json(const json& j, ListingLine& l) {
    if (!j.is_array() || j.size() != 3) throw Error(ErrorKind::Usage, "a listing line is [text, source_line, is_source]");
    l.text = j[0].get<std::string>();
    l.source_line = j[1].get<int>();
    l.is_source = j[2].get<bool>();
}

void to_json(json& j, const AccessLane& l) { j = json::array({l.lane, l.offset}); }

void from_json(const json& j, AccessLane& l) {
    if (!j.is_array() || j.size() != 2) throw Error(ErrorKind::Usage, "an access's lane is [lane, offset]");
    l.lane = j[0].get<int>();
    l.offset = j[1].get<long long>();
}

void to_json(json& j, const ThreadAccess& a) { j = json::array({a.row, a.buffer, a.element}); }

void from_json(const json& j, ThreadAccess& a) {
    if (!j.is_array() || j.size() != 3) throw Error(ErrorKind::Usage, "a thread's access is [row, buffer, element]");
    a.row = j[0].get<int>();
    a.buffer = j[1].get<int>();
    a.element = j[2].get<long long>();
}

void to_json(json& j, const HostBuffer& b) {
    j = {{"name", b.name}, {"type", b.type}, {"role", b.role}, {"shape", b.shape}, {"sample_of", b.sample_of},
         {"bytes", b.bytes.size()}};
}

void from_json(const json& j, HostBuffer& b) {
    const HostBuffer none;
    b.name = j.value("name", none.name);
    b.type = j.value("type", none.type);
    b.role = j.value("role", none.role);
    b.shape = j.value("shape", none.shape);
    b.sample_of = j.value("sample_of", none.sample_of);
    b.bytes = {};
}

void to_json(json& j, const Timeline& t) { j = timeline_to_json(t); }
void from_json(const json& j, Timeline& t) { t = timeline_from_json(j); }

json result_json(const RunResult& r) {
    json j = r;
    nonfinite_to_names(j);
    return j;
}

RunResult result_from_json(const json& form) {
    try {
        if (!form.is_object()) throw Error(ErrorKind::Internal, "not an object");
        json j = form;
        std::string path;
        check_numbers(j, path, number_paths());
        RunResult r = j.get<RunResult>();
        check_consistent(r);
        return r;
    } catch (const json::exception& e) {
        throw Error(ErrorKind::Internal, std::string("malformed result: ") + e.what());
    } catch (const Error& e) {
        throw Error(ErrorKind::Internal, "malformed result: " + e.message());
    }
}

const RunResult& every_path_result() {
    static const RunResult r = [] {
        RunResult r;
        r.params = {{"N", 1.5}};
        r.device = DeviceInfo{};
        r.message_said = r.hint_said = r.device_note_said = r.notice_said = {{"status.passed", {"1"}}};
        const Diagnostic d{"kernel.cu", 1, 1, Severity::Warning, "w", "177"};
        r.compile.diagnostics = {d};
        r.compile.lowered_names = {{"k", "_Z1kv"}};
        r.compile.options = {"-lineinfo"};
        r.reference.diagnostics = {d};
        r.reference.command = {"c++"};
        InspectionReport in;
        in.kernels = {KernelUsage{}};
        in.ptx = in.sass = {ListingLine{"ld.global.f32", 1, false}};
        r.inspection = in;
        LaunchReport l;
        l.refusal = LaunchRefusal{"grid.x", {{"status.refused", {}}}};
        r.launches = {l};
        CompareResult c;
        c.first = {Mismatch{1, {0, 1}, 0.5, 0.25, MismatchReason::Tolerance}};
        c.mismatch_runs = {{1, 2}};
        c.note_said = {{"status.mismatch", {}}};
        r.comparisons = {c};
        Timing t;
        t.samples_ms = {0.5};
        r.gpu_time = r.wall_time = t;
        Timeline tl;
        Activity a;
        a.name = "k";
        a.bytes = 1;
        tl.activities = {a};
        tl.ran_past_return_us = 1;
        tl.dropped = 1;
        r.timeline = tl;
        TargetResult target;
        target.not_applicable = {{"status.passed", {}}};
        r.target = target;
        r.ceilings = Ceilings{};
        BaselineResult b;
        b.checked = true;
        b.check = c;
        b.note_said = {{"baseline.not_checked", {"c"}}};
        b.note = render(b.note_said, "en");
        r.baseline = b;
        SanitizerFinding f;
        r.sanitizer_findings = {f};
        AccessSummary access;
        AccessLine line;
        line.sectors_per_request = line.bank_conflict_ways = 1.5;
        access.source = "ncu";
        AccessRequest request;
        request.lanes = {AccessLane{}};
        line.examples = {request};
        access.lines = {line};
        AccessThread thread;
        thread.accesses = {ThreadAccess{}};
        access.threads = {thread};
        AccessSampledLaunch sampled;
        sampled.sampled = {{0, 0, 0}};
        access.launches = {sampled};
        access.buffers = {AccessBuffer{}};
        access.not_recorded = {{"status.passed", {}}};
        r.access = access;
        r.profile = access;
        AccessLimitResult limit;
        limit.limit = {{"access.bound.at_most", {"2"}}};
        limit.said = {{"access.passed.nothing", {}}};
        limit.value = 1.5;
        limit.why = {{"en", "why"}};
        r.access_limits = {limit};
        HostBuffer buf;
        buf.shape = {2};
        buf.sample_of = SampleOf{{4}, {2}};
        r.inputs = r.gpu_outputs = r.cpu_outputs = {buf};
        return r;
    }();
    return r;
}

}  // namespace wb
