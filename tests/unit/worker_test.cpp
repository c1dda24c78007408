// tests/unit/worker_test.cpp — the worker process: results cross the pipe intact,
// and a CPU reference that crashes or hangs is reported and changes nothing else.
// (Kernel faults need a GPU: tests/gpu/fault_gpu_test.cpp.)
#include "core/error.hpp"
#include "core/fs.hpp"
#include "lesson/loader.hpp"
#include "measure/ceilings.hpp"
#include "pipeline/wire.hpp"
#include "pipeline/worker.hpp"
#include "scoped_cache_dir.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <dirent.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace wb;

namespace {

std::shared_ptr<const Lesson> load(const std::string& rel) {
    auto r = load_lesson(std::string(WB_SOURCE_DIR) + "/" + rel);
    EXPECT_TRUE(r.ok()) << (r.issues.empty() ? "" : r.issues[0].to_string());
    return r.ok() ? std::make_shared<const Lesson>(std::move(*r.lesson)) : nullptr;
}

// Test lessons live outside the shipped folder: the request says they are
// trusted, as a front end does after asking.
RunRequest request(std::shared_ptr<const Lesson> lesson) {
    RunRequest q;
    q.lesson = std::move(lesson);
    q.source = SourceChoice::Solution;
    q.trusted = true;
    return q;
}

bool alive(int pid) { return pid > 0 && kill(pid, 0) == 0; }

WorkerOptions fake_worker(const char* name) {
    WorkerOptions o;
    o.executable = std::string(WB_SOURCE_DIR) + "/tests/data/fake_workers/" + name;
    return o;
}

// The answer fake_workers/canned_result.py gives while this lives: `result`'s
// frame, in the cache folder, which a contained worker sees (its /tmp is its
// own), named by $WB_CANNED_FRAME.
struct CannedResult {
    explicit CannedResult(const RunResult& result) {
        const std::string path = (cache_dir() / "canned.frame").string();
        const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) return;
        ok = write_frame(fd, encode_result(result));
        close(fd);
        setenv("WB_CANNED_FRAME", path.c_str(), 1);
    }
    ~CannedResult() { unsetenv("WB_CANNED_FRAME"); }
    bool ok = false;
};

int open_fds() {
    int n = 0;
    if (DIR* d = opendir("/proc/self/fd")) {
        while (readdir(d)) ++n;
        closedir(d);
    }
    return n;
}

bool has_zombie_children() {
    int status;
    return waitpid(-1, &status, WNOHANG) > 0;
}

class Worker : public DriverOffTest {};

}  // namespace

TEST(Wire, ResultsCrossThePipeWithNaNsInfinitiesAndBuffersIntact) {
    RunResult r;
    r.status = RunStatus::Mismatch;
    r.message = "output 'c' differs";
    r.output = "printf from the kernel\n";
    r.params = {{"N", 1000}};
    r.cpu_ms = 1.5;
    CompareResult c;
    c.buffer = "c";
    c.max_abs_error = INFINITY;
    Mismatch m;
    m.index = {3, 4};
    m.got = std::nan("");
    m.want = -2.5;
    m.reason = MismatchReason::Unwritten;
    c.first.push_back(m);
    r.comparisons.push_back(c);
    HostBuffer b;
    b.name = "c";
    b.shape = {2, 3};
    b.type = DType::F32;
    b.role = BufferRole::Output;
    b.bytes = wb::Bytes(24, std::byte{7});
    r.gpu_outputs.push_back(b);
    r.compile.diagnostics.push_back({"kernel.cu", 4, 9, Severity::Warning, "unused", "177"});
    Timing t;
    t.samples_ms = {0.5, 0.25};
    t.median_ms = 0.375;
    r.gpu_time = t;

    Frame f = encode_result(r);
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    std::thread writer([&] { write_frame(fds[1], f); close(fds[1]); });
    Frame back;
    ASSERT_EQ(read_frame(fds[0], back, std::chrono::steady_clock::now() + std::chrono::seconds(10)), ReadStatus::Ok);
    writer.join();
    close(fds[0]);
    RunResult d = decode_result(back);
    EXPECT_EQ(d.status, RunStatus::Mismatch);
    EXPECT_EQ(d.output, r.output);
    EXPECT_EQ(d.params.at("N"), 1000);
    ASSERT_EQ(d.comparisons.size(), 1u);
    EXPECT_TRUE(std::isinf(d.comparisons[0].max_abs_error));
    EXPECT_TRUE(std::isnan(d.comparisons[0].first[0].got));
    EXPECT_EQ(d.comparisons[0].first[0].index, (std::vector<std::size_t>{3, 4}));
    EXPECT_EQ(d.comparisons[0].first[0].reason, MismatchReason::Unwritten);
    ASSERT_EQ(d.gpu_outputs.size(), 1u);
    EXPECT_EQ(d.gpu_outputs[0].bytes, b.bytes);
    EXPECT_EQ(d.gpu_outputs[0].shape, b.shape);
    EXPECT_EQ(d.compile.diagnostics[0].line, 4);
    ASSERT_TRUE(d.gpu_time);
    EXPECT_EQ(d.gpu_time->samples_ms, t.samples_ms);
}

