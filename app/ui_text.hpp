// app/ui_text.hpp — the interface's own words, by name.
//
// Lesson text comes from the lessons (LocalizedText). The app's labels live
// in the same catalogue as the runtime's sentences (runtime/core/phrase.cpp,
// keys "ui.*"), so a sentence has one place and one way to be translated;
// UiText names them, and tr() is a typed lookup, rendered once per language.
// The font loader adds every character of the catalogue to the glyph atlas.
#pragma once

#include <string>
#include <string_view>

namespace wb::app {

// Every label: its name here and its key in the catalogue ("ui." + the second;
// runtime/core/phrase.cpp), where its English and Chinese live.
#define WB_UI_TEXTS(X) \
    X(Lessons, lessons) \
    X(Language, language) \
    X(English, english) \
    X(Chinese, chinese) \
    X(ChineseTraditional, chinese_traditional) \
    X(Step, step) \
    X(Instructions, instructions) \
    X(StarterCode, starter_code) \
    X(LessonFailedToLoad, lesson_failed_to_load) \
    X(NoLessons, no_lessons) \
    X(NoSteps, no_steps) \
    X(LessonsFolder, lessons_folder) \
    X(LessonCount, lesson_count) \
    X(WithProblems, with_problems) \
    X(ReadOnlyForNow, read_only_for_now) \
    X(View, view) \
    X(Run, run) \
    X(Stop, stop) \
    X(ResetToStarter, reset_to_starter) \
    X(ShowSolution, show_solution) \
    X(CompareWithSolution, compare_with_solution) \
    X(CheckMemory, check_memory) \
    X(CheckRaces, check_races) \
    X(OpenExternal, open_external) \
    X(ConfirmSolution, confirm_solution) \
    X(Yes, yes) \
    X(Cancel, cancel) \
    X(Diagnostics, diagnostics) \
    X(Log, log) \
    X(Launch, launch) \
    X(Block, block) \
    X(Grid, grid) \
    X(SharedBytes, shared_bytes) \
    X(TimeoutSeconds, timeout_seconds) \
    X(AutomaticGrid, automatic_grid) \
    X(Params, params) \
    X(TestCase, test_case) \
    X(Threads, threads) \
    X(Blocks, blocks) \
    X(WarpsPerBlock, warps_per_block) \
    X(Results, results) \
    X(NoRunYet, no_run_yet) \
    X(Device, device) \
    X(CompileOnly, compile_only) \
    X(Theme, theme) \
    X(Dark, dark) \
    X(Light, light) \
    X(Compiling, compiling) \
    X(Running, running) \
    X(Saved, saved) \
    X(Unsaved, unsaved) \
    X(Done, done) \
    X(NoDiagnostics, no_diagnostics) \
    X(OnlyYours, only_yours) \
    X(OnlyInSolution, only_in_solution) \
    X(Close, close) \
    X(Buffers, buffers) \
    X(Waiting, waiting) \
    X(AndMoreDiagnostics, and_more_diagnostics) \
    X(DiagnosticsOfEarlierText, diagnostics_of_earlier_text) \
    X(SanitizerErrorsHeading, sanitizer_errors_heading) \
    X(LessonFileHasErrors, lesson_file_has_errors) \
    X(LessonIssuesMore, lesson_issues_more) \
    X(AllLaunches, all_launches) \
    X(TunedLaunch, tuned_launch) \
    X(Passes, passes) \
    X(HideLessons, hide_lessons) \
    X(ShowLessons, show_lessons) \
    X(PhaseStarting, phase_starting) \
    X(PhaseCompile, phase_compile) \
    X(PhaseReference, phase_reference) \
    X(PhaseGpu, phase_gpu) \
    X(PhaseTiming, phase_timing) \
    X(Help, help) \
    X(ExportPython, export_python) \
    X(ExportedPython, exported_python) \
    X(ExportFailed, export_failed) \
    X(KeyRun, key_run) \
    X(KeySave, key_save) \
    X(KeyFind, key_find) \
    X(KeyNextDiagnostic, key_next_diagnostic) \
    X(KeyLessonList, key_lesson_list) \
    X(ResOk, res_ok) \
    X(ResWrong, res_wrong) \
    X(ResErrors, res_errors) \
    X(ResMismatched, res_mismatched) \
    X(ResGpuMedian, res_gpu_median) \
    X(ResNearResolution, res_near_resolution) \
    X(ResGpuNotRunCompileOnly, res_gpu_not_run_compile_only) \
    X(ResCpuReference, res_cpu_reference) \
    X(ResSpeedUp, res_speed_up) \
    X(ResGpuNotRun, res_gpu_not_run) \
    X(ResCase, res_case) \
    X(ResCheck, res_check) \
    X(ResTimings, res_timings) \
    X(ResGpuFaster, res_gpu_faster) \
    X(ResGot, res_got) \
    X(RunDisabledBecause, run_disabled_because) \
    X(NoStepOpen, no_step_open) \
    X(DeviceCheckPending, device_check_pending) \
    X(RunInProgress, run_in_progress) \
    X(HistoryCaption, history_caption) \
    X(HistoryNoneTimed, history_none_timed) \
    X(HistoryNoGpu, history_no_gpu) \
    X(HistoryGpuTime, history_gpu_time) \
    X(ResCpuReferenceLabel, res_cpu_reference_label) \
    X(ViewNoBuffer, view_no_buffer) \
    X(ViewNoBufferStopped, view_no_buffer_stopped) \
    X(ViewCpuOnly, view_cpu_only) \
    X(ViewGpuOnly, view_gpu_only) \
    X(DevTarget, dev_target) \
    X(DevCapability, dev_capability) \
    X(DevMemory, dev_memory) \
    X(DevThreads, dev_threads) \
    X(DevShared, dev_shared) \
    X(ResViews, res_views) \
    X(NoViewsInStep, no_views_in_step) \
    X(NothingCompared, nothing_compared) \
    X(HintN, hint_n) \
    X(BufInput, buf_input) \
    X(Enlarge, enlarge) \
    X(Shrink, shrink) \
    X(PopOut, pop_out) \
    X(DockBack, dock_back) \
    X(ViewMenu, view_menu) \
    X(TextLarger, text_larger) \
    X(TextSmaller, text_smaller) \
    X(TextReset, text_reset) \
    X(LessonListShown, lesson_list_shown) \
    X(InstructionsOwnWindow, instructions_own_window) \
    X(ResultsEnlarged, results_enlarged) \
    X(TextSizeNow, text_size_now) \
    X(WZoomHelp, w_zoom_help) \
    X(WNoPicture, w_no_picture) \
    X(WMismatch, w_mismatch) \
    X(WRowColumn, w_row_column) \
    X(WIndex, w_index) \
    X(WFirstValues, w_first_values) \
    X(WFind, w_find) \
    X(WNoRuns, w_no_runs) \
    X(WRun, w_run) \
    X(WValue, w_value) \
    X(ViewLargestDifference, view_largest_difference) \
    X(ViewSourceInput, view_source_input) \
    X(ViewSourceCpu, view_source_cpu) \
    X(MismatchOutlineTruncated, mismatch_outline_truncated) \
    X(InspectPending, inspect_pending) \
    X(InspectStale, inspect_stale) \
    X(InspectNoKernels, inspect_no_kernels) \
    X(InspectLimitsGpu, inspect_limits_gpu) \
    X(InspectLimitsArch, inspect_limits_arch) \
    X(InspectKernel, inspect_kernel) \
    X(InspectSpills, inspect_spills) \
    X(InspectLargestBlock, inspect_largest_block) \
    X(OccupancyNow, occupancy_now) \
    X(OccupancyAt, occupancy_at) \
    X(OccupancyAxis, occupancy_axis) \
    X(LimitWarps, limit_warps) \
    X(LimitRegisters, limit_registers) \
    X(LimitShared, limit_shared) \
    X(LimitBlocks, limit_blocks) \
    X(LimitBarriers, limit_barriers) \
    X(ListingCaret, listing_caret) \
    X(ResResources, res_resources) \
    X(PhaseMemcheck, phase_memcheck) \
    X(PhaseRacecheck, phase_racecheck) \
    X(CeilingCopy, ceiling_copy) \
    X(CeilingFp32, ceiling_fp32) \
    X(CeilingsMeasured, ceilings_measured) \
    X(CeilingSgemm, ceiling_sgemm) \
    X(CeilingShort, ceiling_short) \
    X(CeilingShortFp32, ceiling_short_fp32) \
    X(PhaseCeilings, phase_ceilings) \
    X(ResSweep, res_sweep) \
    X(SweepOver, sweep_over) \
    X(SweepBlockSize, sweep_block_size) \
    X(SweepValues, sweep_values) \
    X(SweepValuesHelp, sweep_values_help) \
    X(SweepRun, sweep_run) \
    X(SweepProgress, sweep_progress) \
    X(SweepIntro, sweep_intro) \
    X(SweepPoint, sweep_point) \
    X(SweepStatus, sweep_status) \
    X(SweepFastest, sweep_fastest) \
    X(SweepUse, sweep_use) \
    X(SweepLeftOut, sweep_left_out) \
    X(SweepSummary, sweep_summary) \
    X(SweepCompileOnly, sweep_compile_only) \
    X(SweepGpuMs, sweep_gpu_ms) \
    X(MonitorTitle, monitor_title) \
    X(MonitorNoGpu, monitor_no_gpu) \
    X(MonitorUnavailable, monitor_unavailable) \
    X(MonitorWaiting, monitor_waiting) \
    X(MonitorMemory, monitor_memory) \
    X(MonitorUtil, monitor_util) \
    X(MonitorClock, monitor_clock) \
    X(MonitorTemp, monitor_temp) \
    X(MonitorPower, monitor_power) \
    X(MonitorSlowed, monitor_slowed) \
    X(MonitorAbout, monitor_about) \
    X(ResRoofline, res_roofline) \
    X(RoofIntro, roof_intro) \
    X(RoofNoMetrics, roof_no_metrics) \
    X(RoofNoGpu, roof_no_gpu) \
    X(RoofMemoryBound, roof_memory_bound) \
    X(RoofComputeBound, roof_compute_bound) \
    X(RoofThisRun, roof_this_run) \
    X(RoofCopy, roof_copy) \
    X(RoofPeak, roof_peak) \
    X(RoofSgemm, roof_sgemm) \
    X(RoofRun, roof_run) \
    X(BaselineShort, baseline_short) \
    X(BaselineShortCopy, baseline_short_copy) \
    X(BaselineLine, baseline_line) \
    X(BaselineLineCopy, baseline_line_copy) \
    X(BaselineNotRun, baseline_not_run) \
    X(BaselineCheckFailed, baseline_check_failed) \
    X(WSampledValues, w_sampled_values) \
    X(ViewSampled, view_sampled) \
    X(RunOnEmulator, run_on_emulator) \
    X(RunOnEmulatorTip, run_on_emulator_tip) \
    X(WorkerCommand, worker_command) \
    X(WorkerCommandHint, worker_command_hint) \
    X(WorkerCommandTip, worker_command_tip) \
    X(WorkerApply, worker_apply) \
    X(DevOnHost, dev_on_host) \
    X(ResEmulated, res_emulated) \
    X(WTimelineLane, w_timeline_lane) \
    X(WTimelineKernel, w_timeline_kernel) \
    X(WTimelineCopy, w_timeline_copy) \
    X(WTimelineStartDuration, w_timeline_start_duration) \
    X(WTimelineBytesRate, w_timeline_bytes_rate) \
    X(WTimelineGridBlock, w_timeline_grid_block) \
    X(WTimelineInGraph, w_timeline_in_graph) \
    X(WTimelinePageable, w_timeline_pageable) \
    X(WTimelinePageableShort, w_timeline_pageable_short) \
    X(WTimelinePastReturn, w_timeline_past_return) \
    X(WTimelineReturned, w_timeline_returned) \
    X(WTimelineNothing, w_timeline_nothing) \
    X(ResTimeline, res_timeline) \
    X(TimelineWallTimed, timeline_wall_timed) \
    X(TimelineWallOnce, timeline_wall_once) \
    X(TimelineKernels, timeline_kernels) \
    X(TimelineCopies, timeline_copies) \
    X(TimelineOverlap, timeline_overlap) \
    X(TimelineDevices, timeline_devices) \
    X(TimelineUnavailable, timeline_unavailable) \
    X(TimelineRanPast, timeline_ran_past) \
    X(TimelineDropped, timeline_dropped) \
    X(TargetLine, target_line) \
    X(TargetMet, target_met) \
    X(TargetNotMet, target_not_met) \
    X(TargetNotApplicable, target_not_applicable) \
    X(TargetWall, target_wall) \
    X(TargetCopies, target_copies) \
    X(TargetKernels, target_kernels) \
    X(LaunchHostStep, launch_host_step) \
    X(ResWallMedian, res_wall_median) \
    X(ResWallOnce, res_wall_once) \
    X(HistoryWallTime, history_wall_time) \
    X(RoofHostStep, roof_host_step) \
    X(SweepHostNoParams, sweep_host_no_params) \
    X(SweepWallMs, sweep_wall_ms) \
    X(TimelineNotTraced, timeline_not_traced) \
    X(ConfirmReset, confirm_reset) \
    X(SaveFailed, save_failed) \
    X(OnTheEmulator, on_the_emulator) \
    X(CheckAllCases, check_all_cases) \
    X(AllCasesSummary, all_cases_summary) \
    X(CasesPassed, cases_passed) \
    X(PhaseEmulate, phase_emulate) \
    X(LastRunLabel, last_run_label) \
    X(StoppedNoResult, stopped_no_result) \
    X(StoppedShowingLast, stopped_showing_last) \
    X(WhoGpu, who_gpu) \
    X(WhoEmulator, who_emulator) \
    X(WhoCpu, who_cpu) \
    X(WValuesDrawn, w_values_drawn) \
    X(WMismatchedPixels, w_mismatched_pixels) \
    X(WMismatchedCells, w_mismatched_cells) \
    X(WMismatchedCell, w_mismatched_cell) \
    X(YourWorkTab, your_work_tab) \
    X(KeepPoppedOut, keep_popped_out) \
    X(NotTrustedStatus, not_trusted_status) \
    X(TrustAgain, trust_again) \
    X(TrustTitle, trust_title) \
    X(Trust, trust) \
    X(DontTrust, dont_trust) \
    X(AccessAtomic, access_atomic) \
    X(AccessBackendHint, access_backend_hint) \
    X(AccessBank, access_bank) \
    X(AccessColLine, access_col_line) \
    X(AccessColOp, access_col_op) \
    X(AccessColRequests, access_col_requests) \
    X(AccessColSectors, access_col_sectors) \
    X(AccessColSpace, access_col_space) \
    X(AccessColWays, access_col_ways) \
    X(AccessCompileOnly, access_compile_only) \
    X(AccessGlobal, access_global) \
    X(AccessIntro, access_intro) \
    X(AccessLane, access_lane) \
    X(AccessLaunch, access_launch) \
    X(AccessLegendGlobalReads, access_legend_global_reads) \
    X(AccessLegendGlobalWrites, access_legend_global_writes) \
    X(AccessLegendIntro, access_legend_intro) \
    X(AccessLegendSharedReads, access_legend_shared_reads) \
    X(AccessLegendSharedWrites, access_legend_shared_writes) \
    X(AccessLoad, access_load) \
    X(AccessMarkGlobal, access_mark_global) \
    X(AccessMarkShared, access_mark_shared) \
    X(AccessMarkTitle, access_mark_title) \
    X(AccessMore, access_more) \
    X(AccessNext, access_next) \
    X(AccessNoRecord, access_no_record) \
    X(AccessNoThreads, access_no_threads) \
    X(AccessPasses, access_passes) \
    X(AccessPickRow, access_pick_row) \
    X(AccessPrev, access_prev) \
    X(AccessRequestOf, access_request_of) \
    X(AccessRequestWhere, access_request_where) \
    X(AccessRowsAreWarps, access_rows_are_warps) \
    X(AccessSector, access_sector) \
    X(AccessSectorsTouched, access_sectors_touched) \
    X(AccessShared, access_shared) \
    X(AccessStore, access_store) \
    X(AccessTableEmulator, access_table_emulator) \
    X(AccessTableNcu, access_table_ncu) \
    X(ProfileRun, profile_run) \
    X(ProfileRunTip, profile_run_tip) \
    X(ProfileNeedsGpu, profile_needs_gpu_tip) \
    X(AccessThread, access_thread) \
    X(AccessThreadGlobal, access_thread_global) \
    X(AccessThreadShared, access_thread_shared) \
    X(AccessThreadsTitle, access_threads_title) \
    X(AccessTouch, access_touch) \
    X(AccessByteOf, access_byte_of) \
    X(ResAccess, res_access)

enum class UiText {
#define WB_UI_TEXT_NAME(name, key) name,
    WB_UI_TEXTS(WB_UI_TEXT_NAME)
#undef WB_UI_TEXT_NAME
    Count_,
};

struct WidgetText;
// The widgets' words (widgets/widget_text.hpp) in `lang`.
WidgetText widget_text_in(const std::string& lang);

// The label in `lang` ("en", "zh" or "zh-Hant"; core/zh_hant.hpp); English for any other language. A few
// are printf formats (AndMoreDiagnostics: two %zu, listed and not). The
// pointer stays valid for the life of the program.
const char* tr(UiText id, const std::string& lang);

// The label's catalogue key ("ui.lessons"), for the tests.
std::string_view ui_text_key(UiText id);

// Every sentence of the catalogue in every language (Traditional Chinese too), concatenated: the font
// loader feeds it to the glyph range builder so no label ever renders as '?'.
std::string all_ui_text();

}  // namespace wb::app
