// Throws out of run() when N is positive (always, for the lesson's cases).
#include <stdexcept>
extern "C" int run(wb_host_ctx* ctx)
{
    if (wb_param(ctx, "N") > 0) throw std::runtime_error("the input file is missing");
    return 0;
}
