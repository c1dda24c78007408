// Step 1 solution: a copy whose reads are strided.
// X is the first rows*stride ints of x seen as a matrix of `rows` rows and
// `stride` columns (X[r][c] = x[r*stride + c]); y is its transpose,
// y[c*rows + r] = X[r][c]. The last n - rows*stride ints are copied in place.
// The grid is 2-D: blockIdx.y is the column c, the x part is the row r.
extern "C" __global__ void strided_copy(const int* x, int* y, int n, int stride, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;  // row of X
    int c = blockIdx.y;                              // column of X

    if (r < rows) {
        // Neighbouring threads of a warp have neighbouring r: their writes are
        // neighbouring ints of y, their reads are `stride` ints apart in x.
        y[c * rows + r] = x[r * stride + c];
    } else if (r == rows) {
        // One extra row of threads copies the tail, one element per column.
        int i = rows * stride + c;
        if (i < n) y[i] = x[i];
    }
}
