// Starts a thread that is still running when run() returns (detached, so
// nothing joins it): the student's error, and the worker is replaced.
#include <chrono>
#include <thread>
extern "C" int run(wb_host_ctx* ctx)
{
    if (wb_param(ctx, "N") > 0) std::thread([] { std::this_thread::sleep_for(std::chrono::seconds(30)); }).detach();
    return 0;
}
