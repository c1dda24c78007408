// CPU reference for lesson 10_scan: the inclusive prefix sum (scan) of x,
// y[i] = x[0] + x[1] + ... + x[i]. Every step of the lesson compares its y
// with this, exactly (the values are integers 0..9, so there is no rounding
// and the order of the additions cannot matter).
//
// One loop, one addition per element: each y[i] needs y[i - 1], so the loop
// does not split among cores the way an elementwise loop does. It is still
// one pass over memory, well under a second at 2^25 elements. The largest sum,
// 9 * 2^25 = 301 989 888, fits an int32 with room to spare.
void scan_ref(const int32_t* x, int32_t* y, int32_t n)
{
    int32_t running = 0;
    for (int32_t i = 0; i < n; ++i) {
        running += x[i];
        y[i] = running;
    }
}
