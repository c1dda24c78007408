// tests/app/job_policy_test.cpp — which finished jobs make the app save the
// unsaved edit at once (ended_in_error, app/jobs.hpp), without a window: a
// run that went wrong does; a verdict on the kernel, a compile and a Stop do not.
#include "jobs.hpp"

#include <gtest/gtest.h>

namespace wb::app {
namespace {

JobOutcome run_outcome(RunStatus status) {
    JobOutcome o;
    o.id = 7;
    o.kind = JobKind::Run;
    o.result.status = status;
    return o;
}

TEST(JobPolicy, ARunThatWentWrongEndedInError) {
    for (RunStatus s : {RunStatus::CompileError, RunStatus::ReferenceError, RunStatus::Refused, RunStatus::CudaError,
                        RunStatus::InputError, RunStatus::TimedOut, RunStatus::Crashed, RunStatus::SanitizerErrors})
        EXPECT_TRUE(ended_in_error(run_outcome(s))) << run_status_name(s);
}

TEST(JobPolicy, AVerdictOnTheKernelOrAStopDidNot) {
    for (RunStatus s : {RunStatus::Passed, RunStatus::Mismatch, RunStatus::AccessLimit, RunStatus::CompileOnly, RunStatus::Stopped})
        EXPECT_FALSE(ended_in_error(run_outcome(s))) << run_status_name(s);
    JobOutcome stopped = run_outcome(RunStatus::Crashed);
    stopped.discarded = true;  // Stop pressed: the result is dropped, not a failure
    EXPECT_FALSE(ended_in_error(stopped));
}

TEST(JobPolicy, ACompileEndsInErrorOnlyWhenTheBackendFailed) {
    JobOutcome compile = run_outcome(RunStatus::CompileError);
    compile.kind = JobKind::Compile;
    EXPECT_FALSE(ended_in_error(compile));  // the student's typo is a result, not a failure
    compile.failure = "an exception escaped the backend";
    EXPECT_TRUE(ended_in_error(compile));
    JobOutcome device_report = run_outcome(RunStatus::InputError);
    device_report.id = 0;
    EXPECT_FALSE(ended_in_error(device_report));
}

}  // namespace
}  // namespace wb::app
