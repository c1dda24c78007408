// Line 4 names a variable that does not exist; line 7 calls a function nobody defined.
extern "C" int run(wb_host_ctx* ctx)
{
    int n = wb_param_int(ctx, "N") + missing_variable;
    return 0;
}