// A large buffer crosses as a sample, and says what it is a sample of; a
// sample that does not fit its whole is refused, not drawn wrongly.
TEST(Wire, ASampledBufferCrossesWithItsWholeShape) {
    RunResult r;
    r.status = RunStatus::Passed;
    HostBuffer whole;
    whole.name = "c";
    whole.type = DType::F32;
    whole.role = BufferRole::Output;
    whole.shape = {3000, 2000};
    whole.bytes = wb::Bytes(whole.count() * 4);
    for (std::size_t i = 0; i < whole.count(); i += 997) whole.set(i, double(i));
    r.gpu_outputs.push_back(wb::sample_buffer(whole, 1000000));
    const HostBuffer& sent = r.gpu_outputs[0];
    ASSERT_TRUE(sent.sample_of);
    RunResult d = decode_result(encode_result(r));
    ASSERT_EQ(d.gpu_outputs.size(), 1u);
    const HostBuffer& got = d.gpu_outputs[0];
    ASSERT_TRUE(got.sample_of);
    EXPECT_EQ(*got.sample_of, *sent.sample_of);
    EXPECT_EQ(got.shape, sent.shape);
    EXPECT_EQ(got.full_count(), 6000000u);
    EXPECT_EQ(got.bytes, sent.bytes);

    Frame f = encode_result(r);
    f.json["gpu_outputs"][0]["sample_of"]["step"] = {2, 2};  // 1500 x 1000 cells, not the sample's shape
    EXPECT_THROW(decode_result(f), wb::Error);
}

TEST(Wire, AGarbledFrameIsReportedNotTrusted) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    const char junk[] = "this is not a frame at all, just bytes";
    ASSERT_EQ(write(fds[1], junk, sizeof junk), ssize_t(sizeof junk));
    close(fds[1]);
    Frame f;
    EXPECT_EQ(read_frame(fds[0], f, std::chrono::steady_clock::now() + std::chrono::seconds(5)), ReadStatus::Corrupt);
    close(fds[0]);
}

TEST_F(Worker, ARunThroughTheWorkerMatchesTheInProcessRun) {
    auto lesson = load("lessons/01_vector_add.json");
    ASSERT_TRUE(lesson);
    WorkerBackend worker;
    RunRequest q = request(lesson);
    q.test_case = "ragged";
    RunResult w = worker.run(q);
    RunResult l = make_local_backend()->run(q);
    EXPECT_EQ(w.status, RunStatus::CompileOnly) << w.message;
    EXPECT_EQ(w.status, l.status);
    EXPECT_EQ(w.message, l.message);
    EXPECT_EQ(w.launches[0].dims.grid, l.launches[0].dims.grid);
    ASSERT_EQ(w.cpu_outputs.size(), 1u);
    EXPECT_EQ(w.cpu_outputs[0].bytes, l.cpu_outputs[0].bytes);  // the reference's output came back whole
    EXPECT_EQ(worker.workers_started(), 1);
}

