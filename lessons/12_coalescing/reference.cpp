// CPU reference for lesson 12_coalescing: the strided copy.
// View the first rows*stride elements of x as a matrix X of `rows` rows and
// `stride` columns, row-major (X[r][c] = x[r*stride + c]). y holds its
// transpose: y[c*rows + r] = X[r][c]. The last n - rows*stride elements
// (fewer than stride) are copied to the same index. Every element of x lands
// in y exactly once, for every n and stride. The lesson passes rows = n / stride.
//
// This is written from y's side (for each i, where does y[i] come from?),
// the other way round from the kernels, so the two check each other.
void strided_copy_ref(const int32_t* x, int32_t* y, int n, int stride, int rows)
{
    const long long full = static_cast<long long>(rows) * stride;
    #pragma omp parallel for schedule(static)
    for (int i = 0; i < n; ++i) {
        long long src = i;
        if (i < full) {
            const int c = i / rows;  // y[c*rows + r] = x[r*stride + c]
            const int r = i % rows;
            src = static_cast<long long>(r) * stride + c;
        }
        y[i] = x[src];
    }
}
