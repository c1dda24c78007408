// tests/unit/sandbox_test.cpp — containment of what a run does (runtime/sandbox/).
//
// An emulated kernel's host-only code (behind #ifndef __CUDACC_RTC__, which
// runs natively in the worker) tries one forbidden thing: a TCP connection to
// a port this test listens on, writing or reading a file in $HOME (a fresh
// folder with a planted file), mapping more memory than the worker's cap, or
// forking hundreds of processes. When the thing works, the kernel calls
// exit(42), so the run ends with "the kernel called exit(42)"; when it is
// refused, the kernel computes the right answer and the run passes. A CPU
// reference that reads $HOME is checked the same way. After each, the same
// worker runs the lesson's solution.
//
// Where bwrap cannot make its namespaces (an unprivileged container), each
// test says so on its output and asserts the other behaviour instead: the
// first result says once that runs are not contained, and they run as before
// (the kernel's attempt works). The memory cap holds either way.
#include "core/fs.hpp"
#include "lesson/loader.hpp"
#include "pipeline/worker.hpp"
#include "sandbox/sandbox.hpp"
#include "sandbox/threads.hpp"
#include "scoped_cache_dir.hpp"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <atomic>
#include <pthread.h>
#include <thread>
#include <fstream>
#include <iostream>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

// The kernel of lesson 01 with `attempt` (a function body that returns true
// when the forbidden thing worked) run by thread 0 first.
std::string kernel_trying(const std::string& includes, const std::string& attempt) {
    return "#ifndef __CUDACC_RTC__\n#include <cstdlib>\n" + includes +
           "static bool attempt()\n{\n" + attempt +
           "\n}\n#endif\n"
           "extern \"C\" __global__ void vector_add(const float* a, const float* b, float* c, int n)\n"
           "{\n"
           "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "#ifndef __CUDACC_RTC__\n"
           "    if (i == 0 && attempt()) std::exit(42);\n"
           "#endif\n"
           "    if (i < n) c[i] = a[i] + b[i];\n"
           "}\n";
}

class Sandbox : public ScopedCacheDirTest {
protected:
    void SetUp() override {
        ScopedCacheDirTest::SetUp();
        home_ = dir_ / "home";
        fs::create_directories(home_);
        std::ofstream(home_ / "secret.txt") << "planted by the test\n";
        if (const char* h = std::getenv("HOME")) old_home_ = h;
        setenv("HOME", home_.c_str(), 1);
        const wb::SandboxChoice c = wb::worker_sandbox({});
        contained_ = c.contained();
        if (!contained_)
            std::cout << "[ sandbox  ] not available here (" << wb::render(c.not_contained, "en")
                      << "); asserting that runs go on uncontained and say so once\n";
        auto r = wb::load_lesson(std::string(WB_SOURCE_DIR) + "/lessons/01_vector_add.json");
        ASSERT_TRUE(r.ok());
        lesson_ = std::make_shared<const wb::Lesson>(std::move(*r.lesson));
    }
    void TearDown() override {
        if (!old_home_.empty()) setenv("HOME", old_home_.c_str(), 1);
        unsetenv("WB_WORKER_MEMORY_MB");
        unsetenv("WB_WORKER_PROCESSES");
        unsetenv("WB_TEST_PORT");
        ScopedCacheDirTest::TearDown();
    }
    wb::RunRequest request(const std::string& source) const {
        wb::RunRequest q;
        q.lesson = lesson_;
        q.test_case = "ragged";
        q.executor = wb::Executor::Cpu;
        q.trusted = true;
        q.source = source.empty() ? wb::SourceChoice::Solution : wb::SourceChoice::Custom;
        q.custom_source = source;
        q.custom_origin = "attempt.cu";
        return q;
    }
    // Runs `source` in a fresh worker: refused when contained (the run
    // passes), done when not (the kernel exits with 42, and the first result
    // says why runs are not contained). Then the same worker runs on.
    // `holds_uncontained`: the refusal does not need bwrap; `refusable`: the
    // sandbox can refuse it here.
    void expect_refused(const std::string& what, const std::string& source, bool holds_uncontained = false,
                        bool refusable = true) {
        wb::WorkerBackend worker;
        const wb::RunResult r = worker.run(request(source));
        if ((contained_ && refusable) || holds_uncontained) {
            EXPECT_EQ(r.status, wb::RunStatus::Passed) << "the kernel could " << what << ": " << r.message;
        } else {
            EXPECT_EQ(r.status, wb::RunStatus::CudaError) << r.message;
            EXPECT_NE(r.message.find("the kernel called exit(42)"), std::string::npos) << r.message;
        }
        if (contained_) {
            EXPECT_TRUE(r.notice_said.empty()) << wb::render(r.notice_said, "en");
        } else {
            ASSERT_FALSE(r.notice_said.empty());
            EXPECT_EQ(r.notice_said[0].key, "sandbox.not_contained");
        }
        const wb::RunResult next = worker.run(request(""));
        EXPECT_EQ(next.status, wb::RunStatus::Passed) << next.message;
        EXPECT_TRUE(next.notice_said.empty()) << "said twice: " << wb::render(next.notice_said, "en");
        EXPECT_EQ(worker.workers_started(), 1);
    }