// The GUI's Resources, PTX and SASS views ask the worker, which compiles
// once more with ptxas's report; what comes back over the pipe is what the
// process made.
TEST_F(Worker, AnInspectionComesBackThroughTheWorker) {
    auto lesson = load("lessons/06_matmul.json");
    ASSERT_TRUE(lesson);
    WorkerBackend worker;
    RunRequest q = request(lesson);
    q.step = "3";
    q.source = SourceChoice::Solution;
    q.compile_only = true;
    q.reference = false;
    q.keep_buffers = false;
    q.inspect = true;
    q.arch = "sm_90";
    const RunResult w = worker.run(q);
    ASSERT_TRUE(w.compile.ok) << w.message;
    ASSERT_TRUE(w.inspection.has_value());
    const InspectionReport local = inspect_report(lesson->steps[2].solution, lesson->steps[2], "sm_90");
    EXPECT_EQ(w.inspection->arch, "sm_90");
    ASSERT_EQ(w.inspection->kernels.size(), local.kernels.size());
    EXPECT_EQ(w.inspection->kernels[0].entry, "matmul_tiled");
    EXPECT_EQ(w.inspection->kernels[0].registers, local.kernels[0].registers);
    EXPECT_EQ(w.inspection->kernels[0].shared_static, 2048);
    ASSERT_EQ(w.inspection->ptx.size(), local.ptx.size());
    for (std::size_t i = 0; i < local.ptx.size(); ++i) {
        EXPECT_EQ(w.inspection->ptx[i].text, local.ptx[i].text);
        EXPECT_EQ(w.inspection->ptx[i].source_line, local.ptx[i].source_line);
    }
    EXPECT_EQ(w.inspection->sass.empty(), !w.inspection->sass_unavailable.empty());
    // Without the flag, no second compile and no report.
    q.inspect = false;
    EXPECT_FALSE(worker.run(q).inspection.has_value());
}

