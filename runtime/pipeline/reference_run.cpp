// runtime/pipeline/reference_run.cpp — inputs and reference outputs, kept (reference_run.hpp).
#include "pipeline/reference_run.hpp"

#include "core/fs.hpp"
#include "lesson/launch_args.hpp"
#include "lesson/lesson_files.hpp"
#include "lesson/resolve.hpp"
#include "pipeline/poison.hpp"
#include "pipeline/reference_store.hpp"
#include "reference/isolated.hpp"

#include <functional>

namespace wb {

namespace {

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

}  // namespace

std::vector<HostBuffer> ReferenceRunner::inputs(const RunRequest& req, const Step& step, const TestCase* tc,
                                                const RunResult& r, std::string& key) {
    key = step.id + '\n' + r.case_name + '\n' + std::to_string(std::hash<std::string>{}(req.lesson->json_text)) + '\n' +
          req.lesson->file.string() + '\n';
    for (const auto& [name, value] : r.params) key += name + '=' + format_number(value) + '\n';
    for (const auto& f : lesson_files(*req.lesson)) {
        const FileStamp st = stamp_file(f);
        key += f.string() + ' ' + std::to_string(st.size) + ' ' + std::to_string(st.mtime.time_since_epoch().count()) + '\n';
    }
    if (const auto* hit = inputs_.find(key)) return *hit;
    std::vector<HostBuffer> host = make_step_buffers(step, tc, ExprVars(r.params.begin(), r.params.end()));
    if (held_bytes(host) <= kKeptBuffersBytes) inputs_.remember(key, host);
    return host;
}

std::optional<std::vector<HostBuffer>> ReferenceRunner::outputs(const RunRequest& req, const Step& step,
                                                                const std::vector<CompareSpec>& compare,
                                                                const std::vector<HostBuffer>& host, const std::string& key,
                                                                RunResult& r) {
    auto take_timing = [&](const ReferenceTiming& t) {
        r.cpu_ms = t.seconds * 1e3;
        r.cpu_cold_ms = t.cold_seconds * 1e3;
        r.cpu_warm_runs = t.warm_runs;
        r.cpu_threads = t.threads;
    };
    std::string ref_key = r.reference.library.string() + '\n' + r.reference.symbol + '\n' + key;
    if (const Kept* hit = references_.find(ref_key)) {
        take_timing(hit->timing);
        r.cpu_from_cache = true;
        return hit->outputs;
    }
    if (std::optional<StoredReference> stored = load_reference(ref_key, host)) {  // a grade ran it before
        take_timing(stored->timing);
        r.cpu_from_cache = true;
        if (held_bytes(stored->outputs, host) <= kKeptBuffersBytes) references_.remember(ref_key, {stored->outputs, stored->timing});
        return std::move(stored->outputs);
    }
    std::vector<HostBuffer> out = host;
    LoadedReference ref(r.reference);
    const std::uint64_t buffer_bytes = bytes_of(host);
    ArgPack pack;
    auto run_ref = [&](std::vector<HostBuffer>& outs) {
        return run_reference_isolated(
            ref, outs,
            [&](const std::function<void*(const std::string&)>& address_of) {
                pack = pack_args(step.reference.args, r.params, address_of);
                return pack.pointers.data();
            },
            reference_limits(run_timeout(req), buffer_bytes));
    };
    poison_reference_outputs(step, compare, out, kPoisonA);
    const ReferenceTiming t = run_ref(out);
    take_timing(t);
    // Elements that still hold the poison may be values the reference computed (255 in
    // a byte image): a second run with the other poison tells them apart.
    if (has_poisoned_element(step, compare, out, kPoisonA)) {
        std::vector<HostBuffer> again = host;
        poison_reference_outputs(step, compare, again, kPoisonB);
        run_ref(again);
        if (Sentence said = reference_unwritten(step, compare, out, again); !said.empty()) {
            r.status = RunStatus::ReferenceError;
            r.say(std::move(said));
            r.say_hint({{"hint.reference_unwritten", {}}});
            return std::nullopt;
        }
    }
    if (req.reference_only) store_reference(ref_key, out, t);  // only a reference_only run writes the store
    if (held_bytes(out, host) <= kKeptBuffersBytes) references_.remember(std::move(ref_key), {out, t});
    return out;
}

}  // namespace wb
