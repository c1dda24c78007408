// runtime/emulate/emulate_executor.cpp — a kernel step's kernels on the CPU emulator (emulate_executor.hpp).
#include "emulate/emulate_executor.hpp"

#include "core/error.hpp"
#include "driver/cuda_driver.hpp"
#include "emulate/access_check.hpp"
#include "emulate/access_record.hpp"
#include "emulate/emulator.hpp"
#include "lesson/launch_args.hpp"
#include "lesson/resolve.hpp"
#include "pipeline/poison.hpp"
#include "pipeline/verdict.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace wb {

namespace {

// The seed of the second validation run's thread order (EmuModule::launch).
constexpr std::uint32_t kSecondSchedule = 0x5EED;

class EmulateExecutor final : public StepExecutor {
public:
    explicit EmulateExecutor(const StepInputs& in) : in_(in), arena_(static_cast<std::size_t>(in.malloc_heap_bytes)) {}

    bool prepare(RunResult& r) override;
    std::optional<std::vector<HostBuffer>> validate(RunResult& r, unsigned char poison, unsigned char guard,
                                                    const std::vector<HostBuffer>* first) override;
    Sentence out_of_bounds() const override { return out_of_bounds_; }
    std::optional<AccessCounts> access_counts() const override { return counts_; }
    Sentence warnings() const override { return notes_; }

    // Nothing is timed here; what the emulator cannot judge is said.
    std::optional<std::vector<HostBuffer>> measure(RunResult& r) override {
        char ms[32];
        std::snprintf(ms, sizeof ms, "%.1f", r.emulated_ms);
        r.say_more({"run.emulated", {ms}});
        const Step& step = in_.step;
        const TestCase* tc = request_case(in_.req, step);
        // What racecheck would watch on a GPU (shared memory) the access check watched here, every access.
        if (tc && step.checks.requires_racecheck(*tc)) r.say_more({"race.checked_by_emulator", {}});
        if (step.checks.target && in_.req.timing) {
            TargetResult t;
            t.step = step.checks.target->step;
            t.measure = step.checks.target->measure;
            t.at_most = step.checks.target->at_most;
            t.min_gpus = step.checks.target->min_gpus;
            t.not_applicable = {{"target.needs_gpu", {}}};
            r.target = std::move(t);
        }
        return std::nullopt;
    }

private:
    std::size_t index_of(const std::string& name) const { return buffer_index(in_.host, name); }
    void report_fault(RunResult& r, EmuFault& fault) const;
    AccessCounts access_counts_of(const std::vector<AccessCountResult>& found, std::optional<AccessSummary> figures) const;
    void report_finding(RunResult& r, const AccessFinding& f, const LaunchDims& dims, const std::string& kernel) const;