TEST_F(Worker, ACrashingReferenceIsReportedAndTheWorkerCarriesOn) {
    auto crash = load("tests/data/lessons_fault/crash_reference.json");
    auto good = load("tests/data/lessons_good/minimal.json");
    ASSERT_TRUE(crash && good);
    WorkerBackend worker;
    RunResult r = worker.run(request(crash));
    EXPECT_EQ(r.status, RunStatus::ReferenceError) << r.message;
    EXPECT_NE(r.message.find("the CPU reference crashed"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("Segmentation fault"), std::string::npos) << r.message;
    RunResult next = worker.run(request(good));
    EXPECT_EQ(next.status, RunStatus::CompileOnly) << next.message;
    // The reference ran in a child of the worker: the worker, and on a GPU
    // machine its CUDA context, were never at risk.
    EXPECT_EQ(worker.workers_started(), 1);
}

TEST_F(Worker, AReferenceThatEatsMemoryIsStoppedAtItsBudget) {
    auto hog = load("tests/data/lessons_fault/hog_reference.json");
    auto good = load("tests/data/lessons_good/minimal.json");
    ASSERT_TRUE(hog && good);
    setenv("WB_REFERENCE_MEMORY_MB", "64", 1);  // read by the worker, which inherits it
    WorkerBackend worker;
    RunResult r = worker.run(request(hog));
    unsetenv("WB_REFERENCE_MEMORY_MB");
    EXPECT_EQ(r.status, RunStatus::ReferenceError) << r.message;
    EXPECT_NE(r.message.find("aborted"), std::string::npos) << r.message;
    EXPECT_NE(r.hint.find("64 MiB"), std::string::npos) << r.hint;
    EXPECT_EQ(worker.run(request(good)).status, RunStatus::CompileOnly);
    EXPECT_EQ(worker.workers_started(), 1);
}

TEST_F(Worker, AHangingReferenceTimesOutAtTheLessonsDeadline) {
    auto hang = load("tests/data/lessons_fault/hang_reference.json");
    auto good = load("tests/data/lessons_good/minimal.json");
    ASSERT_TRUE(hang && good);
    WorkerBackend worker;
    auto t0 = std::chrono::steady_clock::now();
    RunResult r = worker.run(request(hang));
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.status, RunStatus::TimedOut);
    EXPECT_NE(r.message.find("timed out after 3 s"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("CPU reference"), std::string::npos) << r.message;
    EXPECT_NE(r.hint.find("checks.timeout_s"), std::string::npos) << "the lesson set this deadline: " << r.hint;
    EXPECT_LT(s, 8.0);
    EXPECT_EQ(worker.run(request(good)).status, RunStatus::CompileOnly);
}

TEST_F(Worker, ATimeoutNamesTheDeadlineTheRequestSet) {
    auto hang = load("tests/data/lessons_fault/hang_reference.json");
    ASSERT_TRUE(hang);
    WorkerBackend worker;
    RunRequest q = request(hang);
    q.timeout_s = 1.5;
    RunResult r = worker.run(q);
    EXPECT_EQ(r.status, RunStatus::TimedOut);
    EXPECT_NE(r.message.find("timed out after 1.5 s"), std::string::npos) << r.message;
    EXPECT_NE(r.hint.find("the time limit given for this run"), std::string::npos) << r.hint;
    EXPECT_EQ(r.hint.find("checks.timeout_s"), std::string::npos) << "the lesson did not set this one: " << r.hint;
}

TEST_F(Worker, StopEndsARunAtOnce) {
    auto hang = load("tests/data/lessons_fault/hang_reference.json");
    ASSERT_TRUE(hang);
    WorkerBackend worker;
    RunRequest q = request(hang);
    q.timeout_s = 60;
    q.cancel_token = 7;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        worker.cancel(7);
    });
    auto t0 = std::chrono::steady_clock::now();
    RunResult r = worker.run(q);
    stopper.join();
    EXPECT_EQ(r.status, RunStatus::Stopped) << r.message;
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
}

TEST_F(Worker, TwentyCrashesInARowLeakNoProcessesOrFileDescriptors) {
    auto crash = load("tests/data/lessons_fault/crash_reference.json");
    auto good = load("tests/data/lessons_good/minimal.json");
    ASSERT_TRUE(crash && good);
    int fds_before = open_fds();
    {
        WorkerBackend worker;
        for (int i = 0; i < 20; ++i) {
            RunResult r = worker.run(request(i % 2 ? good : crash));
            EXPECT_EQ(r.status, i % 2 ? RunStatus::CompileOnly : RunStatus::ReferenceError) << i << ": " << r.message;
        }
    }
    EXPECT_EQ(open_fds(), fds_before);
    EXPECT_FALSE(has_zombie_children());
}

TEST_F(Worker, ARefusedLaunchIsAnsweredWithoutReplacingTheWorker) {
    auto lesson = load("lessons/01_vector_add.json");
    ASSERT_TRUE(lesson);
    WorkerBackend worker;
    RunRequest q = request(lesson);
    LaunchOverride ov;
    ov.block = std::array<long long, 3>{2048, 1, 1};
    q.launches.push_back(ov);
    RunResult r = worker.run(q);
    EXPECT_EQ(r.status, RunStatus::Refused) << r.message;
    EXPECT_NE(r.message.find("1024"), std::string::npos) << r.message;
    EXPECT_EQ(worker.run(request(lesson)).status, RunStatus::CompileOnly);
    EXPECT_EQ(worker.workers_started(), 1) << "a refusal must not cost a new worker";
}

// ---- issue 7: the supervisor survives whatever happens to its worker ------------

