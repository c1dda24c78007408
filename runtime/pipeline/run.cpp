// runtime/pipeline/run.cpp — the run pipeline and the in-process backend.
//
// Order of a run, and why:
//   1. resolve step, case and params   (a bad request fails before any work)
//   2. compile the kernel with NVRTC, or a host step's whole file with nvcc
//      (needs no GPU: compile-only machines stop after 5)
//   3. build and run the CPU reference (its outputs are what the kernel must match)
//   4. size every launch and check it against the device's limits (or the target arch's)
//   5. without a GPU: report CompileOnly (or run the kernels on the CPU emulator)
//   6. upload inputs, poison outputs with pattern A, run, download;
//      poison with pattern B, run again, download (unwritten cells show up as A/B);
//      a host step's run() gets the poisoned host buffers and does the copies itself
//   7. compare against the reference
//   8. only when everything passed: warm up, then time with events (a host
//      step: run()'s wall time, then traced calls for its timeline and target)
#include "pipeline/run.hpp"

#include "ceilings/ceilings.hpp"
#include "driver/cublas.hpp"
#include "driver/nvml.hpp"
#include "lesson/lesson_files.hpp"
#include "pipeline/baseline.hpp"

#include "core/error.hpp"
#include "core/half.hpp"
#include "driver/cuda_driver.hpp"
#include "driver/gpu.hpp"
#include "emulate/emulator.hpp"
#include "host/host_build.hpp"
#include "host/host_step.hpp"
#include "lesson/expr.hpp"
#include "reference/isolated.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <list>
#include <mutex>
#include <optional>

