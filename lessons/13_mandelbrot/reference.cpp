// CPU reference for lesson 13_mandelbrot: the escape time of every pixel.
//
// The iteration count near the edge of the set is chaotic: a one-bit
// difference in z can change it by hundreds. So the kernel and this reference
// must perform the same float operations in the same order, each rounded on
// its own. The lesson compiles kernels with --fmad=false (no fused
// multiply-add), and the two pragmas below stop the host compiler from fusing
// a * b + c into an FMA here (g++ would, even in ISO C++ mode with
// -march=native; clang reads the STDC pragma). Each compiler ignores the
// other's pragma. The result: both sides compute bit-identical z, and the
// counts are compared exactly.
#pragma GCC optimize("fp-contract=off")
#pragma STDC FP_CONTRACT OFF

static int escape_time(float cr, float ci, int32_t max_iter)
{
    float zr = 0.0f, zi = 0.0f;
    int32_t it = 0;
    while (it < max_iter) {
        float zr2 = zr * zr;
        float zi2 = zi * zi;
        if (zr2 + zi2 > 4.0f) break;  // |z| > 2: z escapes to infinity
        zi = 2.0f * zr * zi + ci;     // Im(z^2 + c) = 2 zr zi + ci
        zr = zr2 - zi2 + cr;          // Re(z^2 + c) = zr^2 - zi^2 + cr
        ++it;
    }
    return it;
}

// Pixel (px, py) is the point c = (x0 + px*d) + i (y0 - py*d): row 0 at the
// top, the imaginary axis pointing up. x0, y0 and d are computed by the lesson
// from cx, cy and span, rounded to float once, and passed to both sides.
void mandelbrot_ref(int32_t* iters, int32_t W, int32_t H, float x0, float y0, float d, int32_t max_iter)
{
    // Rows differ a lot in cost (those through the set run max_iter per
    // pixel), so the rows are handed out one at a time.
#pragma omp parallel for schedule(dynamic, 1)
    for (int32_t py = 0; py < H; ++py) {
        for (int32_t px = 0; px < W; ++px) {
            float cr = x0 + px * d;
            float ci = y0 - py * d;
            iters[(size_t)py * W + px] = escape_time(cr, ci, max_iter);
        }
    }
}