    fs::path home_;
    std::string old_home_;
    bool contained_ = false;
    std::shared_ptr<const wb::Lesson> lesson_;
};

TEST_F(Sandbox, AKernelCannotOpenATcpConnection) {
    // A port on this machine's loopback that accepts connections.
    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(listener, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    ASSERT_EQ(::listen(listener, 16), 0);
    socklen_t len = sizeof addr;
    ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
    setenv("WB_TEST_PORT", std::to_string(ntohs(addr.sin_port)).c_str(), 1);
    expect_refused("connect to 127.0.0.1",
                   kernel_trying("#include <arpa/inet.h>\n#include <netinet/in.h>\n#include <sys/socket.h>\n#include <unistd.h>\n",
                                 "    int s = socket(AF_INET, SOCK_STREAM, 0);\n"
                                 "    if (s < 0) return false;\n"
                                 "    sockaddr_in a{};\n"
                                 "    a.sin_family = AF_INET;\n"
                                 "    a.sin_port = htons(std::atoi(std::getenv(\"WB_TEST_PORT\")));\n"
                                 "    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);\n"
                                 "    bool ok = connect(s, (sockaddr*)&a, sizeof a) == 0;\n"
                                 "    close(s);\n"
                                 "    return ok;"));
    ::close(listener);
}

TEST_F(Sandbox, AKernelCannotWriteAFileInHome) {
    expect_refused("write in $HOME",
                   kernel_trying("#include <cstdio>\n",
                                 "    char f[4096];\n"
                                 "    std::snprintf(f, sizeof f, \"%s/written.txt\", std::getenv(\"HOME\"));\n"
                                 "    FILE* w = std::fopen(f, \"w\");\n"
                                 "    if (!w) return false;\n"
                                 "    bool ok = std::fputs(\"x\", w) >= 0;\n"
                                 "    return std::fclose(w) == 0 && ok;"));
    EXPECT_EQ(fs::exists(home_ / "written.txt"), !contained_);
}

TEST_F(Sandbox, AKernelCannotReadAFileInHome) {
    expect_refused("read $HOME/secret.txt",
                   kernel_trying("#include <cstdio>\n",
                                 "    char f[4096];\n"
                                 "    std::snprintf(f, sizeof f, \"%s/secret.txt\", std::getenv(\"HOME\"));\n"
                                 "    FILE* r = std::fopen(f, \"r\");\n"
                                 "    if (!r) return false;\n"
                                 "    char buf[64] = {};\n"
                                 "    bool ok = std::fgets(buf, sizeof buf, r) != nullptr;\n"
                                 "    std::fclose(r);\n"
                                 "    return ok;"));
}

// The memory cap is the worker's own (RLIMIT_DATA), with or without bwrap.
TEST_F(Sandbox, AKernelCannotMapMoreThanTheWorkersMemoryCap) {
    setenv("WB_WORKER_MEMORY_MB", "256", 1);  // read by the worker, which inherits it
    expect_refused("map 1 GiB past a 256 MiB cap",
                   kernel_trying("#include <cstring>\n#include <sys/mman.h>\n",
                                 "    const size_t n = size_t(1) << 30;\n"
                                 "    void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);\n"
                                 "    if (p == MAP_FAILED) return false;\n"
                                 "    std::memset(p, 1, n);\n"
                                 "    munmap(p, n);\n"
                                 "    return true;"),
                   /*holds_uncontained=*/true);
}

// The process cap: a pids cgroup of the worker's own where one can be made
// (root's processes too), else RLIMIT_NPROC in the sandbox's user namespace
// (which Linux does not apply to root). The kernel forks at most 300 children
// that wait (bounded, so a cap that fails cannot harm the machine) and says
// how many it made; capped at 64 tasks, the forks are refused part way, and
// the run fails as the student's, every time: the cap's sentence, not an
// internal error, and not a pass (the kernel shrugs the refusals off). The next run in the same backend
// passes, and the worker's cgroup is gone with the worker.
TEST_F(Sandbox, AForkBombInAKernelStopsAtTheProcessCapAndTheNextRunWorks) {
    setenv("WB_WORKER_PROCESSES", "64", 1);
    std::string no_cgroup;
    const bool cgroup = wb::WorkerCgroup::make(64, no_cgroup) != nullptr;
    const bool capped = cgroup || (contained_ && ::geteuid() != 0);
    if (!capped)
        std::cout << "[ sandbox  ] no process cap here (" << no_cgroup
                  << "): asserting that the forks end with the run instead\n";
    const std::string bomb = kernel_trying("#include <cstdio>\n#include <unistd.h>\n",
                                           "    int made = 0;\n"
                                           "    for (int k = 0; k < 300; ++k) {\n"
                                           "        pid_t p = fork();\n"
                                           "        if (p == 0) { pause(); _exit(0); }\n"
                                           "        if (p > 0) ++made;\n"
                                           "    }\n"
                                           "    std::printf(\"forked %d\\n\", made);\n"
                                           "    return made == 300;");
    std::vector<fs::path> cgroups_before;
    {
        wb::WorkerBackend worker;
        const wb::RunResult r = worker.run(request(bomb));
        if (capped) {
            EXPECT_EQ(r.status, wb::RunStatus::CudaError) << r.message;
            EXPECT_EQ(r.message, "the run reached its cap of 64 processes and threads, so a process or thread could "
                                 "not be started: what the code started (fork(), std::thread) was still running, or "
                                 "it starts too many");
            EXPECT_EQ(r.message_in("zh").rfind("运行达到了 64 个进程和线程的上限", 0), 0u) << r.message_in("zh");
            const auto at = r.output.find("forked ");
            ASSERT_NE(at, std::string::npos) << r.output;
            EXPECT_LT(std::atoi(r.output.c_str() + at + 7), 64) << r.output;
        } else {
            EXPECT_NE(r.message.find("the kernel called exit(42)"), std::string::npos) << r.message;
        }
        EXPECT_EQ(r.message.find("internal error"), std::string::npos) << r.message;
        const wb::RunResult next = worker.run(request(""));
        EXPECT_EQ(next.status, wb::RunStatus::Passed) << next.message;
    }
    // No worker cgroup of this process is left behind.
    if (cgroup) {
        std::error_code ec;
        const std::string mine = "cuda-workbook-" + std::to_string(::getpid()) + "-";
        for (const auto& e : fs::recursive_directory_iterator("/sys/fs/cgroup", fs::directory_options::skip_permission_denied, ec))
            if (e.is_directory(ec) && e.path().filename().string().rfind(mine, 0) == 0) ADD_FAILURE() << "left: " << e.path();
    }
}

// The cgroup itself: pids.max holds for whoever runs it, root included.
TEST(WorkerCgroup, CapsTheForksOfAProcessThatJoinedItAndIsRemovedWithWhatIsLeftInIt) {
    std::string why;
    auto g = wb::WorkerCgroup::make(8, why);
    if (!g) GTEST_SKIP() << "no pids cgroup can be made here: " << why;
    const fs::path dir = g->path();
    int ready[2];
    ASSERT_EQ(::pipe(ready), 0);
    const pid_t child = ::fork();
    if (child == 0) {
        if (!wb::join_worker_cgroup(g->join_fd())) _exit(2);
        int made = 0;
        for (int k = 0; k < 50; ++k) {
            const pid_t p = ::fork();
            if (p == 0) { ::pause(); _exit(0); }
            if (p > 0) ++made;
        }
        const char n = char(made);
        (void)!::write(ready[1], &n, 1);
        ::pause();
        _exit(0);
    }
    g->close_join_fd();
    ::close(ready[1]);
    char made = 0;
    ASSERT_EQ(::read(ready[0], &made, 1), 1);
    ::close(ready[0]);
    EXPECT_EQ(int(made), 7) << "8 tasks: the child and 7 of its forks";
    EXPECT_EQ(g->processes().size(), 8u);
    EXPECT_GE(wb::task_cap_refusals(), 0);  // this process joined no cgroup: 0
    g.reset();  // kills all eight and removes the cgroup
    EXPECT_FALSE(fs::exists(dir));
    int status = 0;
    EXPECT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

// /tmp is the run's scratch: a file a run leaves there is gone for the next
// one, while the cache folder bound into it (this test's is under /tmp) keeps
// what the first run built.
// The worker gets the cache read-only (sandbox/sandbox.hpp): a kernel cannot
// plant a file there, nor overwrite a library a later run would load. Its
// builds are made by its builder (pipeline/builder.hpp) and land in the cache.
TEST_F(Sandbox, AKernelCannotWriteIntoTheCacheWhoseLibrariesLaterRunsLoad) {
    const fs::path emulated = wb::cache_dir() / "emulated";
    setenv("WB_TEST_CACHE", emulated.c_str(), 1);
    const std::string plant =
        "    char f[4096];\n"
        "    std::snprintf(f, sizeof f, \"%s/planted.so\", std::getenv(\"WB_TEST_CACHE\"));\n"
        "    FILE* w = std::fopen(f, \"w\");\n"
        "    if (!w) return false;\n"
        "    bool ok = std::fputs(\"x\", w) >= 0;\n"
        "    return std::fclose(w) == 0 && ok;";
    expect_refused("write in the cache folder", kernel_trying("#include <cstdio>\n", plant));
    EXPECT_EQ(fs::exists(emulated / "planted.so"), !contained_);
    // Every library this run loaded was built (by the builder, when contained) into the cache.
    std::size_t libraries = 0;
    for (const auto& e : fs::directory_iterator(emulated)) libraries += e.path().extension() == ".so";
    EXPECT_GE(libraries, 2u) << "the checked and the plain kernel library";
    // Overwriting one of them, as a later run would load it, is refused too.
    const std::string overwrite =
        "    DIR* d = opendir(std::getenv(\"WB_TEST_CACHE\"));\n"
        "    if (!d) return false;\n"
        "    bool done = false;\n"
        "    while (dirent* e = readdir(d)) {\n"
        "        if (!std::strstr(e->d_name, \".so\")) continue;\n"
        "        int fd = openat(dirfd(d), e->d_name, O_WRONLY | O_APPEND);\n"
        "        if (fd >= 0) { done = true; close(fd); }\n"
        "    }\n"
        "    closedir(d);\n"
        "    return done;";
    expect_refused("open a cached library for writing",
                   kernel_trying("#include <cstring>\n#include <dirent.h>\n#include <fcntl.h>\n#include <unistd.h>\n", overwrite));
    unsetenv("WB_TEST_CACHE");
}

// The cache works as before behind the builder: a cold run builds every
// library once, and the next run of the same source finds all of them.
TEST_F(Sandbox, ASecondRunOfTheSameSourceComesFromTheCacheTheBuilderFilled) {
    wb::WorkerBackend worker;
    const wb::RunResult cold = worker.run(request(""));
    ASSERT_EQ(cold.status, wb::RunStatus::Passed) << cold.message;
    EXPECT_FALSE(cold.compile.from_cache);
    EXPECT_FALSE(cold.reference.from_cache);
    wb::WorkerBackend fresh;  // a new worker: its memory holds nothing, so hits come from the disk
    const wb::RunResult warm = fresh.run(request(""));
    ASSERT_EQ(warm.status, wb::RunStatus::Passed) << warm.message;
    EXPECT_TRUE(warm.compile.from_cache);
    EXPECT_EQ(warm.compile.cache_source, "disk");
    EXPECT_TRUE(warm.reference.from_cache);
}

TEST_F(Sandbox, TheScratchIsEmptiedAfterARunAndTheCacheInsideItIsKept) {
    if (!contained_) GTEST_SKIP() << "no sandbox here: /tmp is the machine's";
    wb::WorkerBackend worker;
    const wb::RunResult leave = worker.run(request(kernel_trying("#include <cstdio>\n",
        "    if (FILE* f = std::fopen(\"/tmp/left-by-a-run\", \"w\")) std::fclose(f);\n"
        "    return false;")));
    EXPECT_EQ(leave.status, wb::RunStatus::Passed) << leave.message;
    const wb::RunResult look = worker.run(request(kernel_trying("#include <unistd.h>\n",
        "    return access(\"/tmp/left-by-a-run\", F_OK) == 0;")));
    EXPECT_EQ(look.status, wb::RunStatus::Passed) << "the last run's file is still in /tmp: " << look.message;
    EXPECT_TRUE(look.reference.from_cache) << "the cache under /tmp lost the reference built by the first run";
    EXPECT_FALSE(fs::is_empty(dir_)) << dir_;
}

// A CPU reference runs in a child of the worker, inside the same sandbox.
TEST_F(Sandbox, AReferenceCannotReadAFileInHome) {
    auto r = wb::load_lesson(std::string(WB_SOURCE_DIR) + "/tests/data/lessons_fault/home_reference.json");
    ASSERT_TRUE(r.ok());
    wb::RunRequest q;
    q.lesson = std::make_shared<const wb::Lesson>(std::move(*r.lesson));
    q.executor = wb::Executor::Cpu;
    q.trusted = true;
    q.source = wb::SourceChoice::Solution;
    wb::WorkerBackend worker;
    const wb::RunResult res = worker.run(q);
    if (contained_) {
        EXPECT_EQ(res.status, wb::RunStatus::Passed) << "the reference could read $HOME/secret.txt: " << res.message;
    } else {
        EXPECT_EQ(res.status, wb::RunStatus::ReferenceError) << res.message;
        EXPECT_FALSE(res.notice_said.empty());
    }
}

// Without bwrap (here: a bwrap that always fails, as in a container without
// user namespaces) runs work as before, and the first result says why, once.
TEST_F(Sandbox, WithoutNamespacesRunsGoOnAndTheFirstResultSaysSoOnce) {
    setenv("WB_BWRAP", "/bin/false", 1);
    const char* off = std::getenv("WB_SANDBOX");  // the run's switch would name itself instead
    const std::string saved = off ? off : "";
    unsetenv("WB_SANDBOX");
    wb::WorkerBackend worker;
    const wb::RunResult r = worker.run(request(""));
    const wb::RunResult again = worker.run(request(""));
    unsetenv("WB_BWRAP");
    if (!saved.empty()) setenv("WB_SANDBOX", saved.c_str(), 1);
    EXPECT_EQ(r.status, wb::RunStatus::Passed) << r.message;
    EXPECT_EQ(again.status, wb::RunStatus::Passed) << again.message;
    ASSERT_FALSE(r.notice_said.empty());
    EXPECT_EQ(wb::render(r.notice_said, "en").rfind("runs are not contained (bwrap cannot make its namespaces here: ", 0), 0u)
        << wb::render(r.notice_said, "en");
    EXPECT_EQ(wb::render(r.notice_said, "zh").rfind("运行没有被隔离（bwrap 在这里无法创建命名空间：", 0), 0u);
    EXPECT_TRUE(again.notice_said.empty());
}

}  // namespace

namespace {

// A host step's run() that returns with threads it started still running is
// the student's error (host/host_step.cpp counts them; the run itself needs a
// GPU: HostSteps.AThreadLeftRunningByRunIsTheStudentsErrorAndTheWorkerIsReplaced
// in tests/gpu). Here, the counting: a std::thread started and not joined
// counts, one the CUDA driver would have named itself does not, nor one that
// was joined, nor the threads that were there before.
TEST(ThreadCensus, CountsTheThreadsACallLeftRunningNamedAsItsCallerWas) {
    std::atomic<bool> stop{false};
    std::thread before([&] { while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(1)); });
    const wb::ThreadCensus census = wb::take_thread_census();
    EXPECT_EQ(wb::threads_started_since(census), 0);
    std::thread joined([] {});
    joined.join();
    EXPECT_EQ(wb::threads_started_since(census), 0);
    std::thread left([&] { while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(1)); });
    std::thread drivers([&] {
        pthread_setname_np(pthread_self(), "cuda-EvtHandlr");
        while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    EXPECT_EQ(wb::threads_started_since(census), 1);
    stop = true;
    for (auto* t : {&before, &left, &drivers}) t->join();
    EXPECT_EQ(wb::threads_started_since(census), 0);
}

}  // namespace