namespace wb {

const char* executor_name(Executor e) {
    switch (e) {
    case Executor::Gpu: return "gpu";
    case Executor::Cpu: return "cpu";
    case Executor::Auto: return "auto";
    }
    return "gpu";
}

std::optional<Executor> parse_executor(std::string_view s) {
    if (s == "gpu") return Executor::Gpu;
    if (s == "cpu") return Executor::Cpu;
    if (s == "auto") return Executor::Auto;
    return std::nullopt;
}

const char* run_status_name(RunStatus s) {
    switch (s) {
    case RunStatus::Passed: return "passed";
    case RunStatus::Mismatch: return "mismatch";
    case RunStatus::CompileError: return "compile-error";
    case RunStatus::ReferenceError: return "reference-error";
    case RunStatus::Refused: return "refused";
    case RunStatus::CudaError: return "cuda-error";
    case RunStatus::InputError: return "input-error";
    case RunStatus::CompileOnly: return "compile-only";
    case RunStatus::TimedOut: return "timed-out";
    case RunStatus::Crashed: return "crashed";
    case RunStatus::Stopped: return "stopped";
    case RunStatus::SanitizerErrors: return "sanitizer-errors";
    case RunStatus::HostError: return "host-error";
    }
    return "unknown";
}

std::string run_status_label(RunStatus s, std::string_view lang) {
    return render({{std::string("status.") + run_status_name(s), {}}}, lang);
}

static std::string format_number(double v) {
    char buf[64];
    if (v == std::floor(v) && std::fabs(v) < 1e15) std::snprintf(buf, sizeof buf, "%.0f", v);
    else std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::map<std::string, double> resolve_params(const Step& step, const TestCase* test_case,
                                             const std::map<std::string, double>& overrides) {
    std::map<std::string, double> values;
    for (const auto& p : step.params) values[p.name] = p.default_value;
    auto known = [&] {
        std::string names;
        for (const auto& p : step.params) names += (names.empty() ? "" : ", ") + p.name;
        return names.empty() ? std::string("(none)") : names;
    };
    auto apply = [&](const std::string& name, double v, const char* source) {
        const Param* p = step.find_param(name);
        if (!p) throw Error(ErrorKind::Usage, std::string(source) + " sets unknown param '" + name + "'; this step's params are: " + known());
        if (!dtype_is_float(p->type) && v != std::floor(v))
            throw Error(ErrorKind::Usage, "param " + name + " is " + std::string(dtype_name(p->type)) + " and must be a whole number, not " + format_number(v));
        if (p->min && v < *p->min)
            throw Error(ErrorKind::Usage, "param " + name + " = " + format_number(v) + " is below its minimum " + format_number(*p->min));
        if (p->max && v > *p->max)
            throw Error(ErrorKind::Usage, "param " + name + " = " + format_number(v) + " is above its maximum " + format_number(*p->max));
        values[name] = v;
    };
    if (test_case)
        for (const auto& [k, v] : test_case->params) apply(k, v, ("case '" + test_case->name + "'").c_str());
    for (const auto& [k, v] : overrides) apply(k, v, "the request");
    return values;
}

static long long eval_dim(const std::string& expr, const ExprVars& vars, const std::string& where) {
    try {
        return eval_int_expr(expr, vars, -(1ll << 53), 1ll << 53);
    } catch (const Error& e) {
        throw Error(ErrorKind::Expression, e.message(), {"", where});
    }
}

long long resolve_passes(const LaunchSpec& spec, const std::map<std::string, double>& params) {
    if (!spec.multi_pass()) return 1;
    const ExprVars vars(params.begin(), params.end());
    try {
        return eval_int_expr(spec.passes, vars, 0, kMaxPasses);
    } catch (const Error& e) {
        throw Error(ErrorKind::Expression, e.message() + " (a launch makes 0 to " + std::to_string(kMaxPasses) + " passes)",
                    {"", spec.json_path + ".passes"});
    }
}

LaunchDims resolve_launch(const LaunchSpec& spec, const std::map<std::string, double>& params,
                          const LaunchOverride* ov, long long pass) {
    static const char* kAxis[3] = {"x", "y", "z"};
    LaunchDims d;
    ExprVars vars(params.begin(), params.end());
    if (spec.multi_pass()) vars["pass"] = double(pass);
    for (int i = 0; i < 3; ++i)
        d.block[i] = (ov && ov->block) ? (*ov->block)[i]
                                       : eval_dim(spec.block[i], vars, spec.json_path + ".block[" + std::to_string(i) + "]");
    for (int i = 0; i < 3; ++i) vars[std::string("block.") + kAxis[i]] = double(d.block[i]);
    for (int i = 0; i < 3; ++i)
        d.grid[i] = (ov && ov->grid) ? (*ov->grid)[i]
                                     : eval_dim(spec.grid[i], vars, spec.json_path + ".grid[" + std::to_string(i) + "]");
    for (int i = 0; i < 3; ++i) vars[std::string("grid.") + kAxis[i]] = double(d.grid[i]);
    d.shared_bytes = (ov && ov->shared_bytes) ? *ov->shared_bytes
                                              : eval_dim(spec.shared_bytes, vars, spec.json_path + ".shared_bytes");
    return d;
}

namespace {

// Storage for one argument list, in the form cuLaunchKernel and the reference
// trampoline both take: an array of pointers, each to the argument's value.
struct ArgPack {
    std::vector<std::array<unsigned char, 8>> values;
    std::vector<void*> pointers;

    void add_raw(const void* p, std::size_t n) {
        std::array<unsigned char, 8> v{};
        std::memcpy(v.data(), p, n);
        values.push_back(v);
    }
    void add_scalar(DType t, double x) {
        switch (t) {
        case DType::U8: { uint8_t v = uint8_t(x); add_raw(&v, 1); break; }
        case DType::I32: { int32_t v = int32_t(x); add_raw(&v, 4); break; }
        case DType::U32: { uint32_t v = uint32_t(x); add_raw(&v, 4); break; }
        case DType::F16: { uint16_t v = float_to_half(float(x)); add_raw(&v, 2); break; }
        case DType::F32: { float v = float(x); add_raw(&v, 4); break; }
        case DType::F64: { double v = x; add_raw(&v, 8); break; }
        }
    }
    void** finish() {
        pointers.clear();
        for (auto& v : values) pointers.push_back(v.data());
        return pointers.data();
    }
};

// Builds an argument list; `buffer_address(name)` gives the address to pass for a buffer.
template <class BufferAddress>
ArgPack pack_args(const std::vector<Arg>& args, const std::map<std::string, double>& params, BufferAddress&& buffer_address) {
    ArgPack pack;
    ExprVars vars(params.begin(), params.end());
    for (const auto& a : args) {
        switch (a.kind) {
        case Arg::Kind::Buffer: {
            auto addr = buffer_address(a.name);
            pack.add_raw(&addr, sizeof addr);
            break;
        }
        case Arg::Kind::Param: pack.add_scalar(a.type, params.at(a.name)); break;
        case Arg::Kind::Expr: {
            double v;
            try { v = eval_expr(a.name, vars); }
            catch (const Error& e) { throw Error(ErrorKind::Expression, e.message(), {"", a.json_path}); }
            pack.add_scalar(a.type, v);
            break;
        }
        }
    }
    pack.finish();
    return pack;
}

// The result for a launch that broke a limit; checked before it ran, and again
// with the compiled kernel's registers and static shared memory.
void set_refused(RunResult& r, const LaunchReport& lr) {
    r.status = RunStatus::Refused;
    Sentence said{{"run.refused", {lr.entry}}};
    said.insert(said.end(), lr.refusal->said.begin(), lr.refusal->said.end());
    r.say(std::move(said));
    const std::string& limit = lr.refusal->limit;
    const char* hint = limit == "shared_memory" ? "hint.refused.shared"
                       : limit == "constants"   ? "hint.refused.constants"
                       : limit == "arguments"   ? "hint.refused.arguments"
                       : limit == "registers" || lr.refusal->message.find("register use") != std::string::npos
                           ? "hint.refused.registers"
                           : "hint.refused.dims";
    r.say_hint({{hint, {}}});
}

// The samples' spread, robust to the odd slow one (a context switch, a
// clock change): the interquartile range as a standard deviation
// (IQR / 1.349), over the median.
double timing_noise(std::vector<double> v) {
    if (v.size() < 4) return 1.0;
    std::sort(v.begin(), v.end());
    const double q1 = v[v.size() / 4], q3 = v[(3 * v.size()) / 4], mid = v[v.size() / 2];
    return mid > 0 ? (q3 - q1) / 1.349 / mid : 1.0;
}

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Samples into `t` until the noise target, the budget or the cap, at least
// `repeat`, then their median, min and max. `one` takes a sample, or gives
// none when the run failed: then sampling stops and this returns false.
bool take_samples(Timing& t, int repeat, const std::function<std::optional<double>()>& one) {
    const auto began = std::chrono::steady_clock::now();
    t.samples_ms.clear();
    for (;;) {
        const std::optional<double> sample = one();
        if (!sample) return false;
        t.samples_ms.push_back(*sample);
        const int n = static_cast<int>(t.samples_ms.size());
        if (n < repeat) continue;
        t.noise = timing_noise(t.samples_ms);
        const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        // The median is known to within the target when spread / sqrt(n) is.
        if (t.noise / std::sqrt(double(n)) <= kTimingNoiseTarget) { t.stopped_by = "noise"; break; }
        if (spent >= kTimingBudgetS) { t.stopped_by = "budget"; break; }
        if (n >= kTimingMaxSamples) { t.stopped_by = "samples"; break; }
    }
    t.median_ms = median_of(t.samples_ms);
    t.min_ms = *std::min_element(t.samples_ms.begin(), t.samples_ms.end());
    t.max_ms = *std::max_element(t.samples_ms.begin(), t.samples_ms.end());
    return true;
}

std::string first_error(const std::vector<Diagnostic>& diags) {
    for (const auto& d : diags)
        if (d.severity == Severity::Error) return d.to_string();
    return {};
}

// The compare list with each tolerance expression evaluated for these params.
// Guard zones around every device buffer, and the two patterns they hold in
// the two validation runs (a write of exactly one pattern is still seen).
constexpr std::size_t kGuardBytes = 64 * 1024;
constexpr unsigned char kGuardA = 0xA5, kGuardB = 0x5A;
// Each buffer's guard has a pattern of its own, so a kernel that copies an
// input's guard bytes into an output's guard (a grayscale kernel without its
// bounds test averages three equal bytes into that same byte) still changes it.
unsigned char guard_pattern(unsigned char run_pattern, std::size_t buffer) {
    return static_cast<unsigned char>(run_pattern + 29 * buffer);
}

// The sentence for the first guard byte a run changed, over every buffer;
// `first_write(i, pattern)` is buffer i's changed byte offset, if any.
template <class FirstWrite>
Sentence guard_report(const std::vector<HostBuffer>& host, unsigned char run_pattern, FirstWrite&& first_write) {
    for (std::size_t i = 0; i < host.size(); ++i) {
        const auto at = first_write(i, guard_pattern(run_pattern, i));
        if (!at) continue;
        const long long element = element_at(*at, static_cast<long long>(dtype_size(host[i].type)));
        return {{*at >= 0 ? "run.out_of_bounds_after" : "run.out_of_bounds_before",
                 {host[i].name, std::to_string(host[i].count()), std::to_string(element)}}};
    }
    return {};
}

// Outputs the lesson fills (kernels accumulate into them) start from their
// host copy; the others are poisoned.
bool filled_by_lesson(const Step& step, const HostBuffer& h) {
    const Buffer* b = step.find_buffer(h.name);
    return b && b->fill.has_value();
}

// The outputs the reference must write: those compared, unless the lesson fills them. A scratch
// output that is never compared (lesson 10's block sums) is the kernel's business alone.
bool reference_writes(const Step& step, const std::vector<CompareSpec>& compare, const HostBuffer& b) {
    if (b.role != BufferRole::Output || filled_by_lesson(step, b)) return false;
    for (const CompareSpec& c : compare)
        if (c.buffer == b.name) return true;
    return false;
}

// Those outputs set to `poison`, byte by byte.
void poison_reference_outputs(const Step& step, const std::vector<CompareSpec>& compare, std::vector<HostBuffer>& buffers,
                              std::uint8_t poison) {
    for (HostBuffer& b : buffers)
        if (reference_writes(step, compare, b)) std::memset(b.mutable_data(), poison, b.size_bytes());
}

// Whether element i of `b` is `poison` in every byte.
bool element_is(const HostBuffer& b, std::size_t i, std::uint8_t poison) {
    const std::size_t size = dtype_size(b.type);
    const auto* p = static_cast<const std::uint8_t*>(b.data()) + i * size;
    for (std::size_t k = 0; k < size; ++k)
        if (p[k] != poison) return false;
    return true;
}

bool has_poisoned_element(const Step& step, const std::vector<CompareSpec>& compare, const std::vector<HostBuffer>& buffers,
                          std::uint8_t poison) {
    for (const HostBuffer& b : buffers)
        if (reference_writes(step, compare, b))
            for (std::size_t i = 0; i < b.count(); ++i)
                if (element_is(b, i, poison)) return true;
    return false;
}

// The lesson's error: the first output with elements the reference left unwritten in both
// runs (poison A in the first, poison B in the second), named with the reference; empty when none.
Sentence reference_unwritten(const Step& step, const std::vector<CompareSpec>& compare, const std::vector<HostBuffer>& a,
                             const std::vector<HostBuffer>& b) {
    for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) {
        const HostBuffer& x = a[k];
        if (!reference_writes(step, compare, x)) continue;
        std::size_t unwritten = 0, first = 0;
        for (std::size_t i = 0; i < x.count(); ++i)
            if (element_is(x, i, kPoisonA) && element_is(b[k], i, kPoisonB) && unwritten++ == 0) first = i;
        if (unwritten == 0) continue;
        std::string at;
        for (std::size_t d : x.unflatten(first)) at += (at.empty() ? "" : ", ") + std::to_string(d);
        return {{"reference.unwritten", {step.reference.entry, step.reference.source.origin, x.name, std::to_string(unwritten),
                                          std::to_string(x.count()), at, step.reference.json_path}}};
    }
    return {};
}

const HostBuffer* find_in(const std::vector<HostBuffer>& v, const std::string& name) {
    for (const auto& h : v)
        if (h.name == name) return &h;
    return nullptr;
}

// 7. The verdict of two validation runs against the reference, the same for
// every backend: each compared output, then an out-of-bounds write (which
// fails the run even when every compared cell is right), said once.
bool judge_outputs(RunResult& r, const std::vector<CompareSpec>& compare, const std::vector<HostBuffer>& run_a,
                   const std::vector<HostBuffer>& run_b, const std::vector<HostBuffer>& reference_out,
                   const Sentence& out_of_bounds) {
    bool all_passed = true;
    Sentence first_failure;
    for (const auto& spec : compare) {
        const HostBuffer* got = find_in(run_a, spec.buffer);
        const HostBuffer* got_b = find_in(run_b, spec.buffer);
        const HostBuffer* want = find_in(reference_out, spec.buffer);
        if (!got || !want) throw Error(ErrorKind::Internal, "compared buffer '" + spec.buffer + "' missing");
        CompareResult c = compare_buffers(*got, got_b, *want, spec);
        if (!c.passed && first_failure.empty()) {
            first_failure = {{"run.mismatch", {c.buffer, std::to_string(c.mismatches), std::to_string(c.count)}}};
            if (c.unwritten) first_failure.push_back({"run.mismatch.unwritten", {std::to_string(c.unwritten)}});
            if (c.deterministic && c.nondeterministic)
                first_failure.push_back({"run.mismatch.must_be_same", {std::to_string(c.nondeterministic)}});
            else if (c.changed_and_failed)
                first_failure.push_back({"run.mismatch.race_likely", {std::to_string(c.changed_and_failed)}});
            if (!c.note_said.empty()) {
                first_failure.push_back({"paren.open", {}});
                first_failure.insert(first_failure.end(), c.note_said.begin(), c.note_said.end());
                first_failure.push_back({"paren.close", {}});
            } else if (!c.note.empty()) {
                first_failure.push_back({"paren", {c.note}});
            }
        }
        all_passed = all_passed && c.passed;
        r.comparisons.push_back(std::move(c));
    }
    if (!out_of_bounds.empty()) {
        all_passed = false;
        r.status = RunStatus::Mismatch;
        Sentence said = out_of_bounds;
        if (!first_failure.empty()) {
            said.push_back({"run.and", {}});
            said.insert(said.end(), first_failure.begin(), first_failure.end());
        }
        r.say(std::move(said));
        r.say_hint({{"hint.out_of_bounds", {}}});
    } else if (all_passed) {
        r.status = RunStatus::Passed;
        r.say({r.comparisons.size() == 1 ? Phrase{"run.passed_one", {}}
                                         : Phrase{"run.passed", {std::to_string(r.comparisons.size())}}});
    } else {
        r.status = RunStatus::Mismatch;
        r.say(first_failure);
        r.say_hint({{"hint.mismatch", {}}});
    }

    return all_passed;
}

std::vector<CompareSpec> resolve_compare(const Step& step, const std::map<std::string, double>& params) {
    std::vector<CompareSpec> out = step.checks.compare;
    const ExprVars vars(params.begin(), params.end());
    for (auto& spec : out) {
        auto eval = [&](const std::string& e, const char* key, double& value) {
            if (e.empty()) return;
            try {
                value = eval_expr(e, vars);
            } catch (const Error& err) {
                throw Error(ErrorKind::Expression, err.message(), {"", spec.json_path + "." + key});
            }
            if (!(value >= 0) || !std::isfinite(value))
                throw Error(ErrorKind::Expression, std::string(key) + " '" + e + "' gives " + format_number(value) +
                                                       " for these params; a tolerance must be a finite number >= 0",
                            {"", spec.json_path + "." + key});
        };
        eval(spec.atol_expr, "atol", spec.atol);
        eval(spec.rtol_expr, "rtol", spec.rtol);
    }
    return out;
}

// The bytes a __constant__ variable is filled with: an input buffer's, or
// the lesson's values evaluated for these params and converted to its type.
std::vector<unsigned char> constant_bytes(const ConstantSpec& c, const std::vector<HostBuffer>& host,
                                          const std::map<std::string, double>& params) {
    if (!c.buffer.empty()) {
        for (const auto& h : host)
            if (h.name == c.buffer) {
                const auto* p = static_cast<const unsigned char*>(h.data());
                return {p, p + h.size_bytes()};
            }
        throw Error(ErrorKind::Internal, "no buffer '" + c.buffer + "'");
    }
    ArgPack pack;
    const ExprVars vars(params.begin(), params.end());
    for (std::size_t k = 0; k < c.values.size(); ++k) {
        try {
            pack.add_scalar(c.type, eval_expr(c.values[k], vars));
        } catch (const Error& e) {
            throw Error(ErrorKind::Expression, e.message(), {"", c.json_path + ".values[" + std::to_string(k) + "]"});
        }
    }
    std::vector<unsigned char> bytes;
    for (const auto& v : pack.values) bytes.insert(bytes.end(), v.begin(), v.begin() + long(dtype_size(c.type)));
    return bytes;
}

// The last few values by key, most recent first; a hit becomes the most recent.
template <class T>
class RecentCache {
public:
    explicit RecentCache(std::size_t keep) : keep_(keep) {}
    const T* find(const std::string& key) {
        for (auto it = entries_.begin(); it != entries_.end(); ++it)
            if (it->first == key) {
                entries_.splice(entries_.begin(), entries_, it);
                return &entries_.front().second;
            }
        return nullptr;
    }
    void remember(std::string key, T value) {
        entries_.emplace_front(std::move(key), std::move(value));
        if (entries_.size() > keep_) entries_.pop_back();
    }

private:
    std::size_t keep_;
    std::list<std::pair<std::string, T>> entries_;
};

// A step's host buffers for a case: each made as its spec says, unless the
// case gives an input other contents; an output with "fill" holds that value.
std::vector<HostBuffer> make_step_buffers(const Step& step, const TestCase* tc, const ExprVars& vars) {
    std::vector<HostBuffer> host;
    for (const auto& b : step.buffers) {
        Buffer spec = b;
        if (tc)
            if (auto it = tc->inputs.find(b.name); it != tc->inputs.end()) spec.init = it->second;
        if (b.fill) {
            spec.init = BufferInit{};
            spec.init.kind = InitKind::Constant;
            spec.init.value = *b.fill;
        }
        host.push_back(make_buffer(spec, vars));
    }
    return host;
}

std::uint64_t bytes_of(const std::vector<HostBuffer>& buffers) {
    std::uint64_t bytes = 0;
    for (const auto& h : buffers) bytes += h.size_bytes();
    return bytes;
}

// The memory `buffers` hold of their own: written blocks (zeros never
// written cost none), less those they share with `besides`.
std::uint64_t held_bytes(const std::vector<HostBuffer>& buffers, const std::vector<HostBuffer>& besides = {}) {
    std::uint64_t bytes = 0;
    for (const auto& h : buffers) {
        if (h.bytes.known_zero()) continue;
        bool shared = false;
        for (const auto& o : besides) shared = shared || h.bytes.shares_block_with(o.bytes);
        if (!shared) bytes += h.size_bytes();
    }
    return bytes;
}

class LocalBackend final : public RunBackend {
public:
    explicit LocalBackend(int ordinal) : ordinal_(ordinal) {}

    // Also makes the GPU's context, so a fresh worker is ready before its first run.
    BackendInfo info() override {
        std::lock_guard<std::mutex> lock(mutex_);
        BackendInfo bi;
        bi.name = "local";
        try {
            bi.devices = query_devices();
            bi.has_gpu = !bi.devices.empty();
            RunResult ignored;
            if (bi.has_gpu && !context_lost_ && context(ignored))
                bi.devices[std::size_t(ordinal_) < bi.devices.size() ? ordinal_ : 0].free_memory = ctx_->info().free_memory;
        } catch (const Error& e) {
            bi.no_gpu_reason = e.message();
            bi.no_gpu_said = e.said();
        }
        return bi;
    }

    RunResult run(const RunRequest& req) override {
        std::lock_guard<std::mutex> lock(mutex_);  // one run at a time on this backend
        RunResult r;
        try {
            run_impl(req, r);
        } catch (const Error& e) {
            switch (e.kind()) {
            case ErrorKind::Cuda: r.status = RunStatus::CudaError; break;
            case ErrorKind::Reference: r.status = RunStatus::ReferenceError; break;
            case ErrorKind::Compile: r.status = RunStatus::CompileError; break;
            default: r.status = RunStatus::InputError; break;
            }
            r.message = e.what();
            if (!e.said().empty() && e.where().to_string().empty() && e.code().empty()) r.message_said = e.said();
            r.hint = e.hint();
            r.error_code = e.code();
        } catch (const std::exception& e) {
            r.status = RunStatus::InputError;
            r.message = std::string("internal error: ") + e.what();
        }
        if (req.sample_over > 0)
            for (auto* list : {&r.inputs, &r.gpu_outputs, &r.cpu_outputs})
                for (HostBuffer& b : *list) b = sample_buffer(b, req.sample_over);
        return r;
    }

private:
    GpuContext* context(RunResult& r) {
        if (!ctx_ && !gpu_unavailable_) {
            try {
                ctx_ = std::make_unique<GpuContext>(ordinal_);
            } catch (const Error& e) {
                gpu_unavailable_ = true;
                no_gpu_reason_ = e.message();
                no_gpu_said_ = e.said();
            }
        }
        if (ctx_) ctx_->make_current();
        else {
            r.device_note = no_gpu_reason_;
            r.device_note_said = no_gpu_said_;
        }
        return ctx_.get();
    }

    void run_impl(const RunRequest& req, RunResult& r);
    // A kernel step's target (TargetSpec): the named step's solution is run
    // and timed on the same case, and the ratio of the GPU times goes into
    // r.target. Only after this step passed and was timed, on the GPU.
    void judge_kernel_target(const RunRequest& req, const Step& step, RunResult& r);
    // Sizes every launch and checks it against the device's limits (or the
    // target architecture's); a refusal sets r's status to Refused.
    void check_launches(const RunRequest& req, const Step& step, RunResult& r, GpuContext* ctx);
    // `constants[i]` holds the bytes of step.constants[i].
    void run_on_gpu(const RunRequest& req, const Step& step, const std::vector<CompareSpec>& compare,
                    const std::vector<std::vector<unsigned char>>& constants, RunResult& r,
                    std::vector<HostBuffer>& host, const std::vector<HostBuffer>& reference_out);
    // A host step on the GPU: run() called twice over poisoned outputs and
    // judged as a kernel's outputs are, then timed, traced, and set against
    // its target step.
    void run_host_on_gpu(const RunRequest& req, const Step& step, const HostStepBuild& build,
                         const std::vector<CompareSpec>& compare, RunResult& r, const std::vector<HostBuffer>& host,
                         const std::vector<HostBuffer>& reference_out);
    // The same run on the CPU emulator: the same poison, guards, two
    // validation runs and verdict; a wall time instead of GPU timing.
    void run_on_cpu(const RunRequest& req, const Step& step, const SourceText& source,
                    const std::vector<CompareSpec>& compare, const std::vector<std::vector<unsigned char>>& constants,
                    RunResult& r, std::vector<HostBuffer>& host, const std::vector<HostBuffer>& reference_out);

    // The loaded module of a compiled image, reused while the same image runs
    // again (an unchanged re-run, a sweep, a compile-cache hit), unless the
    // image has writable globals that would carry values over between runs.
    std::shared_ptr<GpuModule> module_for(const CompileResult& c) {
        const bool reusable = !c.cache_key.empty() && !image_has_writable_globals(c.image, c.is_cubin);
        if (reusable)
            if (const auto* hit = modules_.find(c.cache_key)) return *hit;
        auto m = std::make_shared<GpuModule>(ctx_->driver(), c.image);
        if (reusable) modules_.remember(c.cache_key, m);
        return m;
    }
    // Declared before the modules: members are destroyed in reverse, and a
    // module must be unloaded while its context still exists.
    std::unique_ptr<GpuContext> ctx_;
    RecentCache<std::shared_ptr<GpuModule>> modules_{8};

    // The host inputs and the reference outputs of the latest runs (run_impl's
    // inputs_key and ref_key), none holding over kKeptBuffersBytes of its own
    // (held_bytes: their blocks are shared with the run's, not copied).
    struct CachedReference {
        std::vector<HostBuffer> outputs;
        ReferenceTiming timing;
    };
    static constexpr std::uint64_t kKeptBuffersBytes = 1ull << 30;
    RecentCache<std::vector<HostBuffer>> inputs_{2};
    RecentCache<CachedReference> references_{2};

    std::mutex mutex_;
    int ordinal_;
    // This GPU's measured ceilings (ceilings.hpp): read from the cache, or
    // measured once, at the first timed run; nullopt until then.
    std::optional<Ceilings> ceilings_;
    std::string ceilings_error_;
    bool gpu_unavailable_ = false;
    bool context_lost_ = false;
    // Set while judge_kernel_target runs the other step: that run judges no
    // target of its own, so targets do not chain.
    bool timing_target_ = false;
    std::string no_gpu_reason_;
    Sentence no_gpu_said_;
};

// The request with its case's "block" as the tuned launch's block, unless
// the request overrides that launch's block itself (the student's own
// experiment from the launch panel or --block).
RunRequest with_case_block(const RunRequest& req) {
    RunRequest out = req;
    const Step* step = req.lesson ? request_step(req) : nullptr;
    const TestCase* tc = step ? request_case(req, *step) : nullptr;
    if (!tc || !tc->block || step->launches.empty()) return out;
    const std::size_t tuned = step->tuned_launch();
    if (out.launches.size() <= tuned) out.launches.resize(tuned + 1);
    if (!out.launches[tuned].block) out.launches[tuned].block = *tc->block;
    return out;
}

void LocalBackend::run_impl(const RunRequest& asked, RunResult& r) {
    if (!asked.lesson) throw Error(ErrorKind::Usage, "no lesson given");
    const RunRequest req = with_case_block(asked);
    const Lesson& lesson = *req.lesson;
    r.lesson_id = lesson.id;
    const Step* step = request_step(req);
    if (!step) {
        std::string ids;
        for (const auto& s : lesson.steps) ids += (ids.empty() ? "" : ", ") + s.id;
        throw Error(ErrorKind::Usage, "lesson '" + lesson.id + "' has no step '" + req.step + "'; give a number from 1 to " +
                                          std::to_string(lesson.steps.size()) + " or an id: " + ids);
    }
    r.step_id = step->id;
    const TestCase* tc = request_case(req, *step);
    if (!tc && !req.test_case.empty()) {
        std::string names;
        for (const auto& c : step->checks.cases) names += (names.empty() ? "" : ", ") + c.name;
        throw Error(ErrorKind::Usage, "step '" + step->id + "' has no case '" + req.test_case + "'; its cases are: " + names);
    }
    r.case_name = tc ? tc->name : "";
    r.params = resolve_params(*step, tc, req.params);

    // The device decides the architecture; without one, the request or the default does.
    GpuContext* ctx = (req.compile_only || context_lost_ || req.executor == Executor::Cpu) ? nullptr : context(r);
    const bool on_cpu = !req.compile_only && (req.executor == Executor::Cpu || (req.executor == Executor::Auto && !ctx));
    if (context_lost_ && !on_cpu) {
        r.status = RunStatus::CudaError;
        r.say({{"run.context_lost", {}}});
        r.say_hint({{"hint.context_lost", {}}});
        return;
    }
    if (ctx) r.device = ctx->info();
    r.arch = !req.arch.empty() ? req.arch : ctx ? ctx->info().arch() : default_arch();

    auto phase = [&](const char* name) {
        if (req.on_phase) req.on_phase(name);
    };
    // 2. compile
    phase("compile");
    SourceText source = req.source == SourceChoice::Starter    ? step->starter
                        : req.source == SourceChoice::Solution ? step->solution
                                                               : SourceText{req.custom_source, req.custom_origin, ""};
    std::optional<HostStepBuild> host_build;
    if (step->is_host()) {
        // nvcc builds the whole file; its diagnostics are on the student's lines.
        r.host_step = true;
        host_build = build_host_step(source, *step->host, r.arch);
        r.compile.ok = host_build->ok;
        r.compile.diagnostics = host_build->diagnostics;
        const OmittedDiagnostics omitted = cap_diagnostics(r.compile.diagnostics);
        r.compile.diagnostics_omitted = omitted.count;
        r.compile.omitted_errors = omitted.errors;
        r.compile.omitted_warnings = omitted.warnings;
        r.compile.log = host_build->log.size() > (1u << 20) ? host_build->log.substr(0, 1u << 20) : host_build->log;
        r.compile.arch = r.arch;
        r.compile.options = host_build->command;
        r.compile.seconds = host_build->seconds;
        r.compile.from_cache = host_build->from_cache;
        r.compile.cache_source = host_build->from_cache ? "disk" : "";
    } else {
        r.compile = compile_cuda(source, step_compile_options(*step, r.arch));
    }
    if (!r.compile.ok) {
        r.status = RunStatus::CompileError;
        int n = r.compile.error_count();
        r.say({n == 1 ? Phrase{"run.compile_error_one", {source.origin}}
                      : Phrase{"run.compile_errors", {std::to_string(n), source.origin}}});
        std::string first = first_error(r.compile.diagnostics);
        if (!first.empty()) r.say_more({"detail", {first}});
        return;
    }
    if (req.inspect && !step->is_host()) r.inspection = inspect_report(source, *step, r.arch);

    // Metrics need only params.
    ExprVars vars(r.params.begin(), r.params.end());
    auto metric = [&](const std::string& expr, const char* key) {
        if (expr.empty()) return 0.0;
        try { return eval_expr(expr, vars); }
        catch (const Error& e) { throw Error(ErrorKind::Expression, e.message(), {"", step->json_path + ".metrics." + key}); }
    };
    r.bytes = metric(step->metrics.bytes, "bytes");
    r.flops = metric(step->metrics.flops, "flops");
    const std::vector<CompareSpec> compare = resolve_compare(*step, r.params);  // a bad tolerance fails here, GPU or not

    // Compile-as-you-type: diagnostics and the launch limits, nothing run. The
    // reference may be built (not run) ahead of the first Run.
    if (!req.reference || req.reference_build_only) {
        if (req.reference && req.reference_build_only) {
            phase("reference");
            r.reference = build_reference(step->reference);
        }
        check_launches(req, *step, r, ctx);
        if (r.status == RunStatus::Refused) return;
        r.status = RunStatus::CompileOnly;
        r.say({{"run.compile_only_typing", {}}});
        return;
    }

    // Host buffers, initialised once; the reference and the GPU get copies.
    // A case may give an input other contents; an output with "fill" starts
    // from that value on both sides.
    // They follow from the lesson's text, the files it was made from (images),
    // the step, the case and the params: the same inputs as a recent run's
    // are copied from it rather than made again (an image decoded, 10^8
    // random floats drawn).
    std::string inputs_key = step->id + '\n' + r.case_name + '\n' +
                             std::to_string(std::hash<std::string>{}(req.lesson->json_text)) + '\n' +
                             req.lesson->file.string() + '\n';
    for (const auto& [name, value] : r.params) inputs_key += name + '=' + format_number(value) + '\n';
    for (const auto& f : lesson_files(*req.lesson)) {
        const FileStamp st = stamp_file(f);
        inputs_key += f.string() + ' ' + std::to_string(st.size) + ' ' +
                      std::to_string(st.mtime.time_since_epoch().count()) + '\n';
    }
    std::vector<HostBuffer> host;
    if (const auto* hit = inputs_.find(inputs_key)) {
        host = *hit;
    } else {
        host = make_step_buffers(*step, tc, vars);
        if (held_bytes(host) <= kKeptBuffersBytes) inputs_.remember(inputs_key, host);
    }
    auto find_host = [](std::vector<HostBuffer>& v, const std::string& name) -> HostBuffer& {
        for (auto& h : v)
            if (h.name == name) return h;
        throw Error(ErrorKind::Internal, "no buffer '" + name + "'");
    };

    // 3. the CPU reference
    phase("reference");
    r.reference = build_reference(step->reference);
    if (!r.reference.ok) {
        r.status = RunStatus::ReferenceError;
        r.say({{"run.reference_no_compile", {}}});
        std::string first = first_error(r.reference.diagnostics);
        if (!first.empty()) r.say_more({"detail", {first}});
        return;
    }
    // Buffers a multi-pass launch swaps must be the same size: the lesson's error, found before
    // anything runs.
    for (const auto& spec : step->launches)
        for (std::size_t k = 0; k < spec.swap.size(); ++k) {
            const HostBuffer& a = find_host(host, spec.swap[k].first);
            const HostBuffer& b = find_host(host, spec.swap[k].second);
            if (a.size_bytes() != b.size_bytes())
                throw Error(ErrorKind::Usage,
                            "buffers '" + a.name + "' (" + std::to_string(a.count()) + " elements) and '" + b.name + "' (" +
                                std::to_string(b.count()) + ") cannot swap between passes: for these params their sizes differ",
                            {"", spec.json_path + ".swap[" + std::to_string(k) + "]"});
        }
    std::vector<HostBuffer> reference_out = host;
    // The same reference on the same inputs gives the same outputs: a re-run,
    // or an edit of the kernel alone, takes them from the last runs instead of
    // forking the reference again.
    std::string ref_key = r.reference.library.string() + '\n' + r.reference.symbol + '\n' + inputs_key;
    auto take_timing = [&](const ReferenceTiming& t) {
        r.cpu_ms = t.seconds * 1e3;
        r.cpu_cold_ms = t.cold_seconds * 1e3;
        r.cpu_warm_runs = t.warm_runs;
        r.cpu_threads = t.threads;
    };
    if (const CachedReference* hit = references_.find(ref_key)) {
        reference_out = hit->outputs;
        take_timing(hit->timing);
        r.cpu_from_cache = true;
    } else {
        LoadedReference ref(r.reference);
        const std::uint64_t buffer_bytes = bytes_of(host);
        ArgPack pack;
        // In a child process under memory and CPU limits (reference/isolated.hpp):
        // a crashing or runaway reference is reported, and this worker's CUDA
        // context is untouched. Its outputs start poisoned, as the kernel's do, so an
        // element it leaves unwritten is found rather than compared as whatever was there.
        auto run_ref = [&](std::vector<HostBuffer>& outs) {
            return run_reference_isolated(
                ref, outs,
                [&](const std::function<void*(const std::string&)>& address_of) {
                    pack = pack_args(step->reference.args, r.params, address_of);
                    return pack.pointers.data();
                },
                reference_limits(run_timeout(req), buffer_bytes));
        };
        poison_reference_outputs(*step, compare, reference_out, kPoisonA);
        const ReferenceTiming t = run_ref(reference_out);
        take_timing(t);
        // Elements that still hold the poison may be values the reference computed (255 in
        // a byte image): a second run with the other poison tells them apart.
        if (has_poisoned_element(*step, compare, reference_out, kPoisonA)) {
            std::vector<HostBuffer> again = host;
            poison_reference_outputs(*step, compare, again, kPoisonB);
            run_ref(again);
            if (Sentence said = reference_unwritten(*step, compare, reference_out, again); !said.empty()) {
                r.status = RunStatus::ReferenceError;
                r.say(std::move(said));
                r.say_hint({{"hint.reference_unwritten", {}}});
                return;
            }
        }
        if (held_bytes(reference_out, host) <= kKeptBuffersBytes) references_.remember(std::move(ref_key), {reference_out, t});
    }

    // 4. launch sizes and limits; what constants and swaps need of the
    // buffers, so a machine without a GPU reports it too
    std::vector<std::vector<unsigned char>> constants;
    for (const auto& c : step->constants) constants.push_back(constant_bytes(c, host, r.params));
    check_launches(req, *step, r, ctx);
    if (r.status == RunStatus::Refused) return;

    if (req.keep_buffers)
        for (const auto& h : host)
            if (h.role != BufferRole::Output) r.inputs.push_back(h);

    if (on_cpu && step->is_host()) {
        r.status = RunStatus::Refused;
        r.say({{"host.no_emulator", {}}});
        if (req.keep_buffers)
            for (auto& h : reference_out)
                if (h.role != BufferRole::Input) r.cpu_outputs.push_back(std::move(h));
        return;
    }
    if (on_cpu) {
        phase("emulate");
        run_on_cpu(req, *step, source, compare, constants, r, host, reference_out);
        if (r.status != RunStatus::Passed) return;
        // What the emulator cannot judge is said, never passed over: a race
        // check the case requires, and a speed target.
        if (tc && step->checks.requires_racecheck(*tc)) r.say_more({"race.needs_gpu", {}});
        if (step->checks.target && req.timing) {
            TargetResult t;
            t.step = step->checks.target->step;
            t.measure = step->checks.target->measure;
            t.at_most = step->checks.target->at_most;
            t.min_gpus = step->checks.target->min_gpus;
            t.not_applicable = {{"target.needs_gpu", {}}};
            r.target = std::move(t);
        }
        return;
    }

    // 5. compile-only
    if (!ctx) {
        r.status = RunStatus::CompileOnly;
        r.say({{req.compile_only ? "run.compile_only_asked" : "run.compile_only_no_gpu", {}}});
        if (req.keep_buffers)
            for (auto& h : reference_out)
                if (h.role != BufferRole::Input) r.cpu_outputs.push_back(std::move(h));
        return;
    }
    if (host_build) {
        phase("host");
        run_host_on_gpu(req, *step, *host_build, compare, r, host, reference_out);
        return;
    }
    phase("gpu");
    run_on_gpu(req, *step, compare, constants, r, host, reference_out);
    judge_kernel_target(req, *step, r);
}

void LocalBackend::judge_kernel_target(const RunRequest& req, const Step& step, RunResult& r) {
    const auto& spec = step.checks.target;
    if (!spec || step.is_host() || timing_target_ || r.status != RunStatus::Passed || !r.gpu_time) return;
    TargetResult t;
    t.step = spec->step;
    t.measure = TargetMeasure::Kernels;
    t.at_most = spec->at_most;
    t.min_gpus = spec->min_gpus;
    t.this_ms = r.gpu_time->median_ms;
    try {
        t.gpus = static_cast<int>(query_devices().size());
    } catch (const Error&) {
        t.gpus = 1;  // this run had one
    }
    if (t.gpus < spec->min_gpus) {
        t.not_applicable = {{"target.fewer_gpus", {std::to_string(t.gpus), std::to_string(spec->min_gpus)}}};
        r.target = std::move(t);
        return;
    }
    const Step* other = req.lesson->find_step(spec->step);
    if (!other || other->is_host()) throw Error(ErrorKind::Internal, "target step '" + spec->step + "' is not a kernel step");
    // The other step's solution on the case of the same name (else its first),
    // with this run's values of the params both steps have, timed the same way.
    RunRequest o;
    o.lesson = req.lesson;
    o.step = other->id;
    o.test_case = other->find_case(r.case_name) ? r.case_name : "";
    o.source = SourceChoice::Solution;
    o.executor = Executor::Gpu;
    o.arch = req.arch;
    o.timing = true;
    o.warm_l2 = req.warm_l2;
    o.warmup = req.warmup;
    o.repeat = req.repeat;
    o.keep_buffers = false;
    o.trusted = req.trusted;
    o.timeout_s = req.timeout_s;
    for (const auto& [name, value] : r.params)
        if (other->find_param(name)) o.params[name] = value;
    RunResult theirs;
    timing_target_ = true;
    try {
        run_impl(o, theirs);
    } catch (const Error& e) {
        theirs.status = RunStatus::InputError;
        theirs.message = e.what();
    }
    timing_target_ = false;
    if (theirs.context_lost) r.context_lost = true;
    if (theirs.status != RunStatus::Passed || !theirs.gpu_time) {
        t.not_applicable = {{"target.other_failed", {other->id, theirs.message}}};
    } else {
        t.that_ms = theirs.gpu_time->median_ms;
    }
    r.target = std::move(t);
}

void LocalBackend::check_launches(const RunRequest& req, const Step& step, RunResult& r, GpuContext* ctx) {
    const DeviceLimits limits = ctx ? ctx->info().limits : limits_for_arch(arch_number(r.arch));
    for (LaunchReport& lr : check_step_launches(step, r.params, req.launches, limits)) {
        r.launches.push_back(std::move(lr));
        if (r.launches.back().refusal) {
            set_refused(r, r.launches.back());
            return;
        }
    }
}

void LocalBackend::run_on_gpu(const RunRequest& req, const Step& step, const std::vector<CompareSpec>& compare,
                              const std::vector<std::vector<unsigned char>>& constants, RunResult& r,
                              std::vector<HostBuffer>& host, const std::vector<HostBuffer>& reference_out) {
    const Driver& d = ctx_->driver();
    const auto& cu = d.api();
    const std::shared_ptr<GpuModule> loaded = module_for(r.compile);
    const GpuModule& module = *loaded;
    std::vector<CUfunction> functions;
    std::vector<std::vector<LaunchDims>> pass_dims;  // per launch, per pass
    for (auto& lr : r.launches) {
        auto it = r.compile.lowered_names.find(lr.entry);
        CUfunction f = module.function(it != r.compile.lowered_names.end() ? it->second : lr.entry, lr.entry);
        lr.resources = module.resources(f);
        // The kernel's real parameter list against the lesson's args: a
        // student who changed the signature hears which argument no longer fits.
        // Not under compute-sanitizer: the driver answers the probe past the
        // last parameter with CUDA_ERROR_INVALID_VALUE, which the tool counts
        // as an error of the run (the normal run has checked the args).
        if (auto sizes = req.sanitizer == SanitizerTool::None ? module.param_sizes(f) : std::nullopt) {
            const LaunchSpec& spec = step.launches[&lr - r.launches.data()];
            std::vector<std::pair<std::string, std::size_t>> args;
            for (const auto& a : spec.args)
                args.emplace_back(a.name, a.kind == Arg::Kind::Buffer ? sizeof(void*) : dtype_size(a.type));
            lr.refusal = check_kernel_args(lr.entry, *sizes, args);
        }
        const std::size_t li = std::size_t(&lr - r.launches.data());
        const LaunchSpec& spec = step.launches[li];
        const LaunchOverride* ov = li < req.launches.size() ? &req.launches[li] : nullptr;
        std::vector<LaunchDims> dims;
        long long max_shared = 0;
        for (long long p = 0; p < lr.passes && !lr.refusal; ++p) {
            dims.push_back(p == 0 ? lr.dims : resolve_launch(spec, r.params, ov, p));
            bool optin = false;
            lr.refusal = check_launch(dims.back(), ctx_->info().limits, lr.resources, &optin);
            if (lr.refusal && spec.multi_pass()) lr.refusal->add({"refuse.pass", {std::to_string(p)}});
            lr.shared_optin = lr.shared_optin || optin;
            max_shared = std::max(max_shared, dims.back().shared_bytes);
        }
        if (lr.refusal) {
            set_refused(r, lr);
            return;
        }
        if (lr.shared_optin)
            d.check(cu.cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(max_shared)),
                    "raising the kernel's dynamic shared memory limit");
        functions.push_back(f);
        pass_dims.push_back(std::move(dims));
    }

    // Guard zones catch a write past either end of a buffer (a missing bounds
    // test), which would otherwise land in the allocator's padding and pass.
    // Under compute-sanitizer there are none: memcheck must see such a write
    // as outside the allocation.
    const std::size_t guard = req.sanitizer == SanitizerTool::None ? kGuardBytes : 0;
    std::vector<DeviceBuffer> dev;
    for (const auto& h : host) dev.emplace_back(d, h.size_bytes(), guard);
    auto device_index = [&](const std::string& name) -> std::size_t {
        for (std::size_t i = 0; i < host.size(); ++i)
            if (host[i].name == name) return i;
        throw Error(ErrorKind::Internal, "no buffer '" + name + "'");
    };
    // __constant__ variables are filled from their input buffers once: a
    // kernel cannot write constant memory, so both runs and the timing see it.
    for (std::size_t k = 0; k < step.constants.size(); ++k) {
        const ConstantSpec& c = step.constants[k];
        const auto global = module.global(c.name);
        const std::vector<unsigned char>& bytes = constants[k];
        const std::string from = c.buffer.empty() ? "@refuse.from_values|" + std::to_string(c.values.size())
                                                  : "@refuse.from_buffer|" + c.buffer;
        LaunchReport& lr = r.launches.front();
        if (!global)
            lr.refusal = LaunchRefusal{"constants", {{"refuse.no_constant", {c.name, from}}}};
        else if (bytes.size() > global->second)
            lr.refusal = LaunchRefusal{"constants", {{"refuse.constant_size", {c.name, std::to_string(global->second), from,
                                                                                std::to_string(bytes.size())}}}};
        if (lr.refusal) {
            set_refused(r, lr);
            return;
        }
        d.check(cu.cuMemcpyHtoD(global->first, bytes.data(), bytes.size()), "filling a __constant__ variable");
    }

    // Every pass's arguments, made once. `binding[i]` is the device buffer
    // that buffer i's name stands for: a multi-pass launch's swap exchanges
    // two names after each pass but its last, and the names keep the last
    // binding for the launches after it and for the download.
    std::vector<std::size_t> binding(host.size());
    for (std::size_t i = 0; i < binding.size(); ++i) binding[i] = i;
    std::vector<std::vector<ArgPack>> packs(step.launches.size());
    bool inputs_written = false;  // a swap hands an input to a kernel to write
    for (std::size_t li = 0; li < step.launches.size(); ++li) {
        const LaunchSpec& spec = step.launches[li];
        for (const auto& [a, b] : spec.swap)
            inputs_written = inputs_written || host[device_index(a)].role == BufferRole::Input ||
                             host[device_index(b)].role == BufferRole::Input;
        std::map<std::string, double> values = r.params;
        for (long long p = 0; p < r.launches[li].passes; ++p) {
            if (spec.multi_pass()) values["pass"] = double(p);
            packs[li].push_back(pack_args(spec.args, values, [&](const std::string& name) {
                return dev[binding[device_index(name)]].ptr();
            }));
            if (p + 1 < r.launches[li].passes)
                for (const auto& [a, b] : spec.swap) std::swap(binding[device_index(a)], binding[device_index(b)]);
        }
    }

    // The inputs as first uploaded, kept on the GPU when they are large
    // (kPristineFrom) and it has room for them four times over: every later
    // run and sample starts from them again (a kernel may write into its
    // inputs, by mistake or in place) by a device copy at HBM speed, not
    // another upload from pageable host memory at PCIe speed (0.8 GB of
    // vector add at 10^8: about 1 ms, not 80). Small inputs upload as fast as
    // they copy, and the edit loop would pay for the extra allocations.
    constexpr std::size_t kPristineFrom = std::size_t(8) << 20;
    std::vector<DeviceBuffer> pristine(host.size());
    {
        std::size_t input_bytes = 0;
        for (const auto& h : host)
            if (h.role != BufferRole::Output) input_bytes += h.size_bytes();
        std::size_t free_bytes = 0, total_bytes = 0;
        if (input_bytes >= kPristineFrom && cu.cuMemGetInfo(&free_bytes, &total_bytes) == CUDA_SUCCESS &&
            input_bytes <= free_bytes / 4)
            for (std::size_t i = 0; i < host.size(); ++i)
                if (host[i].role != BufferRole::Output && host[i].size_bytes() > 0) {
                    pristine[i] = DeviceBuffer(d, host[i].size_bytes());
                    pristine[i].upload(host[i].data());
                }
    }
    auto upload_inputs = [&] {
        for (std::size_t i = 0; i < host.size(); ++i) {
            if (host[i].role == BufferRole::Output) continue;
            if (pristine[i].size() > 0)
                d.check(cu.cuMemcpyDtoD(dev[i].ptr(), pristine[i].ptr(), pristine[i].size()), "restoring an input on the GPU");
            else
                dev[i].upload(host[i].data());
        }
    };
    // Outputs are poisoned, except those the lesson fills (kernels accumulate
    // into them): those get their fill value, from the host copy.
    auto is_filled = [&](std::size_t i) { return filled_by_lesson(step, host[i]); };
    auto poison_outputs = [&](unsigned char pattern) {
        for (std::size_t i = 0; i < host.size(); ++i)
            if (host[i].role == BufferRole::Output) {
                if (is_filled(i)) dev[i].upload(host[i].data());
                else dev[i].fill_bytes(pattern);
            }
    };
    auto refill_outputs = [&] {
        for (std::size_t i = 0; i < host.size(); ++i)
            if (host[i].role == BufferRole::Output && is_filled(i)) dev[i].upload(host[i].data());
    };
    auto launch_all = [&](CUstream stream = nullptr) {
        for (std::size_t i = 0; i < functions.size(); ++i)
            for (std::size_t p = 0; p < packs[i].size(); ++p) {
                const auto& dims = pass_dims[i][p];
                CUresult res = cu.cuLaunchKernel(functions[i], unsigned(dims.grid[0]), unsigned(dims.grid[1]),
                                                 unsigned(dims.grid[2]), unsigned(dims.block[0]), unsigned(dims.block[1]),
                                                 unsigned(dims.block[2]), unsigned(dims.shared_bytes), stream,
                                                 packs[i][p].pointers.data(), nullptr);
                if (res != CUDA_SUCCESS)
                    d.check(res, ("launching '" + r.launches[i].entry + "'" +
                                  (packs[i].size() > 1 ? ", pass " + std::to_string(p) : std::string()))
                                     .c_str());
            }
    };
    auto synchronize = [&](const char* what) {
        CUresult res = cu.cuCtxSynchronize();
        if (res == CUDA_SUCCESS) return;
        if (cuda_error_is_sticky(res)) context_lost_ = r.context_lost = true;
        throw Error(ErrorKind::Cuda, std::string("the kernel failed while ") + what + ": " + d.error_string(res), {},
                    cuda_error_hint(res), d.error_name(res));
    };
    auto download_outputs = [&] {
        std::vector<HostBuffer> out;
        for (std::size_t i = 0; i < host.size(); ++i)
            if (host[i].role != BufferRole::Input) {
                HostBuffer b = host[i].zeroed_like();
                dev[binding[i]].download(b.mutable_data());
                out.push_back(std::move(b));
            }
        return out;
    };
    // The second validation run's outputs. A kernel that writes every cell,
    // the same way each time, leaves the same bytes as the first run: then
    // the first run's buffers stand for both (they share their blocks), and
    // the check costs one chunk of host memory, not another copy of every
    // output. Otherwise the second run's outputs are read whole.
    auto download_second = [&](const std::vector<HostBuffer>& first) {
        constexpr std::size_t kChunk = std::size_t(32) << 20;
        std::vector<unsigned char> chunk;
        std::size_t k = 0;
        for (std::size_t i = 0; i < host.size(); ++i) {
            if (host[i].role == BufferRole::Input) continue;
            const auto* a = static_cast<const unsigned char*>(first[k++].data());
            const std::size_t n = host[i].size_bytes();
            chunk.resize(std::min(n, kChunk));
            for (std::size_t off = 0; off < n; off += kChunk) {
                const std::size_t len = std::min(kChunk, n - off);
                dev[binding[i]].download_range(chunk.data(), off, len);
                if (std::memcmp(chunk.data(), a + off, len) != 0) return download_outputs();
            }
        }
        return first;
    };

    // The first guard zone written, over every buffer, as "buffer 'c': ...".
    Sentence out_of_bounds;
    auto check_guards = [&](unsigned char pattern) {
        if (out_of_bounds.empty())
            out_of_bounds = guard_report(host, pattern, [&](std::size_t i, unsigned char p) { return dev[i].first_guard_write(p); });
    };
    auto fill_guards = [&](unsigned char pattern) {
        for (std::size_t i = 0; i < dev.size(); ++i) dev[i].fill_guards(guard_pattern(pattern, i));
    };

    // 6. two validation runs with different poison (and guard patterns)
    upload_inputs();
    poison_outputs(kPoisonA);
    fill_guards(kGuardA);
    launch_all();
    synchronize("running");
    check_guards(kGuardA);
    std::vector<HostBuffer> run_a = download_outputs();
    upload_inputs();
    poison_outputs(kPoisonB);
    fill_guards(kGuardB);
    launch_all();
    synchronize("running a second time");
    check_guards(kGuardB);
    std::vector<HostBuffer> run_b = download_second(run_a);

    // 7. compare
    const bool all_passed = judge_outputs(r, compare, run_a, run_b, reference_out, out_of_bounds);

    // 8. timing, only for a kernel that is right
    // Under compute-sanitizer a kernel runs 10-100x slower: a time would mislead.
    if (all_passed && req.timing && req.sanitizer == SanitizerTool::None) {
        if (req.on_phase) req.on_phase("timing");
        Timing t;
        t.warmup = req.warmup >= 0 ? req.warmup : step.checks.warmup;
        int repeat = std::max(1, req.repeat >= 0 ? req.repeat : step.checks.repeat);
        const bool has_inout = inputs_written || std::any_of(host.begin(), host.end(), [](const HostBuffer& h) {
            return h.role == BufferRole::InOut;
        });
        const bool has_filled = std::any_of(step.buffers.begin(), step.buffers.end(), [](const Buffer& b) { return b.fill.has_value(); });
        for (int i = 0; i < t.warmup; ++i) {
            if (has_inout) upload_inputs();
            if (has_filled) refill_outputs();
            launch_all();
        }
        synchronize("warming up");
        GpuEvent start(d), stop(d);
        // A cold L2 for every sample when the buffers fit in it: a memset of
        // an L2-sized scratch buffer evicts them (nvbench's cold measurement).
        const std::uint64_t working_set = bytes_of(host);
        const std::size_t l2 = static_cast<std::size_t>(std::max(ctx_->info().l2_bytes, 0));
        t.l2_flushed = !req.warm_l2 && l2 > 0 && working_set <= l2;
        std::optional<DeviceBuffer> l2_scratch;
        if (t.l2_flushed) l2_scratch.emplace(d, l2);
        auto flush_l2 = [&] {
            if (l2_scratch) d.check(cu.cuMemsetD8(l2_scratch->ptr(), 0, l2), "flushing L2 (cuMemsetD8)");
        };
        const bool restore_between = has_inout || has_filled;
        // One sample of one launch: `prepare` (untimed), the L2 flush, then
        // `launch` between two events on the default stream.
        auto time_lone = [&](const std::function<void()>& prepare, const std::function<void(CUstream)>& launch,
                             const char* what) -> double {
            if (prepare) prepare();
            flush_l2();
            d.check(cu.cuEventRecord(start.get(), nullptr), "cuEventRecord");
            launch(nullptr);
            d.check(cu.cuEventRecord(stop.get(), nullptr), "cuEventRecord");
            if (cu.cuEventSynchronize(stop.get()) != CUDA_SUCCESS) synchronize(what);
            float ms = 0;
            d.check(cu.cuEventElapsedTime(&ms, start.get(), stop.get()), "cuEventElapsedTime");
            return ms;
        };
        const std::function<void(CUstream)> launch_kernels = [&](CUstream stream) { launch_all(stream); };
        auto sample = [&]() -> double {
            return time_lone(
                [&] {
                    if (has_inout) upload_inputs();  // an in-place (or swapping) kernel must see its original input every time
                    if (has_filled) refill_outputs();  // an accumulating kernel must start from its fill every time
                },
                launch_kernels, "being timed");
        };
        auto take_samples_into = [&](Timing& t, const std::function<double()>& one) {
            take_samples(t, repeat, [&]() -> std::optional<double> { return one(); });
        };
        // Samples of one CUDA Graph replay of `batch` copies of `launch` each,
        // divided by `batch`. With `alone`, a replay of `batch` copies of it
        // follows each one and its time is taken off (the flushes before
        // cold launches, timed apart from them).
        auto take_graph_samples = [&](Timing& into, int batch, const std::function<void(CUstream)>& launch,
                                      const std::function<void(CUstream)>& alone = {}) {
            CUstream stream = nullptr;
            CUgraph graphs[2] = {nullptr, nullptr};
            CUgraphExec execs[2] = {nullptr, nullptr};
            auto release = [&] {
                for (CUgraphExec e : execs)
                    if (e) cu.cuGraphExecDestroy(e);
                for (CUgraph g : graphs)
                    if (g) cu.cuGraphDestroy(g);
                if (stream) cu.cuStreamDestroy(stream);
            };
            auto replay_ms = [&](CUgraphExec exec) -> double {
                d.check(cu.cuEventRecord(start.get(), stream), "cuEventRecord");
                d.check(cu.cuGraphLaunch(exec, stream), "cuGraphLaunch");
                d.check(cu.cuEventRecord(stop.get(), stream), "cuEventRecord");
                d.check(cu.cuEventSynchronize(stop.get()), "cuEventSynchronize");
                float ms = 0;
                d.check(cu.cuEventElapsedTime(&ms, start.get(), stop.get()), "cuEventElapsedTime");
                return ms;
            };
            try {
                d.check(cu.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
                const std::function<void(CUstream)>* parts[2] = {&launch, alone ? &alone : nullptr};
                for (int g = 0; g < 2 && parts[g]; ++g) {
                    d.check(cu.cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL), "cuStreamBeginCapture");
                    for (int k = 0; k < batch; ++k) (*parts[g])(stream);
                    d.check(cu.cuStreamEndCapture(stream, &graphs[g]), "cuStreamEndCapture");
                    d.check(cu.cuGraphInstantiate(&execs[g], graphs[g], 0), "cuGraphInstantiate");
                    d.check(cu.cuGraphLaunch(execs[g], stream), "cuGraphLaunch");  // warm-up replay
                }
                d.check(cu.cuStreamSynchronize(stream), "cuStreamSynchronize");
                take_samples_into(into, [&]() -> double {
                    const double with = replay_ms(execs[0]);
                    return (execs[1] ? with - replay_ms(execs[1]) : with) / batch;
                });
            } catch (...) {
                release();
                throw;
            }
            release();
        };
        take_samples_into(t, sample);
        // One CUDA Graph replay of many launches per sample: a short kernel,
        // whose time an event pair's few microseconds would swamp, or one
        // whose buffers overflow L2 (so a flush would change nothing), where
        // the launch latency still adds a few percent to a lone launch.
        const double first_median = t.median_ms;
        const bool short_kernel = first_median < kBatchUnderMs;
        const bool streaming = first_median < kBatchStreamingUnderMs && !t.l2_flushed;
        // A cold kernel too short for a lone launch's latency to vanish in:
        // (flush, launch) pairs in one replay, less the flushes alone.
        const bool cold_short = t.l2_flushed && !short_kernel && first_median < kFlushedBatchUnderMs && !restore_between;
        if (cold_short) {
            auto flush_on = [&](CUstream stream) {
                d.check(cu.cuMemsetD8Async(l2_scratch->ptr(), 0, l2, stream), "flushing L2 (cuMemsetD8Async)");
            };
            const int batch = static_cast<int>(std::clamp(1.0 / std::max(first_median, 1e-4), 10.0, 100.0));
            take_graph_samples(
                t, batch,
                [&](CUstream stream) {
                    flush_on(stream);
                    launch_all(stream);
                },
                flush_on);
            t.batch = batch;
            t.flush_subtracted = true;
        }
        if (short_kernel || streaming) {
            if (restore_between) {
                if (short_kernel) t.not_batched = "inputs restored between launches";
            } else {
                // About 0.1 ms of short kernels, or 2 ms of streaming ones, per replay.
                const double per_replay_ms = short_kernel ? 0.1 : 2.0;
                const int batch = static_cast<int>(std::clamp(per_replay_ms / std::max(first_median, 1e-4), short_kernel ? 10.0 : 2.0,
                                                              short_kernel ? 1000.0 : 100.0));
                take_graph_samples(t, batch, launch_kernels);
                t.batch = batch;
                t.l2_flushed = false;  // launches in a replay follow one another: L2 stays warm
            }
        }
        // The clock the samples ran at, read while the GPU is still busy from them.
        if (const Nvml* nvml = Nvml::get(); nvml && !ctx_->info().pci_bus_id.empty())
            if (const auto clocks = nvml->clocks(ctx_->info().pci_bus_id)) {
                t.sm_clock_mhz = clocks->sm_mhz;
                t.max_sm_clock_mhz = clocks->max_sm_mhz;
                t.throttled = clocks->throttle_ids();
            }
        t.near_resolution = t.median_ms < kBatchUnderMs && t.batch == 1;
        r.gpu_time = t;
        // What it is measured against: this GPU's ceilings, measured once and cached.
        if (!ceilings_ && ceilings_error_.empty()) {
            if (req.on_phase) req.on_phase("ceilings");
            try {
                ceilings_ = ceilings_for(*ctx_);
            } catch (const Error& e) {
                ceilings_error_ = e.describe();
            }
        }
        r.ceilings = ceilings_;

        // The lesson's baseline, on the same inputs, checked and timed the same way.
        if (step.baseline) {
            if (req.on_phase) req.on_phase("baseline");
            const BaselineSpec& spec = *step.baseline;
            BaselineResult b;
            b.kind = baseline_kind_name(spec.kind);
            b.label = baseline_label(spec);
            b.bytes = r.bytes;
            b.flops = r.flops;
            const ExprVars vars(r.params.begin(), r.params.end());
            auto size = [&](const char* role) { return std::llround(eval_expr(spec.sizes.at(role), vars)); };
            auto index = [&](const char* role) { return device_index(spec.buffers.at(role)); };
            auto fits = [&](const char* role, long long need) {
                if (need <= static_cast<long long>(host[index(role)].count())) return true;
                b.note = "buffer '" + spec.buffers.at(role) + "' holds " + std::to_string(host[index(role)].count()) +
                         " elements; the baseline needs " + std::to_string(need);
                return false;
            };
            std::function<void()> before;
            std::function<void(CUstream)> launch;  // on `stream`, so a graph can capture it
            std::optional<CublasHandle> handle;
            std::optional<GpuModule> cub;
            std::optional<DeviceBuffer> scratch;
            const CublasApi* api = nullptr;
            std::size_t copy_bytes = 0;
            bool ready = false;
            switch (spec.kind) {
            case BaselineKind::CublasSgemm: {
                const long long m = size("m"), n = size("n"), k = size("k");
                if (!fits("a", m * k) || !fits("b", k * n) || !fits("c", m * n)) break;
                if (m <= 0 || n <= 0 || k <= 0 || m > INT32_MAX || n > INT32_MAX || k > INT32_MAX) {
                    b.note = "the sizes m, n, k must be between 1 and 2^31 - 1";
                    break;
                }
                if (!(api = CublasApi::get(b.note))) break;
                handle.emplace(*api);
                if (!handle->get()) {
                    b.note = "cuBLAS was loaded but could not start (cublasCreate failed)";
                    break;
                }
                const auto* pa = reinterpret_cast<const float*>(dev[index("a")].ptr());
                const auto* pb = reinterpret_cast<const float*>(dev[index("b")].ptr());
                auto* pc = reinterpret_cast<float*>(dev[index("c")].ptr());
                launch = [&, m, n, k, pa, pb, pc](CUstream stream) {
                    api->set_stream(handle->get(), reinterpret_cast<cudaStream_t>(stream));
                    const cublasStatus_t st = sgemm_row_major(*api, handle->get(), int(m), int(n), int(k), pa, pb, pc);
                    if (st != CUBLAS_STATUS_SUCCESS)
                        throw Error(ErrorKind::Cuda, "cublasSgemm failed (status " + std::to_string(int(st)) + ")");
                };
                ready = true;
                break;
            }
            case BaselineKind::Memcpy: {
                copy_bytes = std::min(host[index("from")].size_bytes(), host[index("to")].size_bytes());
                b.bytes = 2.0 * double(copy_bytes);  // read once, written once
                b.flops = 0;
                const CUdeviceptr from = dev[index("from")].ptr(), to = dev[index("to")].ptr();
                launch = [&, from, to](CUstream stream) {
                    d.check(cu.cuMemcpyDtoDAsync(to, from, copy_bytes, stream), "cuMemcpyDtoDAsync");
                };
                ready = true;
                break;
            }
            case BaselineKind::CubReduceSum: {
                const long long n = size("n");
                if (!fits("in", n) || n > INT32_MAX) break;
                const CompileResult compiled = compile_cub_reduce(r.compile.arch);
                if (!compiled.ok) {
                    b.note = "the CUB kernel did not compile: " +
                             (compiled.diagnostics.empty() ? compiled.log : compiled.diagnostics[0].message);
                    break;
                }
                cub.emplace(d, compiled.image);
                const CUfunction f = cub->function("cub_reduce_sum", "cub_reduce_sum");
                const unsigned blocks = unsigned(std::clamp<long long>((n + kCubReduceThreads - 1) / kCubReduceThreads, 1,
                                                                        8LL * ctx_->info().sm_count));
                const CUdeviceptr in = dev[index("in")].ptr(), out = dev[index("out")].ptr();
                before = [&, out] { d.check(cu.cuMemsetD8(out, 0, sizeof(float)), "zeroing the baseline's sum"); };
                launch = [&, f, blocks, in, out, n](CUstream stream) {
                    int count = int(n);
                    CUdeviceptr pin = in, pout = out;
                    void* args[] = {&pin, &pout, &count};
                    d.check(cu.cuLaunchKernel(f, blocks, 1, 1, kCubReduceThreads, 1, 1, 0, stream, args, nullptr),
                            "launching the CUB baseline");
                };
                ready = true;
                break;
            }
            case BaselineKind::CubScanSum: {
                const long long n = size("n");
                if (!fits("in", n) || !fits("out", n)) break;
                if (n < 1 || n > INT32_MAX) {
                    b.note = "the size n must be between 1 and 2^31 - 1";
                    break;
                }
                const DType type = host[index("in")].type;  // f32 or i32, the same as out's (the loader checks)
                const CompileResult compiled = compile_cub_scan(r.compile.arch);
                if (!compiled.ok) {
                    b.note = "the CUB kernels did not compile: " +
                             (compiled.diagnostics.empty() ? compiled.log : compiled.diagnostics[0].message);
                    break;
                }
                cub.emplace(d, compiled.image);
                const std::string suffix = type == DType::F32 ? "_f32" : "_i32";
                const CUfunction tiles_f = cub->function("cub_scan_tiles" + suffix, "cub_scan_tiles" + suffix);
                const CUfunction totals_f = cub->function("cub_scan_totals" + suffix, "cub_scan_totals" + suffix);
                const CUfunction add_f = cub->function("cub_scan_add" + suffix, "cub_scan_add" + suffix);
                const unsigned tiles = unsigned((n + kCubScanTile - 1) / kCubScanTile);
                scratch.emplace(d, std::size_t(tiles) * 4);
                const CUdeviceptr in = dev[index("in")].ptr(), out = dev[index("out")].ptr(), totals = scratch->ptr();
                launch = [&, tiles_f, totals_f, add_f, tiles, in, out, totals, n](CUstream stream) {
                    int count = int(n), tile_count = int(tiles);
                    CUdeviceptr pin = in, pout = out, ptot = totals;
                    void* tile_args[] = {&pin, &pout, &ptot, &count};
                    d.check(cu.cuLaunchKernel(tiles_f, tiles, 1, 1, kCubScanThreads, 1, 1, 0, stream, tile_args, nullptr),
                            "launching the CUB scan baseline (tiles)");
                    void* total_args[] = {&ptot, &tile_count};
                    d.check(cu.cuLaunchKernel(totals_f, 1, 1, 1, kCubScanThreads, 1, 1, 0, stream, total_args, nullptr),
                            "launching the CUB scan baseline (totals)");
                    void* add_args[] = {&pout, &ptot, &count};
                    const unsigned blocks = unsigned((n + 255) / 256);
                    d.check(cu.cuLaunchKernel(add_f, blocks, 1, 1, 256, 1, 1, 0, stream, add_args, nullptr),
                            "launching the CUB scan baseline (offsets)");
                };
                ready = true;
                break;
            }
            }
            if (ready) {
                upload_inputs();
                if (before) before();
                launch(nullptr);
                synchronize("running the baseline");
                if (spec.kind == BaselineKind::Memcpy) {
                    // Read back a chunk at a time: the copy of 10^8 floats needs no 400 MB on the host to be checked.
                    constexpr std::size_t kChunk = std::size_t(32) << 20;
                    std::vector<unsigned char> got(std::min(copy_bytes, kChunk));
                    const auto* want = static_cast<const unsigned char*>(host[index("from")].data());
                    b.passed = true;
                    for (std::size_t off = 0; off < copy_bytes && b.passed; off += kChunk) {
                        const std::size_t len = std::min(kChunk, copy_bytes - off);
                        dev[index("to")].download_range(got.data(), off, len);
                        b.passed = std::memcmp(got.data(), want + off, len) == 0;
                    }
                    if (!b.passed) b.note = "the copy differs from its source";
                } else {
                    const char* out_role = spec.kind == BaselineKind::CublasSgemm ? "c" : "out";
                    HostBuffer got = host[index(out_role)].zeroed_like();
                    dev[index(out_role)].download(got.mutable_data());
                    const HostBuffer* want = find_in(reference_out, got.name);
                    const auto rule = std::find_if(compare.begin(), compare.end(),
                                                   [&](const CompareSpec& c) { return c.buffer == got.name; });
                    if (want && rule != compare.end()) {
                        b.check = compare_buffers(got, nullptr, *want, *rule);
                        b.passed = b.check->passed;
                    } else {
                        b.note = "not checked: the step compares no buffer '" + got.name + "'";
                    }
                }
                // The kernel's method: a graph replay of as many launches when it
                // was batched (and the baseline has nothing to reset between
                // launches), else one launch per sample after the same L2 flush.
                Timing bt;
                const int batch = before ? 1 : t.batch;
                if (batch > 1) {
                    // cuBLAS goes back to the default stream after the capture, whatever happens.
                    struct DefaultStream {
                        const CublasApi* api;
                        const std::optional<CublasHandle>& handle;
                        ~DefaultStream() {
                            if (api && handle) api->set_stream(handle->get(), nullptr);
                        }
                    } back_to_default{api, handle};
                    take_graph_samples(bt, batch, launch);
                } else {
                    take_samples_into(bt, [&] { return time_lone(before, launch, "timing the baseline"); });
                }
                b.batch = batch;
                b.ran = true;
                b.samples = int(bt.samples_ms.size());
                b.median_ms = bt.median_ms;
                b.min_ms = bt.min_ms;
                b.max_ms = bt.max_ms;
            }
            r.baseline = std::move(b);
        }
    }

    if (req.keep_buffers) {
        r.gpu_outputs = std::move(run_a);
        for (const auto& h : reference_out)
            if (h.role != BufferRole::Input) r.cpu_outputs.push_back(h);
    }
}

// Copies of a step's buffers in memory of their own, which run() may write
// (an input it changes changes nothing of the run's caches), page-locked
// for the calls when the step asks (HostSpec::pinned) and released after.
class HostWorkBuffers {
public:
    HostWorkBuffers(const Step& step, const std::vector<HostBuffer>& from, const Driver* pin_with)
        : step_(step), from_(from), driver_(pin_with) {
        for (const auto& h : from) {
            HostBuffer w = h.zeroed_like();
            if (h.size_bytes()) std::memcpy(w.mutable_data(), h.data(), h.size_bytes());
            buffers.push_back(std::move(w));
        }
        if (driver_)
            for (auto& b : buffers)
                if (b.size_bytes() &&
                    driver_->api().cuMemHostRegister(b.mutable_data(), b.size_bytes(), CU_MEMHOSTREGISTER_PORTABLE) == CUDA_SUCCESS)
                    pinned_.emplace_back(reinterpret_cast<std::uint64_t>(b.data()), b.size_bytes());
    }
    ~HostWorkBuffers() {
        for (const auto& [address, bytes] : pinned_) driver_->api().cuMemHostUnregister(reinterpret_cast<void*>(address));
    }
    HostWorkBuffers(const HostWorkBuffers&) = delete;
    HostWorkBuffers& operator=(const HostWorkBuffers&) = delete;

