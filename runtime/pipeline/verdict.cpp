// runtime/pipeline/verdict.cpp — what a run's outputs say (verdict.hpp).
#include "pipeline/verdict.hpp"

#include "compile/include_policy.hpp"
#include "core/error.hpp"

#include <algorithm>

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
