// Step 1 starter: a copy whose reads are strided.
// X is the first rows*stride ints of x seen as a matrix of `rows` rows and
// `stride` columns (X[r][c] = x[r*stride + c]); y is its transpose: column c
// of X becomes `rows` consecutive ints of y, starting at y[c*rows]. The last
// n - rows*stride ints of x (fewer than stride) are copied to the same index
// of y. Every int of y is written exactly once.
// The grid is 2-D: blockIdx.y is the column c, the x part is the row r. It
// has one more row of threads than X has rows.
extern "C" __global__ void strided_copy(const int* x, int* y, int n, int stride, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;  // row of X
    int c = blockIdx.y;                              // column of X

    // TODO 1: a thread whose row lies inside X copies X[r][c] to its place in y.

    // TODO 2: the threads of the extra row (r == rows) copy the tail: the one
    //         in column c takes the c-th element after the matrix, if there is
    //         one. Threads beyond that row do nothing.
    (void)r;
    (void)c;
}
