// runtime/reference/isolated.cpp — the CPU reference in a limited child process (isolated.hpp).
#include "reference/isolated.hpp"

#include "core/error.hpp"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace wb {

namespace {

// The child writes its result here, at the start of the shared mapping.
struct ChildReport {
    double seconds = -1;
    double cold_seconds = -1;
    int warm_runs = 0;
    int threads = 1;
};

// The process's thread count from /proc/self/status ("Threads:").
int thread_count() {
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) return 1;
    char line[256];
    int threads = 1;
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, "Threads:", 8) == 0) threads = std::atoi(line + 8);
    std::fclose(f);
    return threads;
}

constexpr std::size_t kAlign = 64;

std::size_t aligned(std::size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

// The address space this process maps now (/proc/self/statm, in pages).
std::uint64_t mapped_bytes() {
    unsigned long long pages = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%llu", &pages) != 1) pages = 0;
        std::fclose(f);
    }
    return std::uint64_t(pages) * std::uint64_t(::sysconf(_SC_PAGESIZE));
}

std::string mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// One anonymous shared mapping, unmapped on every path.
class SharedMapping {
public:
    explicit SharedMapping(std::size_t bytes) : bytes_(bytes) {
        void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            throw Error(ErrorKind::Reference, "cannot map " + mib(bytes) + " for the CPU reference's buffers: " +
                                                  std::strerror(errno));
        base_ = static_cast<unsigned char*>(p);
    }
    ~SharedMapping() { ::munmap(base_, bytes_); }
    SharedMapping(const SharedMapping&) = delete;
    SharedMapping& operator=(const SharedMapping&) = delete;
    unsigned char* data() const { return base_; }

private:
    unsigned char* base_ = nullptr;
    std::size_t bytes_ = 0;
};

// Every descriptor past stderr: the worker's protocol pipes, the driver's
// files. The reference needs none of them, and must not be able to write
// into the worker's answers or keep its pipes open after the worker is gone.
void close_inherited_descriptors() {
    if (::syscall(SYS_close_range, 3u, ~0u, 0u) == 0) return;
    const long max = std::min(::sysconf(_SC_OPEN_MAX), 65536L);
    for (long fd = 3; fd < max; ++fd) ::close(int(fd));
}

[[noreturn]] void child_main(const LoadedReference& reference, void** args, const ReferenceLimits& limits,
                             std::uint64_t address_space, ChildReport* report, const unsigned char* shared,
                             std::size_t shared_bytes) {
    close_inherited_descriptors();
    // A forked child maps the shared buffers without page-table entries, so
    // its first touch of every page faults. Touch them before the clock
    // starts: 16M floats in three buffers are 49,000 faults, 30 ms on the
    // H100 machine, which the reference's time must not include.
    const std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
    auto* bytes = const_cast<volatile unsigned char*>(shared);
    for (std::size_t off = 0; off < shared_bytes; off += page) bytes[off] = bytes[off];  // a write fault maps it writable
    rlimit as{address_space, address_space};
    ::setrlimit(RLIMIT_AS, &as);
    const rlim_t cpu = rlim_t(std::max(1.0, std::ceil(limits.cpu_seconds)));
    rlimit cpu_limit{cpu, cpu + 1};  // SIGXCPU at the soft limit, SIGKILL a second later
    ::setrlimit(RLIMIT_CPU, &cpu_limit);
    rlimit no_core{0, 0};  // a crashing reference leaves no core file behind
    ::setrlimit(RLIMIT_CORE, &no_core);
    try {
        // The inputs as given, to restore before each warm call (an in-out
        // buffer is changed by the call). Only when the copy is cheap.
        const bool can_repeat = shared_bytes <= (std::size_t(1) << 30);
        std::vector<unsigned char> inputs;
        if (can_repeat) inputs.assign(shared + aligned(sizeof(ChildReport)), shared + shared_bytes);
        const double cold = reference.run(args);
        report->cold_seconds = cold;
        report->threads = thread_count();
        std::vector<double> warm;
        double spent = 0;
        while (can_repeat && cold < kWarmRunsUnder && static_cast<int>(warm.size()) < kWarmRuns && spent < kWarmBudget) {
            std::memcpy(const_cast<unsigned char*>(shared) + aligned(sizeof(ChildReport)), inputs.data(), inputs.size());
            warm.push_back(reference.run(args));
            spent += warm.back();
        }
        std::sort(warm.begin(), warm.end());
        report->warm_runs = static_cast<int>(warm.size());
        report->seconds = warm.empty() ? cold : warm[warm.size() / 2];
    } catch (...) {
        std::fflush(nullptr);
        ::_exit(3);
    }
    std::fflush(nullptr);  // what the reference printed reaches the worker's output
    ::_exit(0);
}

}  // namespace