    // Before a validation call (`poison` given): inputs as made, outputs
    // poisoned; before a timed one, only what run() reads of the outputs
    // (in-outs, and outputs the lesson fills).
    void reset(std::optional<unsigned char> poison) {
        for (std::size_t i = 0; i < from_.size(); ++i) {
            HostBuffer& w = buffers[i];
            if (!w.size_bytes()) continue;
            if (from_[i].role == BufferRole::Output && !filled_by_lesson(step_, from_[i])) {
                if (poison) std::memset(w.mutable_data(), *poison, w.size_bytes());
            } else if (poison || from_[i].role != BufferRole::Input) {
                std::memcpy(w.mutable_data(), from_[i].data(), w.size_bytes());
            }
        }
    }

    // The outputs and in-outs as run() left them, in buffers of their own.
    std::vector<HostBuffer> outputs() const {
        std::vector<HostBuffer> out;
        for (std::size_t i = 0; i < from_.size(); ++i)
            if (from_[i].role != BufferRole::Input) {
                HostBuffer b = from_[i].zeroed_like();
                if (b.size_bytes()) std::memcpy(b.mutable_data(), buffers[i].data(), b.size_bytes());
                out.push_back(std::move(b));
            }
        return out;
    }

    // The ranges page-locked here, as (address, bytes).
    const std::vector<std::pair<std::uint64_t, std::uint64_t>>& pinned_ranges() const { return pinned_; }