TEST_F(Worker, AnIdleWorkerKilledFromOutsideIsReplacedAndTheRequestSentOnce) {
    // The next request's write goes into a dead worker's pipe: that must not
    // raise SIGPIPE, which would end this process (status 141).
    auto good = load("tests/data/lessons_good/minimal.json");
    ASSERT_TRUE(good);
    WorkerBackend worker;
    ASSERT_EQ(worker.run(request(good)).status, RunStatus::CompileOnly);
    const int first = worker.worker_pid();
    ASSERT_TRUE(alive(first));
    ASSERT_EQ(kill(first, SIGKILL), 0);  // as the OOM killer would
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    RunResult r = worker.run(request(good));
    EXPECT_EQ(r.status, RunStatus::CompileOnly) << r.message;
    EXPECT_EQ(worker.workers_started(), 2);
    EXPECT_NE(worker.worker_pid(), first);
    EXPECT_TRUE(alive(worker.worker_pid()));
}

TEST_F(Worker, AWorkerKilledFromOutsideMidRunIsNotBlamedOnTheReference) {
    auto hang = load("tests/data/lessons_fault/hang_reference.json");
    ASSERT_TRUE(hang);
    WorkerBackend worker;
    RunRequest q = request(hang);
    q.timeout_s = 30;
    std::thread killer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // inside the hanging reference by then
        kill(worker.worker_pid(), SIGKILL);
    });
    RunResult r = worker.run(q);
    killer.join();
    EXPECT_EQ(r.status, RunStatus::Crashed) << r.message;
    EXPECT_NE(r.message.find("killed from outside"), std::string::npos) << r.message;
    EXPECT_EQ(r.hint.find("CPU reference crashed"), std::string::npos) << r.hint;
    EXPECT_NE(r.hint.find("out-of-memory killer"), std::string::npos) << r.hint;
}

TEST_F(Worker, CancelNamesItsRequestAndNeverKillsTheIdleWorker) {
    auto good = load("tests/data/lessons_good/minimal.json");
    ASSERT_TRUE(good);
    WorkerBackend worker;
    RunRequest q = request(good);
    q.cancel_token = 1;
    ASSERT_EQ(worker.run(q).status, RunStatus::CompileOnly);
    const int pid = worker.worker_pid();
    // A Stop that arrives after the answer: the warm worker stays.
    worker.cancel(1);
    worker.cancel_running();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_TRUE(alive(pid));
    // A Stop that arrives before its run starts stops that run, and only it.
    worker.cancel(2);
    q.cancel_token = 2;
    RunResult stopped = worker.run(q);
    EXPECT_EQ(stopped.status, RunStatus::Stopped) << stopped.message;
    q.cancel_token = 3;
    EXPECT_EQ(worker.run(q).status, RunStatus::CompileOnly);
    EXPECT_EQ(worker.worker_pid(), pid);
    EXPECT_EQ(worker.workers_started(), 1);
}

TEST_F(Worker, CancellingAnotherRequestLeavesTheRunningOneAlone) {
    auto hang = load("tests/data/lessons_fault/hang_reference.json");
    ASSERT_TRUE(hang);
    WorkerBackend worker;
    RunRequest q = request(hang);
    q.timeout_s = 2;
    q.cancel_token = 10;
    std::thread other([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        worker.cancel(11);
    });
    RunResult r = worker.run(q);
    other.join();
    EXPECT_EQ(r.status, RunStatus::TimedOut) << "cancel(11) must not stop request 10: " << r.message;
}

TEST_F(Worker, AFrameLargerThanTheRequestCouldProduceIsAProtocolError) {
    auto good = load("tests/data/lessons_good/minimal.json");
    ASSERT_TRUE(good);
    WorkerBackend worker(fake_worker("huge_frame.py"));
    auto t0 = std::chrono::steady_clock::now();
    RunResult r = worker.run(request(good));
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.status, RunStatus::Crashed) << r.message;
    EXPECT_NE(r.message.find("could not be read"), std::string::npos) << r.message;
    EXPECT_LT(s, 10.0) << "the supervisor waited for a worker that sleeps for 600 s";
    EXPECT_FALSE(has_zombie_children());
}