ReferenceLimits reference_limits(double timeout_s, std::uint64_t buffer_bytes) {
    ReferenceLimits limits;
    limits.extra_address_space = (4ull << 30) + 2 * buffer_bytes;
    if (const char* mb = std::getenv("WB_REFERENCE_MEMORY_MB"); mb && *mb) {
        char* end = nullptr;
        unsigned long long v = std::strtoull(mb, &end, 10);
        if (end && *end == '\0' && v > 0) limits.extra_address_space = std::uint64_t(v) << 20;
    }
    limits.cpu_seconds = timeout_s > 0 ? timeout_s : 30;
    return limits;
}

ReferenceTiming run_reference_isolated(const LoadedReference& reference, std::vector<HostBuffer>& buffers,
                                       const ReferenceArgs& args, const ReferenceLimits& limits) {
    std::size_t total = aligned(sizeof(ChildReport));
    std::vector<std::size_t> offsets;
    for (const auto& b : buffers) {
        offsets.push_back(total);
        total += aligned(std::max<std::size_t>(b.size_bytes(), 1));
    }
    SharedMapping shared(total);
    auto* report = new (shared.data()) ChildReport{};
    for (std::size_t i = 0; i < buffers.size(); ++i)
        if (buffers[i].size_bytes()) std::memcpy(shared.data() + offsets[i], buffers[i].data(), buffers[i].size_bytes());
    void** argv = args([&](const std::string& name) -> void* {
        for (std::size_t i = 0; i < buffers.size(); ++i)
            if (buffers[i].name == name) return shared.data() + offsets[i];
        throw Error(ErrorKind::Internal, "the reference names no buffer '" + name + "'");
    });

    const std::uint64_t address_space = mapped_bytes() + limits.extra_address_space;
    std::fflush(nullptr);  // nothing buffered here is written twice by the child
    const pid_t pid = ::fork();
    if (pid < 0) throw Error(ErrorKind::Reference, std::string("cannot start the CPU reference: fork: ") + std::strerror(errno));
    if (pid == 0) child_main(reference, argv, limits, address_space, report, shared.data(), total);

    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && report->seconds >= 0) {
        for (std::size_t i = 0; i < buffers.size(); ++i)
            if (buffers[i].role != BufferRole::Input && buffers[i].size_bytes())
                std::memcpy(buffers[i].data(), shared.data() + offsets[i], buffers[i].size_bytes());
        return ReferenceTiming{report->seconds, report->cold_seconds, report->warm_runs, report->threads};
    }

    const std::string memory = mib(limits.extra_address_space);
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        const char* name = strsignal(sig);
        const std::string what = "signal " + std::to_string(sig) + (name ? std::string(" (") + name + ")" : "");
        if (sig == SIGXCPU || sig == SIGKILL)
            throw Error(ErrorKind::Reference,
                        "the CPU reference used more than its " + std::to_string(long(std::ceil(limits.cpu_seconds))) +
                            " s of CPU time and was stopped (" + what + ")",
                        {}, "look for a loop in the reference that never ends, or give the case a longer timeout_s");
        if (sig == SIGABRT)
            throw Error(ErrorKind::Reference, "the CPU reference aborted (" + what + ")", {},
                        "an assert failed, an exception escaped, or it needed more than its " + memory +
                            " of memory (WB_REFERENCE_MEMORY_MB raises the budget)");
        throw Error(ErrorKind::Reference, "the CPU reference crashed (" + what + ")", {},
                    "check the reference's loops and indices: it read or wrote outside a buffer, or ran out of its " +
                        memory + " of memory");
    }
    throw Error(ErrorKind::Reference,
                "the CPU reference failed (its process exited with status " +
                    std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")",
                {}, "an exception escaped it, or it called exit()");
}

}  // namespace wb
