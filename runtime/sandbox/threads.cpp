// runtime/sandbox/threads.cpp — counting the threads a call leaves running (threads.hpp).
#include "sandbox/threads.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <thread>

namespace fs = std::filesystem;

namespace wb {

namespace {

std::set<long> task_ids() {
    std::set<long> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc/self/task", ec)) {
        const std::string name = e.path().filename().string();
        if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0]))) out.insert(std::stol(name));
    }
    return out;
}

// "" when the thread is gone.
std::string comm_of(const fs::path& file) {
    std::ifstream in(file);
    std::string name;
    std::getline(in, name);
    return name;
}

int count_new(const ThreadCensus& before) {
    int n = 0;
    if (before.caller_name.empty()) return 0;  // no /proc to read
    for (long tid : task_ids()) {
        if (before.tids.count(tid)) continue;
        if (comm_of("/proc/self/task/" + std::to_string(tid) + "/comm") == before.caller_name) ++n;
    }
    return n;
}

}  // namespace

ThreadCensus take_thread_census() {
    ThreadCensus c;
    c.tids = task_ids();
    c.caller_name = comm_of("/proc/thread-self/comm");
    return c;
}

int threads_started_since(const ThreadCensus& before, std::chrono::milliseconds settle) {
    if (count_new(before) == 0) return 0;
    std::this_thread::sleep_for(settle);
    return count_new(before);
}

}  // namespace wb
