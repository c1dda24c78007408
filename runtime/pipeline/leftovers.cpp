// runtime/pipeline/leftovers.cpp — see leftovers.hpp.
#include "pipeline/leftovers.hpp"

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace wb {

namespace {

// This process's children, from /proc/self/task/*/children (every thread's).
std::set<pid_t> children() {
    std::set<pid_t> out;
    std::error_code ec;
    for (const auto& task : fs::directory_iterator("/proc/self/task", ec)) {
        std::ifstream in(task.path() / "children");
        for (long pid; in >> pid;) out.insert(pid_t(pid));
    }
    return out;
}

}  // namespace

bool become_subreaper() { return ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0; }

int end_leftover_children() {
    int killed = 0;
    // A killed child's own children are reparented here as it dies: go round
    // until none are left (bounded, in case something forks as fast as it dies).
    for (int round = 0; round < 100; ++round) {
        const std::set<pid_t> now = children();
        if (now.empty()) break;
        for (pid_t pid : now) {
            ::kill(pid, SIGKILL);
            int status = 0;
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
            ++killed;
        }
    }
    return killed;
}

}  // namespace wb
