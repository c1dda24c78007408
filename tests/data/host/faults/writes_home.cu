// Writes $HOME/wb-host-step-wrote-here. A contained worker's $HOME is an
// empty read-only folder, so the write fails and run() returns without
// writing its output; where it succeeds, it calls exit(42).
#include <cstdio>
#include <cstdlib>
extern "C" int run(wb_host_ctx*)
{
    char path[4096];
    std::snprintf(path, sizeof path, "%s/wb-host-step-wrote-here", std::getenv("HOME"));
    FILE* f = std::fopen(path, "w");
    if (!f) return 0;
    std::fclose(f);
    std::exit(42);
}