    const StepInputs& in_;
    std::vector<std::string> entries_;
    std::vector<std::size_t> entry_of_;  // per launch, its index in entries_
    std::optional<EmuModule> module_;        // every access checked: the first validation run
    std::optional<EmuModule> plain_module_;  // unchecked, for the second (EmuBuild::plain_library)
    EmuArena arena_;
    AccessShadow shadow_;  // every access of the run's launches: races, unwritten reads
    // With RunRequest::access, or a figure limit: the sampled blocks' accesses in the first, checked run.
    std::unique_ptr<AccessRecord> record_;
    // The step's access limits that count (lesson checks.access): their
    // counters (AccessShadow::count), the limit each is, and what the first
    // run's launches were (by the number the shadow gives them).
    std::vector<AccessCounter> counters_;
    std::vector<std::size_t> counter_limit_;
    struct CountedLaunch {
        std::string entry;
        LaunchDims dims;
        long long pass = -1;
    };
    std::vector<CountedLaunch> counted_launches_;
    std::optional<AccessCounts> counts_;  // after a first run that completed
    Sentence out_of_bounds_;
    Sentence notes_;  // the first launch's EmuModule::notes() that said something
};

bool EmulateExecutor::prepare(RunResult& r) {
    r.emulated = true;
    for (const auto& lr : r.launches)
        if (std::find(entries_.begin(), entries_.end(), lr.entry) == entries_.end()) entries_.push_back(lr.entry);
    const EmuBuild build = build_emulated(in_.source, entries_);
    if (build.refusal) {
        r.status = RunStatus::Refused;
        r.say({{"run.emulator_refused", {build.refusal->to_string()}}});
        r.say_hint({{"hint.emulator_refused", {}}});
        return false;
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
        return false;
    }
    module_.emplace(build);
    if (!build.plain_library.empty()) plain_module_.emplace(build, true);
    const Step& step = in_.step;
    for (std::size_t li = 0; li < r.launches.size(); ++li) {
        LaunchReport& lr = r.launches[li];
        const std::size_t e = std::size_t(std::find(entries_.begin(), entries_.end(), lr.entry) - entries_.begin());
        entry_of_.push_back(e);
        const LaunchSpec& spec = step.launches[li];
        if (module_->arity(e) != int(spec.args.size())) {
            std::string names;
            for (const auto& a : spec.args) names += (names.empty() ? "" : ", ") + a.name;
            lr.refusal = LaunchRefusal{"args", {{module_->arity(e) == 1 ? "refuse.arg_count_one" : "refuse.arg_count",
                                                 {lr.entry, std::to_string(module_->arity(e)), std::to_string(spec.args.size()), names}}}};
            set_refused(r, lr);
            return false;
        }
    }
    for (std::size_t k = 0; k < step.constants.size(); ++k) {
        const ConstantSpec& c = step.constants[k];
        void* global = module_->symbol(c.name);
        if (!global) {
            LaunchReport& lr = r.launches.front();
            lr.refusal = LaunchRefusal{"constants", {{"refuse.no_constant", {c.name, c.buffer.empty()
                                                                                          ? "@refuse.from_values|" + std::to_string(c.values.size())
                                                                                          : "@refuse.from_buffer|" + c.buffer}}}};
            set_refused(r, lr);
            return false;
        }
        std::memcpy(global, in_.constants[k].data(), in_.constants[k].size());
        if (plain_module_) {
            if (void* plain = plain_module_->symbol(c.name))
                std::memcpy(plain, in_.constants[k].data(), in_.constants[k].size());
        }
    }
    for (const auto& h : in_.host) {
        const std::byte* data = arena_.add(h.name, h.size_bytes(), dtype_size(h.type));
        shadow_.add_buffer(h.name, data, h.size_bytes(), dtype_size(h.type), h.role == BufferRole::Input);
    }
    bool figures = false;
    for (std::size_t i = 0; i < in_.access_limits.size(); ++i) {
        const AccessLimitSpec& spec = *in_.access_limits[i].spec;
        if (spec.is_figure) {
            figures = true;
            continue;
        }
        AccessCounter k;
        switch (spec.count) {
        case AccessCount::GlobalReads: case AccessCount::SharedReads: k.op = AccessCounter::Op::Read; break;
        case AccessCount::GlobalWrites: case AccessCount::SharedWrites: k.op = AccessCounter::Op::Write; break;
        case AccessCount::GlobalAtomics: case AccessCount::SharedAtomics: k.op = AccessCounter::Op::Atomic; break;
        }
        k.shared = access_count_shared(spec.count);
        k.per_element = spec.per_element;
        k.buffer = spec.buffer.empty() ? -1 : static_cast<long long>(index_of(spec.buffer));
        k.at_most = in_.access_limits[i].at_most;
        k.at_least = in_.access_limits[i].at_least;
        counters_.push_back(k);
        counter_limit_.push_back(i);
    }
    if (in_.req.access || figures) record_ = std::make_unique<AccessRecord>();
    return true;
}

std::optional<std::vector<HostBuffer>> EmulateExecutor::validate(RunResult& r, unsigned char poison, unsigned char guard,
                                                                 const std::vector<HostBuffer>* first) {
    const auto& host = in_.host;
    const Step& step = in_.step;
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::size_t> binding(host.size());
    // The run's launches from fresh buffers. With `pin`, the launch numbered
    // `pin_at` records only the accesses to pin's element (AccessShadow::
    // pinpoint) and the run stops after it. Returns what stopped the run.
    struct End {
        std::optional<EmuFault> fault;
        std::optional<AccessFinding> finding;
        std::size_t launch = 0, number = 0;
        LaunchDims dims;
    };
    const auto run_all = [&](const AccessFinding* pin, std::size_t pin_at) {
        for (std::size_t i = 0; i < host.size(); ++i) {
            const bool filled = host[i].role != BufferRole::Output || filled_by_lesson(step, host[i]);
            if (filled)
                std::memcpy(arena_.data(i), host[i].data(), host[i].size_bytes());
            else
                std::memset(arena_.data(i), poison, host[i].size_bytes());
            shadow_.set_written(i, filled);
        }
        for (std::size_t i = 0; i < host.size(); ++i) arena_.fill_guards(i, guard_pattern(guard, i));
        for (std::size_t i = 0; i < binding.size(); ++i) binding[i] = i;
        shadow_.clear_inputs_written();
        // The record is of one whole checked run: the last one made (a run
        // again with every input read recorded starts it again). Not of a pinpointing run.
        const bool recording = record_ && !first && !pin;
        if (recording) record_->clear();
        shadow_.record(recording ? record_.get() : nullptr);
        // The access limits' counts, likewise: the whole checked run, from zero.
        const bool counting = !counters_.empty() && !first && !pin;
        shadow_.count(counting ? counters_ : std::vector<AccessCounter>{});
        counted_launches_.clear();
        // The device heap lasts the run, as a GPU's lasts its context: a pointer
        // one launch malloc'ed can be used and freed by the next. Each run starts
        // with it empty, and what the kernels leaked is given back when it ends.
        arena_.reset_heap();
        End end;
        for (std::size_t li = 0; li < step.launches.size(); ++li) {
            const LaunchSpec& spec = step.launches[li];
            const LaunchOverride* ov = li < in_.req.launches.size() ? &in_.req.launches[li] : nullptr;
            std::map<std::string, double> values = r.params;
            for (long long p = 0; p < r.launches[li].passes; ++p, ++end.number) {
                if (spec.multi_pass()) values["pass"] = double(p);
                ArgPack pack = pack_args(spec.args, values, [&](const std::string& name) {
                    return reinterpret_cast<CUdeviceptr>(arena_.data(binding[index_of(name)]));
                });
                end.dims = p == 0 ? r.launches[li].dims : resolve_launch(spec, r.params, ov, p);
                end.launch = li;
                // The supervisor names the kernel if the worker ends during this launch.
                if (in_.req.on_kernel) in_.req.on_kernel(r.launches[li].entry);
                if (pin && end.number == pin_at) shadow_.pinpoint(*pin);
                // The second run takes its threads in another order (a seeded
                // shuffle of warps and of lanes): a result that depends on the
                // order then differs between the two, and is said as such.
                // The pinpointing launch runs its blocks on one core, so the pair it names is the same every time.
                const bool pinning = pin && end.number == pin_at;
                // The second run's kernels are the unchecked ones: the check found
                // what it finds in the first, whatever the order.
                const bool checked = !first || !plain_module_;
                EmuModule& module = checked ? *module_ : *plain_module_;
                if (recording && checked) record_->begin_launch(r.launches[li].entry, end.dims.grid, end.dims.block);
                // Numbered as the shadow numbers them: a launch of no thread runs nothing (EmuModule::launch).
                if (counting && end.dims.blocks() > 0 && end.dims.threads_per_block() > 0)
                    counted_launches_.push_back({r.launches[li].entry, end.dims, spec.multi_pass() ? p : -1});
                end.fault = module.launch(entry_of_[li], end.dims, pack.pointers.data(), &arena_, checked ? &shadow_ : nullptr,
                                          first ? kSecondSchedule : 0, pinning ? 1 : 0);
                if (notes_.empty()) notes_ = module.notes();
                if (end.fault) {
                    end.fault->said.insert(end.fault->said.begin(), Phrase{"emu.in_kernel", {r.launches[li].entry}});
                    end.fault->message = render(end.fault->said, "en");
                }
                if (checked && !end.fault && !pin && !shadow_.findings().empty()) end.finding = shadow_.findings().front();
                if (end.fault || end.finding || (pin && end.number == pin_at)) {
                    arena_.reset_heap();
                    return end;
                }
                if (p + 1 < r.launches[li].passes)
                    for (const auto& [a, b] : spec.swap) std::swap(binding[index_of(a)], binding[index_of(b)]);
            }
        }
        arena_.reset_heap();
        return end;
    };
    End end = run_all(nullptr, 0);
    if (!end.fault && !end.finding && shadow_.inputs_written()) {
        // A kernel wrote an input, whose reads were not recorded: again, every read recorded.
        shadow_.check_inputs(true);
        end = run_all(nullptr, 0);
        shadow_.check_inputs(false);
    }
    shadow_.record(nullptr);
    std::optional<AccessSummary> figures;
    if (record_ && !first) {
        // The figures of a run that completed; a fault or a finding stopped this one part way.
        if (end.fault || end.finding) {
            if (in_.req.access) {
                r.access = AccessSummary{};
                r.access->not_recorded = {{"access.run_stopped", {}}};
            }
        } else {
            // The global buffers by their index in the shadow, named as the lesson (and the launch's args) name them.
            std::vector<AccessBuffer> globals;
            for (const auto& h : in_.host) globals.push_back({h.name, "global", static_cast<int>(dtype_size(h.type))});
            figures = record_->summarise(emulated_source_lines, globals);
            if (in_.req.access) r.access = figures;
        }
        record_.reset();  // the memory back: the second run records nothing
    }
    // The access limits' counts, of a first run that completed.
    if (!first && !end.fault && !end.finding && !in_.access_limits.empty()) counts_ = access_counts_of(shadow_.counts(), std::move(figures));
    shadow_.count({});
    if (end.fault) {
        report_fault(r, *end.fault);
        return std::nullopt;
    }
    if (end.finding) {
        AccessFinding f = *end.finding;
        // A race's first access: the run again, that launch recording only that element.
        if (f.kind == AccessFinding::Kind::Race) {
            run_all(&f, end.number);
            if (const auto pinned = shadow_.pinned()) {
                const long long granules = f.granules;
                f = *pinned;
                f.granules = granules;
            }
        }
        report_finding(r, f, end.dims, r.launches[end.launch].entry);
        return std::nullopt;
    }
    if (!shadow_.checks_global() && !first) {
        char mib[32];
        std::snprintf(mib, sizeof mib, "%.0f", double(shadow_.cell_bytes()) / (1 << 20));
        notes_.push_back({"emu.checks_skipped", {mib}});
    }
    // The first run's time is the launches' wall time that is said.
    if (!first) r.emulated_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (out_of_bounds_.empty())
        out_of_bounds_ = guard_report(host, guard, [&](std::size_t i, unsigned char p) { return arena_.first_guard_write(i, p); });
    std::vector<HostBuffer> out;
    for (std::size_t i = 0; i < host.size(); ++i)
        if (host[i].role != BufferRole::Input) {
            HostBuffer b = host[i].zeroed_like();
            std::memcpy(b.mutable_data(), arena_.data(binding[i]), b.size_bytes());
            out.push_back(std::move(b));
        }
    return out;
}

// The counters' results as the verdict reads them: per limit, whom each
// names in the student's terms (the kernel, blockIdx and threadIdx).
AccessCounts EmulateExecutor::access_counts_of(const std::vector<AccessCountResult>& found,
                                               std::optional<AccessSummary> figures) const {
    AccessCounts out;
    out.counts.resize(in_.access_limits.size());
    out.figures = std::move(figures);
    out.several_launches = counted_launches_.size() > 1;
    const auto xyz = [](unsigned long long linear, const std::array<long long, 3>& d) {
        const auto x = static_cast<unsigned long long>(std::max(1ll, d[0])), y = static_cast<unsigned long long>(std::max(1ll, d[1]));
        return std::array<long long, 3>{static_cast<long long>(linear % x), static_cast<long long>((linear / x) % y),
                                        static_cast<long long>(linear / (x * y))};
    };
    const auto who = [&](const AccessCounted& c, bool per_element) {
        AccessCounts::Who w;
        w.element = c.element;
        if (per_element || std::size_t(c.launch) >= counted_launches_.size()) return w;
        const CountedLaunch& l = counted_launches_[std::size_t(c.launch)];
        w.kernel = l.entry;
        w.pass = l.pass;
        w.block = xyz(c.block, l.dims.grid);
        w.thread = xyz(c.thread, l.dims.block);
        return w;
    };
    for (std::size_t k = 0; k < found.size() && k < counter_limit_.size(); ++k) {
        const AccessCountResult& f = found[k];
        AccessCounts::Count& c = out.counts[counter_limit_[k]];
        c.counted = f.counted;
        c.outside = f.outside;
        c.max = f.max;
        c.min = f.min;
        c.max_at = who(f.max_at, counters_[k].per_element);
        c.min_at = who(f.min_at, counters_[k].per_element);
    }
    return out;
}

// A race, or a read of memory nothing wrote, found by the access check
// (access_check.hpp): the run fails as compute-sanitizer's racecheck or
// initcheck fails it on a GPU, at the line of the access that found it.
void EmulateExecutor::report_finding(RunResult& r, const AccessFinding& f, const LaunchDims& dims,
                                     const std::string& kernel) const {
    const auto xyz = [](unsigned linear, const std::array<long long, 3>& d) {
        const auto x = static_cast<unsigned>(d[0]), y = static_cast<unsigned>(d[1]);
        return std::to_string(linear % x) + ", " + std::to_string((linear / x) % y) + ", " + std::to_string(linear / (x * y));
    };
    const auto line_of = [](std::uintptr_t pc) {
        const std::string at = pc ? emulated_source_line(pc - 1) : std::string();
        return at.empty() ? std::string("@emu.line_unknown") : at;
    };
    const auto side = [&](const AccessSide& a) {
        const char* key = a.atomic ? "emu.race.atomic" : a.write ? "emu.race.wrote" : "emu.race.read";
        return Phrase{key, {xyz(a.block, dims.grid), xyz(a.thread, dims.block), line_of(a.pc)}};
    };
    r.status = RunStatus::SanitizerErrors;
    const std::string where = line_of(f.later.pc);
    if (const std::string prefix = in_.source.origin + ":"; where.rfind(prefix, 0) == 0)
        r.fault_line = std::atoi(where.c_str() + prefix.size());
    Sentence said{{"run.on_emulator", {}}, {"emu.in_kernel", {kernel}}};
    if (f.kind == AccessFinding::Kind::Race) {
        if (f.shared && f.region >= 1)
            said.push_back({"emu.race.static", {f.name, std::to_string(f.element)}});
        else if (f.shared)
            said.push_back({"emu.race.shared", {std::to_string(f.byte_offset), std::to_string(f.element),
                                                std::to_string(f.element_bytes)}});
        else
            said.push_back({"emu.race.buffer", {f.name, std::to_string(f.element)}});
        said.push_back(side(f.earlier));
        said.push_back({"emu.race.and", {}});
        said.push_back(side(f.later));
        if (f.earlier.block != f.later.block) said.push_back({"emu.race.two_blocks", {}});
        else if (f.earlier.thread / 32 == f.later.thread / 32) said.push_back({"emu.race.same_warp", {}});
        else said.push_back({"emu.race.same_interval", {}});
        if (f.granules > 1) said.push_back({"emu.race.more", {std::to_string(f.granules)}});
        r.say(std::move(said));
        r.say_hint({{"hint.race", {}}});
    } else {
        if (f.shared && f.region >= 1)
            said.push_back({"emu.uninit.static", {std::to_string(f.element), xyz(f.later.block, dims.grid),
                                                  xyz(f.later.thread, dims.block), f.name, where}});
        else if (f.shared)
            said.push_back({"emu.uninit.shared", {std::to_string(f.byte_offset), xyz(f.later.block, dims.grid),
                                                  xyz(f.later.thread, dims.block), where}});
        else
            said.push_back({"emu.uninit.buffer", {std::to_string(f.element), xyz(f.later.block, dims.grid),
                                                  xyz(f.later.thread, dims.block), f.name, where}});
        said.push_back({"emu.uninit.gpu", {}});
        r.say(std::move(said));
        r.say_hint({{"hint.uninit", {}}});
    }
    r.emulated_ms = -1;
}

// The launch stopped at a bad access or a trap: that is the verdict, at the
// student's line ("kernel.cu:12", to mark in the editor) when it is known.
void EmulateExecutor::report_fault(RunResult& r, EmuFault& fault) const {
    r.status = RunStatus::CudaError;
    if (const std::string prefix = in_.source.origin + ":"; fault.where.rfind(prefix, 0) == 0)
        r.fault_line = std::atoi(fault.where.c_str() + prefix.size());
    Sentence said{{"run.on_emulator", {}}};
    said.insert(said.end(), fault.said.begin(), fault.said.end());
    r.say(std::move(said));
    const char* hint = "hint.out_of_bounds_access";
    switch (fault.kind) {
    case EmuFault::Kind::OutOfBounds: case EmuFault::Kind::BadAddress: break;
    case EmuFault::Kind::Trap: hint = "hint.trap"; break;
    case EmuFault::Kind::Arithmetic: hint = "hint.divide_by_zero"; break;
    case EmuFault::Kind::Undefined: hint = "hint.undefined"; break;
    case EmuFault::Kind::Deadlock: hint = "hint.deadlock"; break;
    case EmuFault::Kind::BadFree: hint = "hint.bad_free"; break;
    case EmuFault::Kind::StackOverflow: hint = "hint.stack_overflow"; break;
    case EmuFault::Kind::Ended: hint = "hint.kernel_ended"; break;
    case EmuFault::Kind::Threw: hint = "hint.kernel_threw"; break;
    case EmuFault::Kind::Misaligned: hint = "hint.misaligned"; break;
    case EmuFault::Kind::SharedOverflow: hint = "hint.shared_overflow"; break;
    }
    r.say_hint({{hint, {}}});
    r.emulated_ms = -1;
}

}  // namespace

std::unique_ptr<StepExecutor> make_emulate_executor(const StepInputs& in) { return std::make_unique<EmulateExecutor>(in); }

}  // namespace wb