TEST_F(Worker, AWorkerStuckWritingBehindABadFrameIsKilledNotAwaited) {
    auto good = load("tests/data/lessons_good/minimal.json");
    ASSERT_TRUE(good);
    WorkerBackend worker(fake_worker("stuck_writer.py"));
    auto t0 = std::chrono::steady_clock::now();
    RunResult r = worker.run(request(good));
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.status, RunStatus::Crashed) << r.message;
    EXPECT_LT(s, 10.0);
    EXPECT_FALSE(has_zombie_children());
}

TEST_F(Worker, AResultThatDoesNotDecodeIsAnErrorResult) {
    auto good = load("tests/data/lessons_good/minimal.json");
    ASSERT_TRUE(good);
    WorkerBackend worker(fake_worker("bad_result.py"));
    RunResult r;
    ASSERT_NO_THROW(r = worker.run(request(good)));
    EXPECT_EQ(r.status, RunStatus::Crashed) << r.message;
    EXPECT_NE(r.message.find("malformed result"), std::string::npos) << r.message;
}

TEST_F(Worker, ARunUsesTheLessonTheFrontEndLoadedWhileTheFileIsHalfEdited) {
    // The app keeps the last version that loaded while an instructor's file is
    // broken; the worker must run that version, not re-read the file.
    char tmpl[] = "/tmp/wb-half-edited-XXXXXX";
    ASSERT_TRUE(mkdtemp(tmpl));
    const std::string dir = tmpl, file = dir + "/minimal.json";
    {
        auto src = load("tests/data/lessons_good/minimal.json");
        ASSERT_TRUE(src);
        FILE* f = fopen(file.c_str(), "w");
        ASSERT_TRUE(f);
        fputs(src->json_text.c_str(), f);
        fclose(f);
    }
    auto r0 = load_lesson(file);
    ASSERT_TRUE(r0.ok());
    auto lesson = std::make_shared<const Lesson>(std::move(*r0.lesson));
    {
        FILE* f = fopen(file.c_str(), "w");
        fputs("{\"format\": 2, \"id\": ", f);  // the editor saved half a file
        fclose(f);
    }
    WorkerBackend worker;
    RunResult r = worker.run(request(lesson));
    EXPECT_EQ(r.status, RunStatus::CompileOnly) << r.message;
    EXPECT_EQ(r.lesson_id, lesson->id);
    std::remove(file.c_str());
    rmdir(dir.c_str());
}

TEST_F(Worker, TheWorkerRefusesAnOutsideLessonTheRequestDoesNotTrust) {
    auto outside = load("tests/data/lessons_good/minimal.json");
    auto shipped = load("lessons/01_vector_add.json");
    ASSERT_TRUE(outside && shipped);
    WorkerBackend worker;
    RunRequest q = request(outside);
    q.trusted = false;
    RunResult r = worker.run(q);
    EXPECT_EQ(r.status, RunStatus::InputError) << r.message;
    EXPECT_NE(r.message.find("not one of the shipped lessons"), std::string::npos) << r.message;
    EXPECT_TRUE(r.reference.command.empty()) << "nothing may be built for an untrusted lesson";
    RunRequest s = request(shipped);
    s.trusted = false;  // shipped lessons need no word from the front end
    EXPECT_EQ(worker.run(s).status, RunStatus::CompileOnly);
}

TEST(Wire, AWriteToADeadReaderFailsWithoutSigpipe) {
    // SIGPIPE keeps its default action (end the process) in this test: the
    // write must fail with EPIPE and return false, and the process live on.
    std::signal(SIGPIPE, SIG_DFL);
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    close(fds[0]);
    Frame f;
    f.kind = FrameKind::Request;
    f.json = {{"info", true}};
    EXPECT_FALSE(write_frame(fds[1], f));
    close(fds[1]);
    sigset_t pending;
    sigpending(&pending);
    EXPECT_EQ(sigismember(&pending, SIGPIPE), 0) << "a SIGPIPE was left pending";
}