    std::vector<HostBuffer> buffers;

private:
    const Step& step_;
    const std::vector<HostBuffer>& from_;
    const Driver* driver_;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> pinned_;
};

// What one call of run() did wrong, as the run's verdict; false when nothing.
// `pinned_by_us` are the buffers the runtime page-locked itself (HostSpec::pinned),
// which are not run()'s to release.
bool host_call_failed(const HostCall& c, RunResult& r,
                      const std::vector<std::pair<std::uint64_t, std::uint64_t>>& pinned_by_us = {}) {
    auto mib = [](std::uint64_t bytes) {
        char s[32];
        if (bytes >= (1u << 20)) std::snprintf(s, sizeof s, "%.1f MiB", double(bytes) / double(1 << 20));
        else if (bytes >= 1024) std::snprintf(s, sizeof s, "%.1f KiB", double(bytes) / 1024.0);
        else std::snprintf(s, sizeof s, "%llu bytes", static_cast<unsigned long long>(bytes));
        return std::string(s);
    };
    if (c.sticky) {
        r.status = RunStatus::CudaError;
        r.context_lost = true;
        r.say({{"host.sticky_error", {c.cuda_error}}});
        r.say_hint({{"hint.host_sticky", {}}});
        return true;
    }
    if (c.code != 0 || !c.error.empty()) {
        r.status = RunStatus::HostError;
        r.say({c.error.empty() ? Phrase{"host.failed_silently", {std::to_string(c.code)}}
                               : Phrase{"host.failed", {std::to_string(c.code), c.error}}});
        r.say_hint({{"hint.host_failed", {}}});
        return true;
    }
    if (!c.cuda_error.empty()) {
        r.status = RunStatus::HostError;
        r.say({{"host.unchecked_error", {c.cuda_error}}});
        r.say_hint({{"hint.host_unchecked", {}}});
        return true;
    }
    if (!c.trace) return false;
    const Timeline& t = c.trace->timeline;
    if (t.ran_past_return_us > 0) {
        const Activity* last = nullptr;
        for (const auto& a : t.activities)
            if (!last || a.end_us > last->end_us) last = &a;
        char us[32];
        std::snprintf(us, sizeof us, "%.0f", t.ran_past_return_us);
        const std::string what = last->kind == ActivityKind::Kernel ? "kernel " + last->name
                                                                     : std::string(activity_kind_name(last->kind)) + " copy";
        r.status = RunStatus::HostError;
        r.say({{"host.ran_past_return", {what, us}}});
        r.say_hint({{"hint.host_synchronize", {}}});
        return true;
    }
    if (const auto leaks = c.trace->leaks(pinned_by_us); !leaks.empty()) {
        std::string where;
        std::uint64_t total = 0;
        for (const auto& l : leaks) {
            total += l.bytes;
            where += (where.empty() ? "" : ", ") + mib(l.bytes) + " in " + std::to_string(l.allocations) +
                     (l.allocations == 1 ? " allocation" : " allocations") +
                     (l.device < 0 ? std::string(" of pinned host memory") : " on GPU " + std::to_string(l.device));
        }
        r.status = RunStatus::HostError;
        // Leaked memory stays leaked for the life of this process: the
        // worker is replaced, as after a fault, so the next run starts clean.
        r.context_lost = true;
        r.say({{"host.leaked", {mib(total), where}}});
        r.say_hint({{"hint.host_leaked", {}}});
        return true;
    }
    return false;
}

void LocalBackend::run_host_on_gpu(const RunRequest& req, const Step& step, const HostStepBuild& build,
                                   const std::vector<CompareSpec>& compare, RunResult& r,
                                   const std::vector<HostBuffer>& host, const std::vector<HostBuffer>& reference_out) {
    const Driver& d = ctx_->driver();
    LoadedHostStep lib(build.library);
    std::string no_trace;
    ActivityTracer* tracer = ActivityTracer::get(no_trace);
    HostWorkBuffers work(step, host, step.host->pinned ? &d : nullptr);
    auto unavailable = [&] {
        Timeline t;
        t.unavailable = no_trace;
        return t;
    };

    // 6. two validation calls with different poison
    work.reset(kPoisonA);
    const HostCall a = lib.call(work.buffers, r.params, ordinal_, tracer);
    r.timeline = a.trace ? a.trace->timeline : unavailable();
    const auto pinned_ranges = work.pinned_ranges();
    if (host_call_failed(a, r, pinned_ranges)) {
        if (r.context_lost) context_lost_ = true;
        return;
    }
    std::vector<HostBuffer> run_a = work.outputs();
    work.reset(kPoisonB);
    const HostCall b = lib.call(work.buffers, r.params, ordinal_, tracer);
    if (host_call_failed(b, r, pinned_ranges)) {
        if (r.context_lost) context_lost_ = true;
        return;
    }
    std::vector<HostBuffer> run_b = work.outputs();

    // 7. compare
    const bool all_passed = judge_outputs(r, compare, run_a, run_b, reference_out, {});
    if (req.keep_buffers) {
        for (auto& h : run_a) r.gpu_outputs.push_back(std::move(h));
        for (const auto& h : reference_out)
            if (h.role != BufferRole::Input) r.cpu_outputs.push_back(h);
    }
    if (!all_passed || !req.timing) return;

    // 8. timing: run()'s wall time, untraced, then three traced calls for the
    // timeline and the copy and kernel sums (a target's measure)
    if (req.on_phase) req.on_phase("timing");
    const int warmup = req.warmup >= 0 ? req.warmup : step.checks.warmup;
    const int repeat = std::max(1, req.repeat >= 0 ? req.repeat : step.checks.repeat);
    struct Measured {
        Timing wall;
        double copies_ms = 0, kernels_ms = 0;
        std::optional<Timeline> timeline;
        std::optional<HostCall> failed;
    };
    auto measure = [&](const LoadedHostStep& l, HostWorkBuffers& w, const std::map<std::string, double>& params) {
        Measured m;
        auto one = [&](ActivityTracer* t) -> std::optional<HostCall> {
            w.reset(std::nullopt);
            HostCall c = l.call(w.buffers, params, ordinal_, t);
            if (c.code != 0 || !c.error.empty() || !c.cuda_error.empty()) {
                m.failed = std::move(c);
                return std::nullopt;
            }
            return c;
        };
        m.wall.warmup = warmup;
        for (int i = 0; i < warmup; ++i)
            if (!one(nullptr)) return m;
        const bool sampled = take_samples(m.wall, repeat, [&]() -> std::optional<double> {
            const auto c = one(nullptr);
            return c ? std::optional<double>(c->wall_ms) : std::nullopt;
        });
        if (!sampled) return m;
        if (tracer) {
            std::vector<double> copies, kernels;
            for (int k = 0; k < 3; ++k) {
                auto c = one(tracer);
                if (!c) return m;
                if (!c->trace) break;
                copies.push_back(c->trace->timeline.copy_us() / 1e3);
                kernels.push_back(c->trace->timeline.kernel_us() / 1e3);
                m.timeline = c->trace->timeline;
            }
            if (!copies.empty()) {
                m.copies_ms = median_of(copies);
                m.kernels_ms = median_of(kernels);
            }
        }
        return m;
    };
    Measured mine = measure(lib, work, r.params);
    if (mine.failed) {
        // Passed twice, then failed while being timed: that is the verdict.
        host_call_failed(*mine.failed, r, pinned_ranges);
        if (r.context_lost) context_lost_ = true;
        return;
    }
    r.wall_time = mine.wall;
    if (mine.timeline) r.timeline = mine.timeline;
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.3f", mine.wall.median_ms);
    r.say_more({"host.timed", {ms}});

    // 9. the target: the other step's solution on the same case, timed the same way
    const auto& spec = step.checks.target;
    if (!spec) return;
    TargetResult t;
    t.step = spec->step;
    t.measure = spec->measure;
    t.at_most = spec->at_most;
    t.min_gpus = spec->min_gpus;
    t.gpus = lib.device_count();
    auto pick = [&](const Measured& m) {
        return spec->measure == TargetMeasure::Wall     ? m.wall.median_ms
               : spec->measure == TargetMeasure::Copies ? m.copies_ms
                                                        : m.kernels_ms;
    };
    t.this_ms = pick(mine);
    if (t.gpus < spec->min_gpus) {
        t.not_applicable = {{"target.fewer_gpus", {std::to_string(t.gpus), std::to_string(spec->min_gpus)}}};
        r.target = std::move(t);
        return;
    }
    const Step* other = req.lesson->find_step(spec->step);
    if (!other || !other->is_host()) throw Error(ErrorKind::Internal, "target step '" + spec->step + "' is not a host step");
    const HostStepBuild other_build = build_host_step(other->solution, *other->host, r.arch);
    if (!other_build.ok) {
        t.not_applicable = {{"target.other_failed", {other->id, first_error(other_build.diagnostics)}}};
        r.target = std::move(t);
        return;
    }
    // The case of the same name, with this run's values of the params both steps have.
    const TestCase* other_case = other->find_case(r.case_name);
    std::map<std::string, double> shared_params;
    for (const auto& [name, value] : r.params)
        if (other->find_param(name)) shared_params[name] = value;
    const std::map<std::string, double> other_params = resolve_params(*other, other_case, shared_params);
    const std::vector<HostBuffer> other_host =
        make_step_buffers(*other, other_case, ExprVars(other_params.begin(), other_params.end()));
    LoadedHostStep other_lib(other_build.library);
    HostWorkBuffers other_work(*other, other_host, other->host->pinned ? &d : nullptr);
    const Measured theirs = measure(other_lib, other_work, other_params);
    if (theirs.failed) {
        RunResult scratch;
        host_call_failed(*theirs.failed, scratch, other_work.pinned_ranges());
        t.not_applicable = {{"target.other_failed", {other->id, scratch.message}}};
        if (scratch.context_lost) {
            r.context_lost = true;
            context_lost_ = true;
        }
    } else {
        t.that_ms = pick(theirs);
    }
    r.target = std::move(t);
}

void LocalBackend::run_on_cpu(const RunRequest& req, const Step& step, const SourceText& source,
                              const std::vector<CompareSpec>& compare,
                              const std::vector<std::vector<unsigned char>>& constants, RunResult& r,
                              std::vector<HostBuffer>& host, const std::vector<HostBuffer>& reference_out) {
    r.emulated = true;
    std::vector<std::string> entries;
    for (const auto& lr : r.launches)
        if (std::find(entries.begin(), entries.end(), lr.entry) == entries.end()) entries.push_back(lr.entry);
    const EmuBuild build = build_emulated(source, entries);
    if (build.refusal) {
        r.status = RunStatus::Refused;
        r.say({{"run.emulator_refused", {build.refusal->to_string()}}});
        r.say_hint({{"hint.emulator_refused", {}}});
        return;
    }
    if (!build.ok) {
        r.status = RunStatus::CompileError;
        std::string first;
        for (const auto& d : build.diagnostics)
            if (d.severity == Severity::Error) {
                first = d.to_string();
                break;
            }
        r.say({{"run.emulator_compile_error", {first.empty() ? build.log : first}}});
        return;
    }
    EmuModule module(build);
    std::vector<std::size_t> entry_of;  // per launch, its index in `entries`
    for (std::size_t li = 0; li < r.launches.size(); ++li) {
        LaunchReport& lr = r.launches[li];
        const std::size_t e = std::size_t(std::find(entries.begin(), entries.end(), lr.entry) - entries.begin());
        entry_of.push_back(e);
        const LaunchSpec& spec = step.launches[li];
        if (module.arity(e) != int(spec.args.size())) {
            std::string names;
            for (const auto& a : spec.args) names += (names.empty() ? "" : ", ") + a.name;
            lr.refusal = LaunchRefusal{"args", {{module.arity(e) == 1 ? "refuse.arg_count_one" : "refuse.arg_count",
                                                 {lr.entry, std::to_string(module.arity(e)), std::to_string(spec.args.size()), names}}}};
            set_refused(r, lr);
            return;
        }
    }
    for (std::size_t k = 0; k < step.constants.size(); ++k) {
        const ConstantSpec& c = step.constants[k];
        void* global = module.symbol(c.name);
        if (!global) {
            LaunchReport& lr = r.launches.front();
            lr.refusal = LaunchRefusal{"constants", {{"refuse.no_constant", {c.name, c.buffer.empty()
                                                                                          ? "@refuse.from_values|" + std::to_string(c.values.size())
                                                                                          : "@refuse.from_buffer|" + c.buffer}}}};
            set_refused(r, lr);
            return;
        }
        std::memcpy(global, constants[k].data(), constants[k].size());
    }

    EmuArena arena;
    for (const auto& h : host) arena.add(h.name, h.size_bytes(), dtype_size(h.type));
    auto index_of = [&](const std::string& name) -> std::size_t {
        for (std::size_t i = 0; i < host.size(); ++i)
            if (host[i].name == name) return i;
        throw Error(ErrorKind::Internal, "no buffer '" + name + "'");
    };
    auto is_filled = [&](std::size_t i) { return filled_by_lesson(step, host[i]); };

    Sentence out_of_bounds;
    std::optional<EmuFault> fault;
    auto one_run = [&](unsigned char poison, unsigned char guard) {
        for (std::size_t i = 0; i < host.size(); ++i) {
            if (host[i].role != BufferRole::Output || is_filled(i))
                std::memcpy(arena.data(i), host[i].data(), host[i].size_bytes());
            else
                std::memset(arena.data(i), poison, host[i].size_bytes());
        }
        for (std::size_t i = 0; i < host.size(); ++i) arena.fill_guards(i, guard_pattern(guard, i));
        std::vector<std::size_t> binding(host.size());
        for (std::size_t i = 0; i < binding.size(); ++i) binding[i] = i;
        for (std::size_t li = 0; li < step.launches.size() && !fault; ++li) {
            const LaunchSpec& spec = step.launches[li];
            const LaunchOverride* ov = li < req.launches.size() ? &req.launches[li] : nullptr;
            std::map<std::string, double> values = r.params;
            for (long long p = 0; p < r.launches[li].passes && !fault; ++p) {
                if (spec.multi_pass()) values["pass"] = double(p);
                ArgPack pack = pack_args(spec.args, values, [&](const std::string& name) {
                    return reinterpret_cast<CUdeviceptr>(arena.data(binding[index_of(name)]));
                });
                const LaunchDims dims = p == 0 ? r.launches[li].dims : resolve_launch(spec, r.params, ov, p);
                fault = module.launch(entry_of[li], dims, pack.pointers.data(), &arena);
                if (fault) {
                    fault->said.insert(fault->said.begin(), Phrase{"emu.in_kernel", {r.launches[li].entry}});
                    fault->message = render(fault->said, "en");
                }
                if (p + 1 < r.launches[li].passes)
                    for (const auto& [a, b] : spec.swap) std::swap(binding[index_of(a)], binding[index_of(b)]);
            }
        }
        if (!fault && out_of_bounds.empty())
            out_of_bounds = guard_report(host, guard, [&](std::size_t i, unsigned char p) { return arena.first_guard_write(i, p); });
        std::vector<HostBuffer> out;
        for (std::size_t i = 0; i < host.size(); ++i)
            if (host[i].role != BufferRole::Input) {
                HostBuffer b = host[i].zeroed_like();
                std::memcpy(b.mutable_data(), arena.data(binding[i]), b.size_bytes());
                out.push_back(std::move(b));
            }
        return out;
    };

    // 6. two validation runs with different poison and guard patterns
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<HostBuffer> run_a = one_run(kPoisonA, kGuardA);
    r.emulated_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::vector<HostBuffer> run_b = fault ? run_a : one_run(kPoisonB, kGuardB);
    if (fault) {
        // The launch stopped at a bad access or a trap: that is the verdict.
        r.status = RunStatus::CudaError;
        // "kernel.cu:12": the line in the student's file, to mark in the editor.
        if (const std::string prefix = source.origin + ":"; fault->where.rfind(prefix, 0) == 0)
            r.fault_line = std::atoi(fault->where.c_str() + prefix.size());
        Sentence said{{"run.on_emulator", {}}};
        said.insert(said.end(), fault->said.begin(), fault->said.end());
        r.say(std::move(said));
        const char* hint = "hint.out_of_bounds_access";
        switch (fault->kind) {
        case EmuFault::Kind::OutOfBounds: case EmuFault::Kind::BadAddress: break;
        case EmuFault::Kind::Trap: hint = "hint.trap"; break;
        case EmuFault::Kind::Arithmetic: hint = "hint.divide_by_zero"; break;
        case EmuFault::Kind::Undefined: hint = "hint.undefined"; break;
        case EmuFault::Kind::Deadlock: hint = "hint.deadlock"; break;
        }
        r.say_hint({{hint, {}}});
        r.emulated_ms = -1;
        return;
    }

    // 7. compare
    const bool all_passed = judge_outputs(r, compare, run_a, run_b, reference_out, out_of_bounds);
    if (all_passed) {
        char ms[32];
        std::snprintf(ms, sizeof ms, "%.1f", r.emulated_ms);
        r.say_more({"run.emulated", {ms}});
    }
    if (req.keep_buffers) {
        for (auto& h : run_a) r.gpu_outputs.push_back(std::move(h));
        for (const auto& h : reference_out)
            if (h.role != BufferRole::Input) r.cpu_outputs.push_back(h);
    }
}

}  // namespace

