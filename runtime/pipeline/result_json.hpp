// runtime/pipeline/result_json.hpp — the one JSON form of a run's result.
//
// RunResult and every type inside it convert to and from JSON through
// nlohmann's ADL conversions (to_json/from_json in namespace wb, beside the
// types). The wire (wire.hpp) sends this form with the buffers' bytes framed
// beside it; the report (report.hpp, the CLI's --json) prints it with figures
// derived from it. Neither writes a result's field by itself.
//
// A struct whose members map one to one is listed below with
// NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT: each key is the member's
// name, a key missing from the JSON leaves the member at its default, and
// adding a member to the form is adding its name to the list. The rest are
// written by hand in result_json.cpp:
//   - an enum is its name: "passed", "warning", "never written", "memcheck" ("none"), "f32", "output";
//   - an unset std::optional is null;
//   - a Phrase is [key, arg, ...] and a Sentence a list of them;
//   - a HostBuffer is its summary: name, type, role, shape, sample_of and
//     "bytes", its size; its contents travel beside the JSON (the wire's blob)
//     or not at all (the report);
//   - a ListingLine is [text, source_line, is_source], a MismatchRun
//     [start, count], an AccessLane [lane, offset] and a ThreadAccess
//     [row, buffer, element]: lists that run to thousands of entries;
//   - a Timeline is timeline_to_json's form (host/timeline.hpp).
// What stays in the process that made it is not in the form: CompileResult's
// image, ReferenceBuild's library, symbol and wrapper_source.
//
// JSON has no NaN or infinity, and a NaN in an output is exactly what a
// student needs to see: result_json() writes a number that is not finite as
// the string "nan", "inf" or "-inf", and result_from_json() reads them back
// where a number belongs.
#pragma once

#include "pipeline/run.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <set>
#include <string>

// An unset optional is null, a set one its value's form.
namespace nlohmann {
template <class T>
struct adl_serializer<std::optional<T>> {
    static void to_json(json& j, const std::optional<T>& o) {
        if (o) j = *o;
        else j = nullptr;
    }
    static void from_json(const json& j, std::optional<T>& o) {
        if (j.is_null()) o.reset();
        else o = j.get<T>();
    }
};
}  // namespace nlohmann

