// CPU reference for step 2 (saxpy, in place on y).
void saxpy_ref(uint32_t n, double a, const double* x, double* y, int32_t n_copy)
{
    for (uint32_t i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
