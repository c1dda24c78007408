// tests/unit/remote_worker_test.cpp — the worker at the far end of a worker
// command (runtime/pipeline/remote.hpp), with `cuda-workbook-worker --stdio`
// started through a plain local command in place of ssh: the same result as
// the local worker, a kernel's printf kept out of the frames, a deadline kept
// at the far end, Stop ending the far end through its stdin, and the lesson's
// files travelling with the request. tests/scripts/remote_worker_ssh_test.sh
// does it through a real sshd.
#include "core/error.hpp"
#include "lesson/loader.hpp"
#include "pipeline/remote.hpp"
#include "pipeline/wire.hpp"
#include "pipeline/worker.hpp"
#include "scoped_cache_dir.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

using namespace wb;
namespace fs = std::filesystem;

namespace {

const std::string kWorker = std::string(WB_BINARY_DIR) + "/cli/cuda-workbook-worker";

std::shared_ptr<const Lesson> load(const std::string& path) {
    auto r = load_lesson(path);
    EXPECT_TRUE(r.ok()) << (r.issues.empty() ? "" : r.issues[0].to_string());
    return r.ok() ? std::make_shared<const Lesson>(std::move(*r.lesson)) : nullptr;
}
std::shared_ptr<const Lesson> shipped(const std::string& rel) { return load(std::string(WB_SOURCE_DIR) + "/" + rel); }

RunRequest request(std::shared_ptr<const Lesson> lesson) {
    RunRequest q;
    q.lesson = std::move(lesson);
    q.source = SourceChoice::Solution;
    q.trusted = true;  // test lessons live outside the shipped folder
    return q;
}

WorkerOptions through(std::vector<std::string> command) {
    WorkerOptions o;
    o.command = std::move(command);
    return o;
}

struct TempDir {
    fs::path path;
    TempDir() {
        std::random_device rd;
        path = fs::temp_directory_path() / ("wb-remote-test-" + std::to_string(rd()));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

// The processes whose environment holds `mark` (WB_TEST_MARK=...), which
// everything the far end starts inherits.
std::vector<int> marked_processes(const std::string& mark) {
    std::vector<int> pids;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc", ec)) {
        const std::string name = e.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream env(e.path() / "environ", std::ios::binary);
        std::stringstream ss;
        ss << env.rdbuf();
        if (ss.str().find(mark) != std::string::npos) pids.push_back(std::stoi(name));
    }
    return pids;
}

class RemoteWorker : public DriverOffTest {};

}  // namespace

TEST(WorkerCommand, IsSplitAsAShellSplitsSimpleQuoting) {
    EXPECT_EQ(split_worker_command("ssh -p 2222 me@gpu cuda-workbook-worker --stdio"),
              (std::vector<std::string>{"ssh", "-p", "2222", "me@gpu", "cuda-workbook-worker", "--stdio"}));
    EXPECT_EQ(split_worker_command("  srun --gres=gpu:1 '/opt/my tools/w' \"a \\\"b\\\" c\" d\\ e  "),
              (std::vector<std::string>{"srun", "--gres=gpu:1", "/opt/my tools/w", "a \"b\" c", "d e"}));
    EXPECT_EQ(split_worker_command("x ''"), (std::vector<std::string>{"x", ""}));
    EXPECT_THROW(split_worker_command("ssh 'gpu"), Error);
    EXPECT_THROW(split_worker_command("   "), Error);
}

TEST_F(RemoteWorker, ALessonCaseGivesTheSameResultAsTheLocalWorker) {
    auto lesson = shipped("lessons/01_vector_add.json");
    ASSERT_TRUE(lesson);
    RunRequest q = request(lesson);
    q.step = "1";
    q.test_case = "ragged";
    q.executor = Executor::Cpu;
    q.trusted = false;  // a shipped lesson: the front end says so for the far end
    WorkerBackend remote(through({kWorker, "--stdio"}));
    WorkerBackend local;
    const RunResult r = remote.run(q);
    const RunResult l = local.run(q);
    ASSERT_EQ(r.status, RunStatus::Passed) << r.message;
    EXPECT_EQ(r.status, l.status);
    ASSERT_EQ(r.comparisons.size(), 1u);
    ASSERT_EQ(l.comparisons.size(), 1u);
    EXPECT_EQ(r.comparisons[0].count, l.comparisons[0].count);
    EXPECT_EQ(r.comparisons[0].mismatches, 0u);
    EXPECT_EQ(r.launches[0].dims.grid, l.launches[0].dims.grid);
    ASSERT_EQ(r.gpu_outputs.size(), 1u);
    ASSERT_EQ(l.gpu_outputs.size(), 1u);
    EXPECT_EQ(r.gpu_outputs[0].bytes, l.gpu_outputs[0].bytes);
    EXPECT_EQ(r.cpu_outputs[0].bytes, l.cpu_outputs[0].bytes);
    EXPECT_EQ(remote.where(), this_host_name());
    EXPECT_EQ(local.where(), "");
    EXPECT_TRUE(remote.info().devices.empty());  // the driver is off at the far end too (the environment travels)
    EXPECT_EQ(remote.workers_started(), 1);
}

// 3000 lines of printf, more than a pipe holds: every line comes back in the
// result's output, in order, and none of it broke a frame.
TEST_F(RemoteWorker, AKernelThatPrintsALotKeepsItsOutputOutOfTheFrames) {
    auto lesson = shipped("lessons/01_vector_add.json");
    ASSERT_TRUE(lesson);
    WorkerBackend remote(through({kWorker, "--stdio"}));
    RunRequest q = request(lesson);
    q.test_case = "ragged";
    q.params["N"] = 3000;
    q.executor = Executor::Cpu;
    q.source = SourceChoice::Custom;
    q.timing = false;
    q.custom_origin = "printing.cu";
    q.custom_source =
        "extern \"C\" __global__ void vector_add(const float* a, const float* b, float* c, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) { c[i] = a[i] + b[i]; printf(\"WBW1 line %04d of the kernel's output\\n\", i); }\n"
        "}\n";
    for (int run = 0; run < 3; ++run) {
        const RunResult r = remote.run(q);
        ASSERT_EQ(r.status, RunStatus::Passed) << r.message;
        ASSERT_EQ(r.gpu_outputs.size(), 1u);
        for (int i = 0; i < 3000; ++i) {
            char line[64];
            std::snprintf(line, sizeof line, "WBW1 line %04d of the kernel's output\n", i);
            ASSERT_NE(r.output.find(line), std::string::npos) << "run " << run << " lost: " << line;
        }
    }
    EXPECT_EQ(remote.workers_started(), 1);
}

// The far end keeps the request's deadline itself: its own supervisor times
// the run out and replaces its worker, and the connection stays.
TEST_F(RemoteWorker, AnEndlessKernelTimesOutAtTheFarEndWhichReplacesItsWorker) {
    TempDir tmp;
    auto lesson = shipped("lessons/01_vector_add.json");
    ASSERT_TRUE(lesson);
    WorkerBackend remote(through({kWorker, "--stdio"}));
    RunRequest q = request(lesson);
    q.test_case = "small";
    q.executor = Executor::Cpu;
    q.source = SourceChoice::Custom;
    q.custom_origin = "endless.cu";
    q.custom_source = "extern \"C\" __global__ void vector_add(const float* a, const float* b, float* c, int n)\n"
                      "{ volatile int spin = 1; while (spin) {} }\n";
    q.timeout_s = 4;  // the deadline covers the build too
    const auto t0 = std::chrono::steady_clock::now();
    const RunResult r = remote.run(q);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.status, RunStatus::TimedOut) << r.message;
    EXPECT_NE(r.message.find("timed out after 4 s while running kernel 'vector_add' on the CPU emulator"), std::string::npos)
        << r.message;
    EXPECT_LT(s, 15.0) << "the far end's deadline, not the link's slack, ended it";
    RunRequest good = request(lesson);
    good.executor = Executor::Cpu;
    EXPECT_EQ(remote.run(good).status, RunStatus::Passed);
    EXPECT_EQ(remote.workers_started(), 1);
}