std::vector<LaunchReport> check_step_launches(const Step& step, const std::map<std::string, double>& params,
                                              const std::vector<LaunchOverride>& overrides, const DeviceLimits& limits) {
    std::vector<LaunchReport> reports;
    for (std::size_t i = 0; i < step.launches.size(); ++i) {
        const LaunchSpec& spec = step.launches[i];
        const LaunchOverride* ov = i < overrides.size() ? &overrides[i] : nullptr;
        LaunchReport lr;
        lr.entry = spec.entry;
        lr.tuned = i == step.tuned_launch();
        lr.passes = resolve_passes(spec, params);
        lr.dims = resolve_launch(spec, params, ov, 0);
        // Every pass is sized and checked: a later pass may need another grid.
        for (long long p = 0; p < std::max(1ll, lr.passes) && !lr.refusal; ++p) {
            bool optin = false;
            lr.refusal = check_launch(p == 0 ? lr.dims : resolve_launch(spec, params, ov, p), limits, {}, &optin);
            lr.shared_optin = lr.shared_optin || optin;
            if (lr.refusal && spec.multi_pass()) lr.refusal->add({"refuse.pass", {std::to_string(p)}});
        }
        const bool refused = lr.refusal.has_value();
        reports.push_back(std::move(lr));
        if (refused) break;
    }
    return reports;
}

