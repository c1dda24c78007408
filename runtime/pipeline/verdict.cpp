// runtime/pipeline/verdict.cpp — what a run's outputs say (verdict.hpp).
#include "pipeline/verdict.hpp"

#include "compile/include_policy.hpp"
#include "core/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace wb {

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

std::string first_error(const std::vector<Diagnostic>& diags) {
    for (const auto& d : diags)
        if (d.severity == Severity::Error) return d.to_string();
    return {};
}

void say_first_error(RunResult& r, const std::vector<Diagnostic>& diags, const std::string& source_text) {
    const auto first = std::find_if(diags.begin(), diags.end(), [](const Diagnostic& d) { return d.severity == Severity::Error; });
    if (first == diags.end()) return;
    const std::string text = first->to_string();
    if (first->code == kIncludeRefused) {
        // The refusal again (the scan is cheap and the same), for its phrases.
        for (const IncludeRefusal& refusal : refused_includes(source_text, first->file)) {
            const Diagnostic& d = refusal.diagnostic;
            if (d.line != first->line || d.column != first->column || d.message != first->message) continue;
            r.say_more({"detail", {text.substr(0, text.size() - d.message.size())}});
            for (const Phrase& p : refusal.said) r.say_more(p);
            return;
        }
    }
    r.say_more({"detail", {text}});
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

namespace {

// "3" as a count, in sentences: "once" or "3 times".
std::string times(long long n) { return n == 1 ? "@access.once" : "@access.times|" + std::to_string(n); }

// A figure as it reads: 32, not 32.00; 8.8 as 8.80.
std::string figure_text(double v) {
    char buf[32];
    if (std::fabs(v - std::round(v)) < 0.005) std::snprintf(buf, sizeof buf, "%.0f", v);
    else std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

std::string xyz_text(const std::array<long long, 3>& v) {
    return std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]);
}

// The limit as a student reads it: "global memory reads per thread: at most 2".
Sentence limit_sentence(const AccessLimitBounds& b) {
    const AccessLimitSpec& a = *b.spec;
    Sentence s;
    if (a.is_figure) {
        const std::string lines = "@access.lines." + (a.op.empty() ? std::string("any") : a.op);
        s.push_back({a.figure == AccessFigure::SectorsPerRequest ? "access.desc.sectors" : "access.desc.bank_ways", {lines}});
        s.push_back({"access.bound.at_most", {figure_text(a.figure_at_most)}});
        return s;
    }
    const std::string what = std::string("@access.what.") + access_count_name(a.count);
    if (a.per_element) s.push_back({"access.desc.per_element", {what, a.buffer}});
    else if (!a.buffer.empty()) s.push_back({"access.desc.per_thread_buffer", {what, a.buffer}});
    else s.push_back({"access.desc.per_thread", {what}});
    if (b.at_most && b.at_least && *b.at_most == *b.at_least) s.push_back({"access.bound.exactly", {std::to_string(*b.at_most)}});
    else if (b.at_most && b.at_least)
        s.push_back({"access.bound.between", {std::to_string(*b.at_least), std::to_string(*b.at_most)}});
    else if (b.at_most) s.push_back({"access.bound.at_most", {std::to_string(*b.at_most)}});
    else if (b.at_least) s.push_back({"access.bound.at_least", {std::to_string(*b.at_least)}});
    return s;
}

// A count limit's verdict: the thread or element that broke it (the highest
// over at_most, else the lowest under at_least) and how many did.
void judge_count(const AccessLimitBounds& b, const AccessCounts::Count& c, bool several_launches, AccessLimitResult& out) {
    const AccessLimitSpec& a = *b.spec;
    const char* things = a.per_element ? "access.passed.elements" : "access.passed.threads";
    const bool over = b.at_most && c.counted > 0 && c.max > *b.at_most;
    const bool under = !over && b.at_least && c.counted > 0 && c.min < *b.at_least;
    if (!over && !under) {
        out.verdict = LimitVerdict::Passed;
        out.value = double(b.at_most || !b.at_least ? c.max : c.min);  // the side the limit watches
        out.said = c.counted == 0 ? Sentence{{"access.passed.nothing", {}}}
                                  : Sentence{{things, {std::to_string(c.counted), std::to_string(c.max), std::to_string(c.min)}}};
        return;
    }
    out.verdict = LimitVerdict::Failed;
    const long long n = over ? c.max : c.min;
    const AccessCounts::Who& who = over ? c.max_at : c.min_at;
    out.value = double(n);
    const std::string name = access_count_name(a.count);
    if (a.per_element) {
        out.said.push_back({"access.limit.element", {std::to_string(who.element), a.buffer, "@access.done." + name, times(n)}});
    } else {
        const std::string did = a.buffer.empty() ? "@access.did." + name : "@access.did_buffer." + name + "|" + a.buffer;
        out.said.push_back({"access.limit.thread", {xyz_text(who.block), xyz_text(who.thread), did, times(n)}});
        if (several_launches)
            out.said.push_back(who.pass >= 0 ? Phrase{"access.limit.in_pass", {who.kernel, std::to_string(who.pass)}}
                                             : Phrase{"access.limit.in_kernel", {who.kernel}});
    }
    if (b.at_most && b.at_least && *b.at_most == *b.at_least) out.said.push_back({"access.limit.wants_exactly", {std::to_string(*b.at_most)}});
    else if (over) out.said.push_back({"access.limit.allows_at_most", {std::to_string(*b.at_most)}});
    else out.said.push_back({"access.limit.wants_at_least", {std::to_string(*b.at_least)}});
    if (c.outside > 1)
        out.said.push_back({a.per_element ? "access.limit.more_elements" : "access.limit.more_threads",
                            {std::to_string(c.outside), std::to_string(c.counted)}});
}

// A figure limit's verdict: the worst line of its memory space (and op) in
// the record, against the bound.
void judge_figure(const AccessLimitBounds& b, const AccessSummary& figures, AccessLimitResult& out) {
    const AccessLimitSpec& a = *b.spec;
    const bool sectors = a.figure == AccessFigure::SectorsPerRequest;
    const AccessLine* worst = nullptr;
    for (const AccessLine& l : figures.lines) {
        if (l.space != (sectors ? "global" : "shared") || (!a.op.empty() && l.op != a.op) || l.requests == 0) continue;
        const double v = sectors ? l.sectors_per_request : l.bank_conflict_ways;
        if (!worst || v > (sectors ? worst->sectors_per_request : worst->bank_conflict_ways)) worst = &l;
    }
    if (!worst) {
        out.verdict = LimitVerdict::Passed;
        out.said = {{"access.passed.no_lines", {}}};
        return;
    }
    const double v = sectors ? worst->sectors_per_request : worst->bank_conflict_ways;
    out.value = v;
    const std::string line = worst->line > 0 ? std::to_string(worst->line) : "?";
    if (v <= a.figure_at_most + 1e-9) {
        out.verdict = LimitVerdict::Passed;
        out.said = {{"access.passed.line", {line, figure_text(v)}}};
        return;
    }
    out.verdict = LimitVerdict::Failed;
    out.said = {{sectors ? "access.limit.sector_line" : "access.limit.bank_line",
                 {line, "@access.op." + worst->op, figure_text(v), figure_text(a.figure_at_most)}}};
}

}  // namespace

