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
#include <sched.h>
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

// The child's report, in a page shared with it.
class SharedReport {
public:
    SharedReport() {
        void* p = ::mmap(nullptr, sizeof(ChildReport), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            throw Error(ErrorKind::Reference, std::string("cannot map a page for the CPU reference's report: ") +
                                                  std::strerror(errno));
        report_ = new (p) ChildReport{};
    }
    ~SharedReport() { ::munmap(report_, sizeof(ChildReport)); }
    SharedReport(const SharedReport&) = delete;
    SharedReport& operator=(const SharedReport&) = delete;
    ChildReport* get() const { return report_; }

private:
    ChildReport* report_ = nullptr;
};

// Every descriptor past stderr: the worker's protocol pipes, the driver's
// files. The reference needs none of them, and must not be able to write
// into the worker's answers or keep its pipes open after the worker is gone.
void close_inherited_descriptors() {
    if (::syscall(SYS_close_range, 3u, ~0u, 0u) == 0) return;
    const long max = std::min(::sysconf(_SC_OPEN_MAX), 65536L);
    for (long fd = 3; fd < max; ++fd) ::close(int(fd));
}

// A buffer the reference writes, and what it held before the call.
struct Written {
    std::byte* data = nullptr;
    std::size_t size = 0;
    bool zero = true;  // it held zeros (else `before` holds its bytes, for warm calls)
};

[[noreturn]] void child_main(const LoadedReference& reference, void** args, const ReferenceLimits& limits,
                             std::uint64_t address_space, ChildReport* report, const std::vector<HostBuffer>& buffers,
                             const std::vector<Written>& written) {
    close_inherited_descriptors();
    // A forked child maps the buffers without page-table entries, so its
    // first touch of every page faults. Touch them before the clock starts
    // (16M floats in three buffers are 49,000 faults, 30 ms on the H100
    // machine), which the reference's time must not include: inputs by a
    // read (they stay shared with the worker), the written ones by a write.
    const std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
    for (const auto& b : buffers)
        if (b.role == BufferRole::Input) {
            auto* bytes = static_cast<const volatile unsigned char*>(b.data());
            for (std::size_t off = 0; off < b.size_bytes(); off += page) (void)bytes[off];
        }
    for (const auto& w : written) {
        // One call maps them all (a fault per page costs far more in a VM);
        // a kernel without MADV_POPULATE_WRITE gets the loop.
        if (::madvise(w.data, w.size, MADV_POPULATE_WRITE) == 0) continue;
        auto* bytes = reinterpret_cast<volatile unsigned char*>(w.data);
        for (std::size_t off = 0; off < w.size; off += page) bytes[off] = bytes[off];
    }
    rlimit as{address_space, address_space};
    ::setrlimit(RLIMIT_AS, &as);
    const rlim_t cpu = rlim_t(std::max(1.0, std::ceil(limits.cpu_seconds)));
    rlimit cpu_limit{cpu, cpu + 1};  // SIGXCPU at the soft limit, SIGKILL a second later
    ::setrlimit(RLIMIT_CPU, &cpu_limit);
    rlimit no_core{0, 0};  // a crashing reference leaves no core file behind
    ::setrlimit(RLIMIT_CORE, &no_core);
    try {
        // Warm calls start from what the first call saw: zeros are written
        // again, other contents (an in-out buffer, a filled output) restored
        // from a copy. Only while that is cheap: past kWarmRestoreBytes the
        // restores would cost more than the calls, and a reference that
        // streams that much memory runs no faster warm (its pages were
        // touched above).
        std::size_t to_restore = 0;
        for (const auto& w : written) to_restore += w.size;
        const bool can_repeat = to_restore <= kWarmRestoreBytes;
        std::vector<std::vector<std::byte>> before(written.size());
        if (can_repeat)
            for (std::size_t i = 0; i < written.size(); ++i)
                if (!written[i].zero) before[i].assign(written[i].data, written[i].data + written[i].size);
        const double cold = reference.run(args);
        report->cold_seconds = cold;
        report->threads = thread_count();
        std::vector<double> warm;
        double spent = 0;
        while (can_repeat && cold < kWarmRunsUnder && static_cast<int>(warm.size()) < kWarmRuns && spent < kWarmBudget) {
            for (std::size_t i = 0; i < written.size(); ++i) {
                if (written[i].zero) std::memset(written[i].data, 0, written[i].size);
                else std::memcpy(written[i].data, before[i].data(), written[i].size);
            }
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
    // RLIMIT_CPU counts the CPU time of all the reference's threads (OpenMP
    // runs one per core it may use), so the deadline's seconds are given to
    // each of them: a 2 s deadline is 32 s of CPU time on 16 cores, and the
    // run's own wall-clock deadline still applies.
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    const int cores = ::sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? std::max(1, CPU_COUNT(&cpus)) : 1;
    limits.cpu_seconds = (timeout_s > 0 ? timeout_s : 30) * cores;
    return limits;
}

ReferenceTiming run_reference_isolated(const LoadedReference& reference, std::vector<HostBuffer>& buffers,
                                       const ReferenceArgs& args, const ReferenceLimits& limits) {
    // No buffer is copied for the child. Inputs it reads where they are (a
    // fork shares them; a stray write changes the child's copy of a page,
    // not the worker's). The buffers it writes get blocks of their own,
    // shared with it, and that is where the worker finds its outputs.
    std::vector<Written> written;
    for (auto& b : buffers) {
        if (b.role == BufferRole::Input) {
            if (b.bytes.mapping() == Bytes::Mapping::SharedWithChildren) b.bytes = b.bytes.copy(Bytes::Mapping::Private);
            continue;
        }
        if (!b.size_bytes()) continue;
        const bool zero = b.bytes.known_zero();
        b.bytes = b.bytes.copy(Bytes::Mapping::SharedWithChildren);
        written.push_back({b.bytes.mutable_data(), b.size_bytes(), zero});
    }
    SharedReport shared;
    ChildReport* report = shared.get();
    void** argv = args([&](const std::string& name) -> void* {
        for (auto& b : buffers)
            if (b.name == name)
                return b.role == BufferRole::Input ? const_cast<void*>(b.data()) : b.mutable_data();
        throw Error(ErrorKind::Internal, "the reference names no buffer '" + name + "'");
    });

    const std::uint64_t address_space = mapped_bytes() + limits.extra_address_space;
    std::fflush(nullptr);  // nothing buffered here is written twice by the child
    const pid_t pid = ::fork();
    if (pid < 0) throw Error(ErrorKind::Reference, std::string("cannot start the CPU reference: fork: ") + std::strerror(errno));
    if (pid == 0) child_main(reference, argv, limits, address_space, report, buffers, written);

    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    for (auto& b : buffers)
        if (b.role != BufferRole::Input) b.bytes.hide_from_later_children();
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && report->seconds >= 0)
        return ReferenceTiming{report->seconds, report->cold_seconds, report->warm_runs, report->threads};

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
