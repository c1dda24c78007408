// tests/unit/reference_store_test.cpp — the CPU reference's outputs kept on
// disk for a grade's workers (pipeline/reference_store.hpp,
// grade/grade.hpp's prepare_references): an entry reads back whole, any
// damage or mismatch is a miss, and a fresh, contained worker reads what
// the grade's own process stored instead of running the reference again.
#include "cli_runner.hpp"
#include "core/disk_cache.hpp"
#include "core/fs.hpp"
#include "grade/grade.hpp"
#include "lesson/loader.hpp"
#include "pipeline/reference_store.hpp"
#include "pipeline/worker.hpp"
#include "scoped_cache_dir.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

namespace fs = std::filesystem;

namespace {

wb::HostBuffer buffer(const std::string& name, wb::BufferRole role, std::size_t n, float first) {
    wb::HostBuffer b;
    b.name = name;
    b.role = role;
    b.shape = {n};
    b.bytes = wb::Bytes(n * sizeof(float));
    auto* f = reinterpret_cast<float*>(b.bytes.mutable_data());
    for (std::size_t i = 0; i < n; ++i) f[i] = first + float(i);
    return b;
}

std::vector<fs::path> entries(const fs::path& dir) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".wbo") out.push_back(e.path());
    return out;
}

std::shared_ptr<const wb::Lesson> load01() {
    wb::LoadResult lr = wb::load_lesson(WB_SOURCE_DIR "/lessons/01_vector_add.json");
    EXPECT_TRUE(lr.ok());
    return std::make_shared<const wb::Lesson>(std::move(*lr.lesson));
}

void flip_last_byte(const fs::path& p) {
    std::string text = wb::read_file(p, 1u << 30);
    text.back() ^= 0x5a;
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

}  // namespace

using ReferenceStore = ScopedCacheDirTest;

TEST_F(ReferenceStore, AnEntryReadsBackOverTheInputsAndAnyDamageOrMismatchIsAMiss) {
    const fs::path dir = dir_ / "outputs";
    const std::vector<wb::HostBuffer> host = {buffer("a", wb::BufferRole::Input, 8, 1), buffer("c", wb::BufferRole::Output, 8, 0)};
    std::vector<wb::HostBuffer> out = host;
    out[1] = buffer("c", wb::BufferRole::Output, 8, 100);
    wb::ReferenceTiming t;
    t.seconds = 0.25;
    t.threads = 3;
    ASSERT_TRUE(wb::store_reference("key one", out, t, dir));
    ASSERT_EQ(entries(dir).size(), 1u);

    const auto got = wb::load_reference("key one", host, dir);
    ASSERT_TRUE(got);
    ASSERT_EQ(got->outputs.size(), 2u);
    EXPECT_TRUE(got->outputs[0].bytes.shares_block_with(host[0].bytes)) << "the reader's inputs are kept, not stored";
    EXPECT_EQ(got->outputs[1].bytes, out[1].bytes);
    EXPECT_DOUBLE_EQ(got->timing.seconds, 0.25);
    EXPECT_EQ(got->timing.threads, 3);

    EXPECT_FALSE(wb::load_reference("key two", host, dir)) << "another key has no entry";
    // The reader's buffers are not the stored ones: another size, another name.
    std::vector<wb::HostBuffer> bigger = {host[0], buffer("c", wb::BufferRole::Output, 9, 0)};
    EXPECT_FALSE(wb::load_reference("key one", bigger, dir));
    std::vector<wb::HostBuffer> renamed = {host[0], buffer("d", wb::BufferRole::Output, 8, 0)};
    EXPECT_FALSE(wb::load_reference("key one", renamed, dir));
    std::vector<wb::HostBuffer> more = {host[0], host[1], buffer("e", wb::BufferRole::Output, 8, 0)};
    EXPECT_FALSE(wb::load_reference("key one", more, dir)) << "an output the entry lacks";
    // A changed byte of the data: its digest no longer matches.
    flip_last_byte(entries(dir)[0]);
    EXPECT_FALSE(wb::load_reference("key one", host, dir));
    // A cut file, and one that is not an entry at all.
    ASSERT_TRUE(wb::store_reference("key one", out, t, dir));
    fs::resize_file(entries(dir)[0], 40);
    EXPECT_FALSE(wb::load_reference("key one", host, dir));
    std::ofstream(entries(dir)[0], std::ios::trunc) << "not an entry";
    EXPECT_FALSE(wb::load_reference("key one", host, dir));
}

