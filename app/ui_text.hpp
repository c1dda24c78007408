// app/ui_text.hpp — the interface's own words in English and Chinese.
//
// Lesson text comes from the lessons (LocalizedText); this table holds only
// the app's labels. Keeping them in one place lets the font loader add every
// character they use to the glyph atlas, and makes a third language one column.
#pragma once

#include <string>

namespace wb::app {

enum class UiText {
    Lessons,
    Language,
    English,
    Chinese,
    Step,
    Instructions,
    StarterCode,
    LessonFailedToLoad,
    NoLessons,
    NoSteps,
    LessonsFolder,
    LessonCount,
    WithProblems,
    ReadOnlyForNow,
    View,
    Run,
    Stop,
    ResetToStarter,
    ShowSolution,
    CompareWithSolution,
    CheckMemory,
    CheckRaces,
    OpenExternal,
    ConfirmSolution,
    Yes,
    Cancel,
    Diagnostics,
    Log,
    Launch,
    Block,
    Grid,
    SharedBytes,
    TimeoutSeconds,
    AutomaticGrid,
    Params,
    TestCase,
    Threads,
    Blocks,
    WarpsPerBlock,
    Results,
    NoRunYet,
    Device,
    CompileOnly,
    Theme,
    Dark,
    Light,
    Compiling,
    Running,
    Saved,
    Unsaved,
    Done,
    NoDiagnostics,
    OnlyYours,
    OnlyInSolution,
    Close,
    Buffers,
    Waiting,
    AndMoreDiagnostics,
    LessonFileHasErrors,
    LessonIssuesMore,
    AllLaunches,
    TunedLaunch,
    Passes,
    HideLessons,
    ShowLessons,
    PhaseStarting,
    PhaseCompile,
    PhaseReference,
    PhaseGpu,
    PhaseTiming,
    Help,
    KeyRun,
    KeySave,
    KeyFind,
    KeyNextDiagnostic,
    KeyLessonList,
    ResOk,
    ResWrong,
    ResErrors,
    ResMismatched,
    ResGpuMedian,
    ResNearResolution,
    ResGpuNotRunCompileOnly,
    ResCpuReference,
    ResSpeedUp,
    ResGpuNotRun,
    ResCase,
    ResCheck,
    ResTimings,
    ResGpuFaster,
    ResGot,
    Count_,
};

// The label in `lang` ("en" or "zh"); English for any other language. A few
// are printf formats (AndMoreDiagnostics: two %zu, listed and not).
const char* tr(UiText id, const std::string& lang);

// Every string of the table, concatenated: the font loader feeds it to the
// glyph range builder so no label ever renders as '?'.
std::string all_ui_text();

}  // namespace wb::app