TEST(Wire, AHeaderOverTheReadersLimitIsCorrupt) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    Frame f;
    f.kind = FrameKind::Result;
    f.json = {{"x", 1}};
    f.blob.assign(4096, 'b');
    std::thread writer([&] { write_frame(fds[1], f); close(fds[1]); });
    Frame back;
    FrameLimits limits;
    limits.max_blob = 1024;
    EXPECT_EQ(read_frame(fds[0], back, std::chrono::steady_clock::now() + std::chrono::seconds(5), limits), ReadStatus::Corrupt);
    close(fds[0]);
    writer.join();
}

// A process the run started that left the worker's process group (setsid and
// a second fork) is gone when the run ends, and never keeps the supervisor
// waiting on the output pipe it still holds.
TEST_F(Worker, WhatARunLeavesRunningIsGoneWhenTheRunEnds) {
    auto lesson = load("tests/data/lessons_fault/escaping_reference.json");
    ASSERT_TRUE(lesson);
    const std::string file = ::testing::TempDir() + "wb-escape-" + std::to_string(getpid());
    std::remove(file.c_str());
    ::setenv("WB_TEST_ESCAPE_FILE", file.c_str(), 1);
    // Uncontained, as where bwrap cannot run: the subreaper alone ends the
    // leftover. (A contained worker's process namespace ends it too, but
    // there the file, in the test's /tmp, is out of the reference's reach.)
    ::setenv("WB_SANDBOX", "off", 1);
    int escaped = 0;
    {
        auto worker = std::make_unique<WorkerBackend>();
        const RunResult r = worker->run(request(lesson));
        EXPECT_EQ(r.status, RunStatus::CompileOnly) << r.message;
        FILE* f = std::fopen(file.c_str(), "r");
        ASSERT_NE(f, nullptr) << "the reference did not leave its process";
        ASSERT_EQ(std::fscanf(f, "%d", &escaped), 1);
        std::fclose(f);
        EXPECT_FALSE(alive(escaped)) << "pid " << escaped << " outlived the run";
        const auto t0 = std::chrono::steady_clock::now();
        worker.reset();  // stops the worker; nothing left holds its output open
        EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3));
    }
    ::unsetenv("WB_TEST_ESCAPE_FILE");
    ::unsetenv("WB_SANDBOX");
    if (alive(escaped)) ::kill(escaped, SIGKILL);  // only the process this test's run started
    std::remove(file.c_str());
}

// What a kernel prints comes back with its run, every time: the worker
// flushes it before it answers, and the supervisor waits until its reader
// has taken what is in the pipe before it reads the output (once, 1 in 4
// runs came back without it, and the late bytes were thrown away as printed
// between runs).
TEST_F(Worker, EveryRunsPrintedOutputComesBackWithIt) {
    auto lesson = load("lessons/01_vector_add.json");
    ASSERT_TRUE(lesson);
    WorkerBackend worker;
    RunRequest q = request(lesson);
    q.test_case = "ragged";
    q.executor = Executor::Cpu;
    q.source = SourceChoice::Custom;
    q.keep_buffers = false;
    q.timing = false;
    q.custom_origin = "printing.cu";
    q.custom_source =
        "extern \"C\" __global__ void vector_add(const float* a, const float* b, float* c, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) { c[i] = a[i] + b[i]; printf(\"line %03d of the kernel's output\\n\", i); }\n"
        "}\n";
    for (int run = 0; run < 20; ++run) {
        const RunResult r = worker.run(q);
        ASSERT_EQ(r.status, RunStatus::Passed) << r.message;
        for (int i = 0; i < int(r.params.at("N")); ++i) {
            char line[64];
            std::snprintf(line, sizeof line, "line %03d of the kernel's output\n", i);
            ASSERT_NE(r.output.find(line), std::string::npos) << "run " << run << " lost: " << line << "output:\n" << r.output;
        }
    }
    EXPECT_EQ(worker.workers_started(), 1);
}