Sentence timing_method(const Timing& t) {
    char noise[32];
    std::snprintf(noise, sizeof noise, "%.2f", 100.0 * t.noise);
    const std::string stop = t.stopped_by == "noise"    ? "@timing.stop.noise"
                             : t.stopped_by == "budget" ? "@timing.stop.budget"
                                                        : "@timing.stop.samples";
    Sentence s{{"timing.samples", {std::to_string(t.samples_ms.size()), noise, stop}}};
    if (t.batch > 1 && t.flush_subtracted) s.push_back({"timing.flushed_batch", {std::to_string(t.batch)}});
    else if (t.batch > 1) s.push_back({"timing.batched", {std::to_string(t.batch)}});
    else s.push_back({t.l2_flushed ? "timing.cold_l2" : "timing.warm_l2", {}});
    if (!t.not_batched.empty()) s.push_back({"timing.not_batched", {}});
    if (t.sm_clock_mhz > 0) s.push_back({"timing.clock", {std::to_string(t.sm_clock_mhz), std::to_string(t.max_sm_clock_mhz)}});
    if (!t.throttled.empty()) {
        // One phrase per cause: "; the GPU was slowed (power cap, thermal (hardware)): ...".
        std::string_view ids = t.throttled;
        for (bool first = true; !ids.empty(); first = false) {
            const size_t comma = ids.find(',');
            const std::string id(ids.substr(0, comma));
            s.push_back({first ? "timing.throttled" : "timing.throttled.more", {"@timing.slow." + id}});
            ids = comma == std::string_view::npos ? std::string_view{} : ids.substr(comma + 1);
        }
        s.push_back({"timing.throttled.end", {}});
    }
    return s;
}