TEST_F(ReferenceStore, OutputsOverTheCapAreNotStoredAndAnUnwritableFolderIsNoError) {
    const std::vector<wb::HostBuffer> huge = {
        buffer("c", wb::BufferRole::Output, std::size_t(wb::kStoredReferenceBytes / sizeof(float)) + 1, 0)};
    EXPECT_FALSE(wb::store_reference("huge", huge, {}, dir_ / "outputs"));
    EXPECT_TRUE(entries(dir_ / "outputs").empty());
    std::ofstream(dir_ / "a-file") << "x";  // the folder would have to be made under a file
    EXPECT_FALSE(wb::store_reference("k", {buffer("c", wb::BufferRole::Output, 4, 0)}, {}, dir_ / "a-file" / "outputs"));
}

using PreparedReferences = DriverOffTest;

// The grade's process runs each case's reference once and stores it; a fresh
// worker (contained, its cache folder read-only) reads it back instead of
// running the reference, and still judges the kernel against it.
TEST_F(PreparedReferences, AFreshWorkerReadsWhatTheGradeStoredAndADamagedEntryIsRunAgain) {
    const auto lesson = load01();
    const auto first = wb::prepare_references(lesson, true, "en");
    ASSERT_FALSE(first.empty());
    for (const auto& p : first) {
        EXPECT_TRUE(p.ok) << p.step_id << " " << p.case_name << ": " << p.message;
        EXPECT_FALSE(p.kept);
    }
    std::size_t emulated_cases = 0;
    for (const auto& s : lesson->steps) emulated_cases += wb::graded_cases(s, true).size();
    EXPECT_EQ(first.size(), emulated_cases);
    const fs::path store = wb::cache_folder(wb::CacheKind::Outputs).dir;
    EXPECT_EQ(entries(store).size(), first.size());
    for (const auto& p : wb::prepare_references(lesson, true, "en")) EXPECT_TRUE(p.kept) << p.case_name;

    wb::RunRequest req;
    req.lesson = lesson;
    req.step = "1";
    req.test_case = "ragged";
    req.source = wb::SourceChoice::Solution;
    req.executor = wb::Executor::Cpu;
    req.timing = false;
    req.keep_buffers = false;
    req.trusted = true;
    {
        wb::WorkerBackend worker;
        const wb::RunResult r = worker.run(req);
        EXPECT_EQ(r.status, wb::RunStatus::Passed) << r.message;
        EXPECT_TRUE(r.cpu_from_cache) << "the worker read the stored outputs";
    }
    for (const fs::path& e : entries(store)) flip_last_byte(e);
    {
        wb::WorkerBackend worker;
        const wb::RunResult r = worker.run(req);
        EXPECT_EQ(r.status, wb::RunStatus::Passed) << r.message;
        EXPECT_FALSE(r.cpu_from_cache) << "a damaged entry is not read: the worker runs the reference";
    }
}

TEST_F(PreparedReferences, AGradeStopsBeforeAnySubmissionWhenTheLessonsReferenceFailsAndNamesTheCase) {
    const fs::path d = dir_ / "class";
    fs::create_directories(d / "subs" / "ana");
    std::ofstream(d / "subs" / "ana" / "step1.cu") << "extern \"C\" __global__ void twice(const float* x, float* y, int n) {}\n";
    const CliResult r = run_cli("grade tests/data/lessons_fault/crash_reference.json '" + (d / "subs").string() + "' --out '" +
                                    (d / "out").string() + "' --backend cpu --trust --quiet",
                                "LANG=C XDG_CACHE_HOME='" + dir_.string() + "'");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_TRUE(contains(r.out, "step 1 (")) << r.out;
    EXPECT_TRUE(contains(r.out, "the lesson's CPU reference failed")) << r.out;
    EXPECT_TRUE(contains(r.out, "no submission was graded")) << r.out;
    EXPECT_FALSE(fs::exists(d / "out" / "ana" / "grade.json"));

    // lesson 01: made once, then kept for the next grade of the same lesson and seed.
    const std::string args = "grade lessons/01_vector_add.json '" + (d / "subs").string() + "' --out '" +
                             (d / "out01").string() + "' --backend cpu --quiet";
    const std::string env = "LANG=C XDG_CACHE_HOME='" + dir_.string() + "'";
    const CliResult a = run_cli(args, env);
    ASSERT_EQ(a.code, 0) << a.out;
    EXPECT_TRUE(contains(a.out, "made once for every submission")) << a.out;
    EXPECT_TRUE(contains(a.out, "(0 kept from an earlier grade)")) << a.out;
    const CliResult b = run_cli(args + " --restart", env);
    ASSERT_EQ(b.code, 0) << b.out;
    EXPECT_FALSE(contains(b.out, "(0 kept from an earlier grade)")) << b.out;
}