namespace wb {

// Enums, by name. from_json throws wb::Error (Usage) for a name it does not know.
void to_json(nlohmann::json& j, RunStatus s);
void from_json(const nlohmann::json& j, RunStatus& s);
void to_json(nlohmann::json& j, Severity s);
void from_json(const nlohmann::json& j, Severity& s);
void to_json(nlohmann::json& j, MismatchReason r);
void from_json(const nlohmann::json& j, MismatchReason& r);
void to_json(nlohmann::json& j, SanitizerTool t);
void from_json(const nlohmann::json& j, SanitizerTool& t);
void to_json(nlohmann::json& j, TargetMeasure m);
void from_json(const nlohmann::json& j, TargetMeasure& m);
void to_json(nlohmann::json& j, DType t);
void from_json(const nlohmann::json& j, DType& t);
void to_json(nlohmann::json& j, BufferRole r);
void from_json(const nlohmann::json& j, BufferRole& r);
void to_json(nlohmann::json& j, LimitVerdict v);
void from_json(const nlohmann::json& j, LimitVerdict& v);

// The forms that need care (see above).
void to_json(nlohmann::json& j, const Phrase& p);
void from_json(const nlohmann::json& j, Phrase& p);
void to_json(nlohmann::json& j, const MismatchRun& r);
void from_json(const nlohmann::json& j, MismatchRun& r);
void to_json(nlohmann::json& j, const ListingLine& l);
void from_json(const nlohmann::json& j, ListingLine& l);
void to_json(nlohmann::json& j, const HostBuffer& b);
void from_json(const nlohmann::json& j, HostBuffer& b);  // leaves `bytes` empty
void to_json(nlohmann::json& j, const Timeline& t);
void from_json(const nlohmann::json& j, Timeline& t);
void to_json(nlohmann::json& j, const AccessLane& l);
void from_json(const nlohmann::json& j, AccessLane& l);
void to_json(nlohmann::json& j, const ThreadAccess& a);
void from_json(const nlohmann::json& j, ThreadAccess& a);

// One to one.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Diagnostic, file, line, column, severity, message, code)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CompileResult, ok, diagnostics, diagnostics_omitted, omitted_errors,
                                                omitted_warnings, log, arch, is_cubin, image_bytes, lowered_names, options,
                                                seconds, from_cache, cache_source, cache_key)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ReferenceBuild, ok, diagnostics, log, command, seconds, from_cache)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DeviceLimits, max_threads_per_block, max_block, max_grid, shared_per_block,
                                                shared_per_block_optin, shared_per_sm, regs_per_block, regs_per_sm,
                                                max_threads_per_sm, warp_size, where)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DeviceInfo, ordinal, name, cc_major, cc_minor, sm_count, total_memory,
                                                free_memory, clock_khz, memory_clock_khz, memory_bus_bits, l2_bytes,
                                                driver_version, pci_bus_id, limits)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LaunchDims, grid, block, shared_bytes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(KernelResources, registers, static_shared, local_bytes,
                                                max_threads_per_block)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LaunchRefusal, limit, message, said)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LaunchReport, entry, dims, passes, tuned, resources, refusal, shared_optin)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Mismatch, flat, index, got, want, reason)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CompareResult, buffer, passed, count, mismatches, unwritten,
                                                nondeterministic, changed_and_failed, deterministic, max_abs_error,
                                                max_rel_error, max_abs_at, atol, rtol, first, mismatch_runs,
                                                mismatch_runs_truncated, note, note_said)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Timing, warmup, samples_ms, median_ms, min_ms, max_ms, near_resolution,
                                                noise, stopped_by, l2_flushed, batch, flush_subtracted, not_batched,
                                                sm_clock_mhz, max_sm_clock_mhz, throttled, traced, waited_ms, busy_processes,
                                                throttled_before)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TargetResult, step, measure, at_most, this_ms, that_ms, min_gpus, gpus,
                                                not_applicable)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Ceilings, device, arch, driver_version, copy_gbs, fp32_gflops,
                                                fp16_gflops, sgemm_gflops, sgemm_note, measured_at)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(BaselineResult, kind, label, ran, checked, passed, check, note, note_said, median_ms, min_ms,
                                                max_ms, samples, batch, bytes, flops)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(KernelUsage, entry, registers, barriers, shared_static, constant,
                                                stack_frame, spill_stores, spill_loads)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(InspectionReport, arch, cc, kernels, ptx, sass, sass_unavailable)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SanitizerFinding, kind, file, line, other_line, function, has_thread,
                                                block, thread, address, message, is_error, count)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SampleOf, shape, step)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(AccessBuffer, name, space, element_bytes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(AccessRequest, launch, block, warp, buffer, origin, size, sectors, wavefronts, lanes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(AccessLine, file, line, op, space, requests, sectors, wavefronts,
                                                sectors_per_request, bank_conflict_ways, least_sectors, least_wavefronts,
                                                uneven_requests, examples)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(AccessThread, launch, block, thread, global_reads, global_writes,
                                                global_atomics, shared_reads, shared_writes, shared_atomics, accesses,
                                                accesses_left_out)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(AccessSampledLaunch, number, kernel, blocks, sampled, block_dim)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(AccessSummary, source, lines, threads, launches, buffers, truncated, not_recorded)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(AccessLimitResult, json_path, limit, verdict, said, value, why)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(RunResult, status, message, hint, error_code, output, context_lost,
                                                fault_line, lesson_id, step_id, case_name, params, arch, device,
                                                device_note, message_said, hint_said, device_note_said, notice_said, compile,
                                                inspection, reference, launches, comparisons, gpu_time, host_step,
                                                wall_time, timeline, target, emulated, emulated_ms, cpu_ms, cpu_cold_ms,
                                                cpu_warm_runs, cpu_threads, cpu_from_cache, bytes, flops, ceilings,
                                                baseline, sanitizer, sanitizer_findings, sanitizer_errors, access, profile,
                                                access_limits, inputs, gpu_outputs, cpu_outputs)

// The result's form, with numbers that are not finite as "nan", "inf", "-inf".
nlohmann::json result_json(const RunResult& r);

// The result a form describes, its buffers' contents empty. Lenient about
// what is missing (a member's default), strict about what is there: throws
// wb::Error (Internal) for a value of the wrong type, a fraction where a whole
// number belongs (converting it would be undefined), a name no enum has, or a
// result that contradicts itself (a sample that does not fit its whole).
RunResult result_from_json(const nlohmann::json& j);

// A result with every optional set and every list non-empty: the form's every
// path. result_from_json learns from it where a fraction belongs, so a double
// member added to a struct above needs nothing more; a new optional or list
// is set here (the test that no path of the form is null or empty says so).
const RunResult& every_path_result();

}  // namespace wb
