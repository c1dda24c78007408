// CPU reference for lesson 01_vector_add: c[i] = a[i] + b[i].
// One float addition per element, the same operation the GPU does, so the
// results are bit-identical.
void vector_add_ref(const float* a, const float* b, float* c, int n)
{
    #pragma omp parallel for schedule(static)  // every core (built with -fopenmp)
    for (int i = 0; i < n; ++i) {
        c[i] = a[i] + b[i];
    }
}
