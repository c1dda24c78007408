// Declares a function and never defines it: the linker says so.
void helper(float* p);

extern "C" int run(wb_host_ctx* ctx)
{
    helper(nullptr);
    return 0;
}
