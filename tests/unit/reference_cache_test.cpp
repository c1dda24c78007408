// The CPU reference's outputs are kept between runs on the same inputs: an
// unchanged re-run, or an edit of the kernel alone, does not run the reference
// again; another case or param value does.
#include "lesson/loader.hpp"
#include "pipeline/run.hpp"

#include "scoped_cache_dir.hpp"

#include <gtest/gtest.h>

using ReferenceCache = DriverOffTest;

TEST_F(ReferenceCache, SameInputsKeepTheOutputsOtherInputsRunAgain) {
    auto loaded = wb::load_lesson(WB_SOURCE_DIR "/lessons/01_vector_add.json");
    ASSERT_TRUE(loaded.ok());
    auto lesson = std::make_shared<const wb::Lesson>(std::move(*loaded.lesson));
    auto backend = wb::make_local_backend();
    wb::RunRequest req;
    req.lesson = lesson;
    req.step = "1";
    req.test_case = "ragged";
    req.source = wb::SourceChoice::Solution;
    req.trusted = true;
    const wb::RunResult first = backend->run(req);
    ASSERT_EQ(first.status, wb::RunStatus::CompileOnly) << first.message;
    EXPECT_FALSE(first.cpu_from_cache);
    const wb::RunResult again = backend->run(req);
    EXPECT_TRUE(again.cpu_from_cache);
    EXPECT_EQ(again.cpu_ms, first.cpu_ms) << "the time is the one measured, not a new one";
    EXPECT_NE(wb::render(again.cpu_method(), "en").find("kept from an earlier run"), std::string::npos);
    // An edit of the kernel: the reference and its inputs are the same.
    req.source = wb::SourceChoice::Custom;
    req.custom_source = lesson->steps[0].solution.text + "\n// an edit\n";
    EXPECT_TRUE(backend->run(req).cpu_from_cache);
    // Another size: other inputs, so the reference runs.
    req.params["N"] = 999;
    EXPECT_FALSE(backend->run(req).cpu_from_cache);
    req.params.clear();
    req.test_case = "small";
    EXPECT_FALSE(backend->run(req).cpu_from_cache);
}