// A result that lost the GPU context says the worker was replaced, in the
// student's language too: the supervisor adds it as a catalogue phrase, so
// the Chinese hint stays Chinese (it used to append English words, which made
// the whole hint English in every language).
TEST_F(Worker, TheHintAfterALostContextIsSaidInTheStudentsLanguage) {
    auto good = load("tests/data/lessons_good/minimal.json");
    ASSERT_TRUE(good);
    RunResult canned;
    canned.status = RunStatus::CudaError;
    canned.context_lost = true;
    canned.say({{"emu.trap", {}}});
    canned.say_hint({{"hint.trap", {}}});
    RunResult r;
    {
        const CannedResult answer(canned);
        ASSERT_TRUE(answer.ok);
        WorkerBackend worker(fake_worker("canned_result.py"));
        r = worker.run(request(good));
    }
    EXPECT_EQ(r.status, RunStatus::CudaError) << r.message;
    EXPECT_EQ(r.hint_in("en"), render({{"hint.trap", {}}}, "en") + "; the GPU process was replaced, so the next run starts clean");
    const std::string zh = r.hint_in("zh");
    EXPECT_EQ(zh, render({{"hint.trap", {}}}, "zh") + "；GPU 进程已经换成新的，下一次运行会从干净的状态开始");
}

// The same through a worker that prints 60 000 bytes and answers at once:
// the reader is then many reads behind when the answer arrives, and before
// the supervisor waited for it, the output came back short.
TEST_F(Worker, OutputPrintedJustBeforeTheAnswerIsAllThere) {
    auto good = load("tests/data/lessons_good/minimal.json");
    ASSERT_TRUE(good);
    RunResult canned;
    canned.status = RunStatus::Passed;
    const CannedResult answer(canned);
    ASSERT_TRUE(answer.ok);
    setenv("WB_CANNED_OUTPUT", "60000", 1);
    for (int run = 0; run < 10; ++run) {
        WorkerBackend worker(fake_worker("canned_result.py"));
        const RunResult r = worker.run(request(good));
        EXPECT_EQ(r.status, RunStatus::Passed) << r.message;
        EXPECT_EQ(r.output.size(), 60000u) << "run " << run;
    }
    unsetenv("WB_CANNED_OUTPUT");
}

// The GPU's ceilings a worker measured are kept in the cache by its
// supervisor: a contained worker reads the cache only, and without this every
// new worker measured them again.
TEST_F(Worker, TheCeilingsAResultBringsAreKeptForTheNextWorker) {
    auto good = load("tests/data/lessons_good/minimal.json");
    ASSERT_TRUE(good);
    RunResult canned;
    canned.status = RunStatus::Passed;
    DeviceInfo device;
    device.name = "NVIDIA H200";
    device.cc_major = 9;
    device.driver_version = 13000;
    canned.device = device;
    Ceilings c;
    c.device = device.name;
    c.arch = "sm_90";
    c.driver_version = 13000;
    c.copy_gbs = 3900;
    c.fp32_gflops = 60000;
    c.fp16_gflops = 240000;
    c.measured_at = "2026-11-28T14:00:00Z";
    canned.ceilings = c;
    ASSERT_FALSE(load_cached_ceilings(device).has_value());
    {
        const CannedResult answer(canned);
        ASSERT_TRUE(answer.ok);
        WorkerBackend worker(fake_worker("canned_result.py"));
        EXPECT_EQ(worker.run(request(good)).status, RunStatus::Passed);
    }
    const auto kept = load_cached_ceilings(device);
    ASSERT_TRUE(kept.has_value());
    EXPECT_EQ(*kept, c);
}
