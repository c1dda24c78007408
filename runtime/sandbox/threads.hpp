// runtime/sandbox/threads.hpp — the threads a call leaves running in this process.
//
// A host step's run() runs in the worker; a std::thread it starts and does
// not join goes on running after run() returns, and nothing can stop it
// safely (it may hold a lock, or be inside the CUDA runtime). So the worker
// counts them around the call: the threads that exist after it and did not
// before, named as the calling thread is. A new thread takes its creator's
// name (Linux's comm), and the CUDA driver names the threads it starts itself
// ("cuda-EvtHandlr", "cuda0000…"), so this leaves the driver's out; one that
// has not named itself yet is given `settle` to do so before it is counted.
#pragma once

#include <chrono>
#include <set>
#include <string>

namespace wb {

struct ThreadCensus {
    std::set<long> tids;      // this process's threads (/proc/self/task)
    std::string caller_name;  // the calling thread's name (/proc/thread-self/comm)
};

ThreadCensus take_thread_census();

// The threads running now that were not in `before` and are named as its
// caller was; when there are some, counted again after `settle`.
int threads_started_since(const ThreadCensus& before,
                          std::chrono::milliseconds settle = std::chrono::milliseconds(20));

}  // namespace wb
