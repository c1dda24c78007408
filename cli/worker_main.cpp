// cli/worker_main.cpp — cuda-workbook-worker: runs lesson steps for a supervisor.
//
// Started by WorkerBackend (runtime/pipeline/worker.hpp) with requests on fd 3
// and results on fd 4; stdout and stderr (device printf, assert messages) go
// to the supervisor too. A contained worker's builds go to its builder, the
// same program with --builder (runtime/pipeline/builder.hpp), on fds 6 and 7.
// With --stdio it is the far end of a worker command (ssh, srun): requests on
// stdin, answers and output on stdout (runtime/pipeline/remote.hpp).
// Not meant to be run by hand.
#include "pipeline/builder.hpp"
#include "pipeline/remote.hpp"
#include "pipeline/worker.hpp"
#include "sandbox/sandbox.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>

int main(int argc, char** argv) {
    int ordinal = 0;
    bool builder = false, builder_fds = false, stdio = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--builder") == 0) builder = true;
        else if (std::strcmp(argv[i], "--stdio") == 0) stdio = true;
        else if (std::strcmp(argv[i], "--builder-fds") == 0) builder_fds = true;
        else
        if (std::strcmp(argv[i], "--ordinal") == 0 && i + 1 < argc) ordinal = std::atoi(argv[++i]);
        else if (std::strcmp(argv[i], "--cgroup-fd") == 0 && i + 1 < argc) {
            // The process cap (sandbox/sandbox.hpp): joined before anything else runs.
            const int fd = std::atoi(argv[++i]);
            if (fcntl(fd, F_GETFD) >= 0 && !wb::join_worker_cgroup(fd) && errno != EBADF)
                std::fprintf(stderr, "cuda-workbook-worker: could not join its process-capping cgroup: %s\n",
                             std::strerror(errno));
        }
        else if (std::strcmp(argv[i], "--help") == 0) {
            std::puts("cuda-workbook-worker: started by cuda-workbook and cuda-workbook-cli to run kernels in a\n"
                      "process of their own. Requests arrive on fd 3, results leave on fd 4.\n"
                      "With --stdio, a worker command's far end (ssh, srun): requests on stdin,\n"
                      "results and output on stdout; it ends when stdin closes. See docs/remote-worker.md.");
            return 0;
        }
    }
    if (stdio) return wb::stdio_worker_main(ordinal);
    if (fcntl(3, F_GETFD) < 0 || fcntl(4, F_GETFD) < 0) {
        std::fputs("cuda-workbook-worker: no request pipes (fd 3 and 4); it is started by cuda-workbook\n", stderr);
        return 2;
    }
    // The builder beside a contained worker (runtime/pipeline/builder.hpp): it only compiles.
    if (builder) return wb::builder_main(3, 4);
    // A contained worker's builds go to its builder, on fds 6 and 7.
    if (builder_fds) {
        if (fcntl(wb::kBuilderRequestFd, F_GETFD) < 0 || fcntl(wb::kBuilderAnswerFd, F_GETFD) < 0) {
            std::fputs("cuda-workbook-worker: --builder-fds without the builder's pipes (fd 6 and 7)\n", stderr);
            return 2;
        }
        ::fcntl(wb::kBuilderRequestFd, F_SETFD, FD_CLOEXEC);  // nothing the worker starts may talk to it
        ::fcntl(wb::kBuilderAnswerFd, F_SETFD, FD_CLOEXEC);
        wb::set_remote_builder(wb::make_pipe_builder(wb::kBuilderRequestFd, wb::kBuilderAnswerFd));
    }
    // Line-buffer stdout so device printf output reaches the supervisor promptly.
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    return wb::worker_main(3, 4, ordinal);
}
