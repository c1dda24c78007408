// runtime/host/host_step.hpp — a host step's library, loaded in the worker and called.
//
// The library (host_build.hpp) is dlopen'ed; its run() gets a wb_host_ctx
// (host/include/wb_host.h) over the run's host buffers and params. Around
// the call the runtime makes the lesson's GPU current, clears any earlier
// runtime error, and afterwards waits for every GPU run() used and asks the
// CUDA runtime for an error run() left unchecked. With a tracer, CUPTI
// records what ran (cupti.hpp).
#pragma once
#include "host/host_build.hpp"

#include "data/buffers.hpp"
#include "core/phrase.hpp"
#include "host/cupti.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wb {

// An exception that left run(): its type as C++ spells it
// ("std::runtime_error", demangled) and its what() when it is a std::exception.
struct HostThrown {
    std::string type;
    std::optional<std::string> what;
};

// Inside a catch block: the exception being handled, described.
HostThrown describe_current_exception();

// "run() threw std::runtime_error: <what()>", or "run() threw int".
Phrase thrown_phrase(const HostThrown& t);

struct HostCall {
    int code = 0;                 // run()'s return value
    std::optional<HostThrown> threw;  // run() did not return: an exception left it
    std::string error;            // what run() left in ctx->error (WB_CHECK's message)
    double wall_ms = 0;           // call to return
    // A CUDA runtime error pending after run() returned (a launch it did not
    // check, a kernel that faulted), as "cudaErrorIllegalAddress: an illegal memory access was encountered".
    std::string cuda_error;
    bool sticky = false;          // that error ruined the CUDA context (the worker must be replaced)
    int threads_left = 0;         // threads run() started that still ran when it returned (sandbox/threads.hpp)
    std::optional<Trace> trace;   // with a tracer
};

class LoadedHostStep {
public:
    // Loads the build's library and, for a split build, its kernels' cubin
    // (wb_load_kernels_). Throws wb::Error (Compile) when the library does not
    // load or has no run(), and (Cuda) when the kernels do not load.
    explicit LoadedHostStep(const HostStepBuild& build);
    ~LoadedHostStep();
    LoadedHostStep(const LoadedHostStep&) = delete;
    LoadedHostStep& operator=(const LoadedHostStep&) = delete;

    // Calls run() over `buffers` (their host memory, as they are) and `params`,
    // with `device` current. `tracer` may be null (no timeline, no leak check).
    HostCall call(std::vector<HostBuffer>& buffers, const std::map<std::string, double>& params, int device,
                  ActivityTracer* tracer) const;

    int device_count() const;  // the CUDA runtime's visible GPUs

private:
    void* handle_ = nullptr;
    int (*run_)(void*) = nullptr;
    struct Cudart;
    Cudart* rt_ = nullptr;
};

}  // namespace wb
