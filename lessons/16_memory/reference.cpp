// CPU reference for lesson 16_memory: z[i] = alpha * x[i] + y[i] (SAXPY).
// The GPU fuses the multiply and the add into one FMA, rounded once; this
// reference is built without contraction and rounds twice, so the two can
// differ in the last bit. The lesson's tolerance (1e-6 absolute and
// relative) covers that and nothing more.
void saxpy_ref(const float* x, const float* y, float* z, float alpha, int n)
{
    #pragma omp parallel for schedule(static)
    for (int i = 0; i < n; ++i) {
        z[i] = alpha * x[i] + y[i];
    }
}