void judge_access_limits(RunResult& r, const std::vector<AccessLimitBounds>& limits, const AccessCounts* counts,
                         const Sentence& not_judged, bool fails) {
    r.access_limits.clear();
    const AccessLimitResult* first_broken = nullptr;
    int broken = 0;
    for (std::size_t i = 0; i < limits.size(); ++i) {
        const AccessLimitBounds& b = limits[i];
        AccessLimitResult out;
        out.json_path = b.spec->json_path;
        out.limit = limit_sentence(b);
        out.why = b.spec->why.by_lang;
        if (!counts) {
            out.verdict = LimitVerdict::NotJudged;
            out.said = not_judged;
        } else if (b.spec->is_figure) {
            if (counts->figures) judge_figure(b, *counts->figures, out);
            else out.said = {{"access.not_judged.no_record", {}}};
        } else if (i < counts->counts.size()) {
            judge_count(b, counts->counts[i], counts->several_launches, out);
        }
        r.access_limits.push_back(std::move(out));
    }
    for (const AccessLimitResult& l : r.access_limits)
        if (l.verdict == LimitVerdict::Failed) {
            if (!first_broken) first_broken = &l;
            ++broken;
        }
    // A wrong output stays the verdict; the limits are listed beside it.
    if (r.status != RunStatus::Passed) return;
    if (!counts && fails && !limits.empty()) {
        r.status = RunStatus::AccessLimit;
        r.say(not_judged);
        r.say_hint({{"hint.access_limit_not_judged", {}}});
        return;
    }
    if (!first_broken) return;
    r.status = RunStatus::AccessLimit;
    Sentence said = first_broken->said;
    if (!first_broken->why.empty()) {
        said.push_back({"access.limit.why", {}});
        said.push_back(lesson_text(first_broken->why));
    }
    if (broken > 1) said.push_back({"access.limit.others", {std::to_string(broken - 1)}});
    r.say(std::move(said));
    r.say_hint({{"hint.access_limit", {}}});
}

bool judge_after_timing(RunResult& r, const std::vector<CompareSpec>& compare, const std::vector<HostBuffer>& after,
                        const std::vector<HostBuffer>& reference_out) {
    for (const auto& spec : compare) {
        const HostBuffer* got = find_in(after, spec.buffer);
        const HostBuffer* want = find_in(reference_out, spec.buffer);
        if (!got || !want) throw Error(ErrorKind::Internal, "compared buffer '" + spec.buffer + "' missing after timing");
        CompareResult c = compare_buffers(*got, nullptr, *want, spec);
        if (c.passed) continue;
        r.status = RunStatus::Mismatch;
        r.say({{"run.changed_while_timed", {c.buffer, std::to_string(c.mismatches), std::to_string(c.count)}}});
        r.say_hint({{"hint.changed_while_timed", {}}});
        // The timed outputs' comparison stands beside the validated ones, marked as such.
        if (c.note_said.empty() && !c.note.empty()) c.note_said.push_back(verbatim(c.note));
        c.note_said.insert(c.note_said.begin(), {"compare.after_timing", {}});
        c.note = render(c.note_said, "en");
        r.comparisons.push_back(std::move(c));
        return false;
    }
    return true;
}

}  // namespace wb
