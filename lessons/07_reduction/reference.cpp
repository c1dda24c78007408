// CPU reference for lesson 07_reduction: the sum of x[0..n).
// The sum is accumulated in double and rounded to float once, so for the
// lesson's purposes it is exact; the tolerance covers the float rounding of
// the kernels. `sum` starts from the lesson's fill (0), like the kernel's
// copy, so the reference adds into it too.
void reduce_sum_ref(const float* x, float* sum, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; ++i) {
        s += x[i];
    }
    sum[0] += static_cast<float>(s);
}
