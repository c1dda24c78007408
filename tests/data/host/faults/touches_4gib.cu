// Asks for 1 TiB, then touches 4 GiB in 256 MiB pieces: under the worker's
// memory cap (the test sets 1 GiB) both fail, and run() returns without
// writing its output. Where either succeeds, it calls exit(42).
#include <cstdlib>
#include <cstring>
extern "C" int run(wb_host_ctx*)
{
    if (std::malloc(std::size_t(1) << 40)) std::exit(42);
    const std::size_t piece = std::size_t(256) << 20;
    for (int i = 0; i < 16; ++i) {
        void* p = std::malloc(piece);
        if (!p) return 0;
        std::memset(p, 1, piece);  // never freed: each piece adds to what the worker holds
    }
    std::exit(42);
}