std::unique_ptr<RunBackend> make_local_backend(int ordinal) { return std::make_unique<LocalBackend>(ordinal); }

const Step* request_step(const RunRequest& req) {
    return req.lesson ? req.lesson->find_step(req.step.empty() ? "1" : req.step) : nullptr;
}

const TestCase* request_case(const RunRequest& req, const Step& step) {
    if (!req.test_case.empty()) return step.find_case(req.test_case);
    return step.checks.cases.empty() ? nullptr : &step.checks.cases[0];
}

double run_timeout(const RunRequest& req) {
    if (req.timeout_s > 0) return req.timeout_s;
    const Step* step = request_step(req);
    if (!step) return kDefaultRunTimeout;
    const TestCase* tc = request_case(req, *step);
    if (tc && tc->timeout_s > 0) return tc->timeout_s;
    return step->checks.timeout_s;
}

std::string run_timeout_source(const RunRequest& req) {
    if (req.timeout_s > 0) return "@deadline.given";
    const Step* step = request_step(req);
    if (!step) return "@deadline.default";
    const TestCase* tc = request_case(req, *step);
    if (tc && tc->timeout_s > 0) return "@deadline.case|" + tc->name;
    return "@deadline.lesson";
}

double sanitized_timeout(const RunRequest& req) { return std::max(120.0, 10 * run_timeout(req)); }