// Stop kills the command's process group. `setsid -w` stands for ssh: the
// far end is in a session of its own, out of reach of that kill, and learns
// of it only as ssh's far end would: its stdin closes. It must then end, with
// everything it started.
TEST_F(RemoteWorker, StopClosesTheFarEndsStdinAndItEndsWithEverythingItStarted) {
    auto hang = load(std::string(WB_SOURCE_DIR) + "/tests/data/lessons_fault/hang_reference.json");
    ASSERT_TRUE(hang);
    const std::string mark = "WB_TEST_MARK=stop" + std::to_string(::getpid());
    auto remote = std::make_unique<WorkerBackend>(through({"setsid", "-w", "env", mark, kWorker, "--stdio"}));
    RunRequest q = request(hang);
    q.timeout_s = 60;
    q.cancel_token = 7;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(2500));
        remote->cancel(7);
    });
    const auto t0 = std::chrono::steady_clock::now();
    const RunResult r = remote->run(q);
    stopper.join();
    EXPECT_EQ(r.status, RunStatus::Stopped) << r.message;
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
    EXPECT_EQ(remote->workers_started(), 2) << "a fresh connection is up for the next run";
    // The stopped far end ends by itself; the fresh one ends when the backend
    // goes (its stdin closes the same way).
    remote.reset();
    std::vector<int> left;
    for (int i = 0; i < 100 && !(left = marked_processes(mark)).empty(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_TRUE(left.empty()) << left.size() << " processes of the far ends outlived their stdin";
}

// A login script that prints before the worker starts (a .bashrc echo) is
// output, not a broken frame.
TEST_F(RemoteWorker, WordsBeforeTheFirstFrameAreOutputNotAProtocolError) {
    auto lesson = shipped("lessons/01_vector_add.json");
    ASSERT_TRUE(lesson);
    WorkerBackend remote(through({"sh", "-c", "echo 'Welcome to WBW the GPU server'; exec \"$0\" --stdio", kWorker}));
    EXPECT_EQ(remote.info().has_gpu, false);
    RunRequest q = request(lesson);
    q.executor = Executor::Cpu;
    EXPECT_EQ(remote.run(q).status, RunStatus::Passed);
}

// A command that never speaks the protocol is a run that says why, with what it printed.
TEST_F(RemoteWorker, ACommandThatFailsSaysWhatItPrinted) {
    auto lesson = shipped("lessons/01_vector_add.json");
    ASSERT_TRUE(lesson);
    WorkerBackend remote(through({"sh", "-c", "echo 'ssh: connect to host gpu-server port 22: Connection refused' >&2; exit 255"}));
    RunRequest q = request(lesson);
    q.executor = Executor::Cpu;
    const RunResult r = remote.run(q);
    EXPECT_EQ(r.status, RunStatus::Crashed);
    EXPECT_NE(r.message.find("status 255"), std::string::npos) << r.message;
    EXPECT_NE(r.output.find("Connection refused"), std::string::npos) << r.output;
    EXPECT_NE(r.hint.find("worker command ended"), std::string::npos) << r.hint;
    const BackendInfo bi = remote.info();
    EXPECT_NE(bi.no_gpu_reason.find("Connection refused"), std::string::npos) << bi.no_gpu_reason;
}

// The far end has none of the front end's files: a lesson outside the
// shipped folder, with its sources beside it, runs there all the same, and
// changes to its files reach the far end on the next run.
TEST_F(RemoteWorker, TheLessonsFilesTravelWithTheRequest) {
    TempDir tmp;
    fs::copy(std::string(WB_SOURCE_DIR) + "/lessons/01_vector_add", tmp.path / "01_vector_add", fs::copy_options::recursive);
    fs::copy_file(std::string(WB_SOURCE_DIR) + "/lessons/01_vector_add.json", tmp.path / "01_vector_add.json");
    auto lesson = load((tmp.path / "01_vector_add.json").string());
    ASSERT_TRUE(lesson);
    // The far end sees none of tmp: its TMPDIR, where it writes the files, is elsewhere, and the front end's
    // folder is out of its sandbox's view (it was never asked to see it).
    WorkerBackend remote(through({kWorker, "--stdio"}));
    RunRequest q = request(lesson);
    q.executor = Executor::Cpu;
    EXPECT_EQ(remote.run(q).status, RunStatus::Passed);
    // The solution, edited here, fails there.
    std::ofstream(tmp.path / "01_vector_add" / "solution_step1.cu")
        << "extern \"C\" __global__ void vector_add(const float* a, const float* b, float* c, int n)\n"
           "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) c[i] = a[i] - b[i]; }\n";
    auto edited = load((tmp.path / "01_vector_add.json").string());
    ASSERT_TRUE(edited);
    RunRequest e = request(edited);
    e.executor = Executor::Cpu;
    EXPECT_EQ(remote.run(e).status, RunStatus::Mismatch);
    // Trust is still checked at the far end: not trusted, not run.
    e.trusted = false;
    const RunResult refused = remote.run(e);
    EXPECT_EQ(refused.status, RunStatus::InputError);
    EXPECT_NE(refused.message.find("refused"), std::string::npos) << refused.message;
}

TEST(RemoteFiles, AreSentOnceUntilTheyChangeAndUnpackUnderTheRoot) {
    TempDir tmp;
    auto lesson = shipped("lessons/01_vector_add.json");
    ASSERT_TRUE(lesson);
    RunRequest q = request(lesson);
    std::map<std::string, FileStamp> sent;
    Frame f = encode_request(q);
    attach_lesson_files(f, *lesson, sent);
    ASSERT_EQ(f.json["files"].size(), 6u) << f.json["files"].dump();  // the JSON, four kernels, the reference
    Frame again = encode_request(q);
    attach_lesson_files(again, *lesson, sent);
    EXPECT_TRUE(again.json["files"].empty()) << "sent already";
    unpack_lesson_files(f, tmp.path);
    const std::string file = f.json["lesson_file"];
    EXPECT_EQ(file.rfind(tmp.path.string(), 0), 0u) << file;
    auto there = load(file);
    ASSERT_TRUE(there);
    EXPECT_EQ(there->steps[0].solution.text, lesson->steps[0].solution.text);
    EXPECT_EQ(there->steps[1].starter.text, lesson->steps[1].starter.text);
    // A path that would leave the root is refused.
    Frame bad;
    bad.json = {{"lesson_file", "/x/l.json"}, {"files", {{{"path", "/x/../../etc/passwd"}, {"offset", 0}, {"bytes", 0}}}}};
    EXPECT_THROW(unpack_lesson_files(bad, tmp.path), Error);
    Frame outside;
    outside.json = {{"lesson_file", "/x/l.json"}, {"files", {{{"path", "/x/a"}, {"offset", 1}, {"bytes", 5}}}}};
    outside.blob = "abc";
    EXPECT_THROW(unpack_lesson_files(outside, tmp.path), Error);
}
