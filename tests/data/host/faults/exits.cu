// Calls exit(3) from run().
#include <cstdlib>
extern "C" int run(wb_host_ctx*)
{
    std::exit(3);
}