void apply_sanitizer_report(RunResult& r, SanitizerTool tool, const SanitizerReport& rep) {
    r.sanitizer = tool;
    r.sanitizer_findings = rep.findings;
    r.sanitizer_errors = rep.errors;
    const std::string name = std::string("compute-sanitizer ") + sanitizer_tool_name(tool);
    int errors = rep.errors;
    if (errors < 0) {  // no summary: the worker died or was stopped before the tool could write one
        errors = 0;
        for (const auto& f : rep.findings) errors += f.is_error ? f.count : 0;
    }
    if (errors == 0) {
        if (r.status == RunStatus::Passed) r.say_more({"sanitizer.clean", {name}});
        return;
    }
    Sentence before = r.message_said.empty() ? Sentence{verbatim(r.message)} : r.message_said;
    Sentence said = {errors == 1 ? Phrase{"sanitizer.found_one", {name}}
                                 : Phrase{"sanitizer.found", {name, std::to_string(errors)}}};
    for (const auto& f : rep.findings)
        if (f.is_error) {
            said.push_back({"sanitizer.first", {f.to_string()}});
            break;
        }
    said.push_back({"sanitizer.run_itself", {run_status_name(r.status)}});
    said.insert(said.end(), before.begin(), before.end());
    said.push_back({"sanitizer.run_itself_end", {}});
    r.status = RunStatus::SanitizerErrors;
    r.say(std::move(said));
    r.say_hint({{tool == SanitizerTool::Racecheck ? "hint.racecheck" : "hint.memcheck", {}}});
    r.context_lost = false;  // the sanitized worker was one-shot; nothing is lost
}

}  // namespace wb
