// Step 2 solution: the same copy, through a tile in shared memory.
// Each block handles blockDim.x consecutive rows of X: it reads them from x
// with consecutive threads on consecutive ints, then writes them out column
// by column, again with consecutive threads on consecutive ints of y.
// The tile is dynamic shared memory: blockDim.x * (stride + 1) ints.
extern "C" __global__ void strided_copy(const int* x, int* y, int n, int stride, int rows)
{
    extern __shared__ int tile[];
    // Row r of the tile starts at tile[r * pitch]. An odd pitch puts the 32
    // words tile[tid * pitch + c] of a warp (tid = 32 consecutive values) in
    // 32 different banks; pitch = stride = 32 would put them all in one.
    const int pitch = stride | 1;
    const int tid = threadIdx.x;
    const int r0 = blockIdx.x * blockDim.x;            // first row of this block
    const int nr = min((int)blockDim.x, rows - r0);    // rows it has (0 if none)

    // 1. Rows r0 .. r0+nr-1 of X are nr*stride consecutive ints of x: read
    //    them with consecutive threads on consecutive addresses.
    for (int k = tid; k < nr * stride; k += blockDim.x) {
        int r = k / stride;
        int c = k - r * stride;
        tile[r * pitch + c] = x[r0 * stride + k];
    }

    // Every thread reaches this barrier; none may read the tile before all of
    // it is written.
    __syncthreads();

    // 2. Thread tid owns row r0 + tid. For each column, the threads of a warp
    //    write 32 consecutive ints of y.
    if (tid < nr) {
        for (int c = 0; c < stride; ++c) {
            y[c * rows + r0 + tid] = tile[tid * pitch + c];
        }
    }

    // 3. The tail (fewer than stride <= 32 ints): the last block copies it.
    int tail_start = rows * stride;
    if (blockIdx.x == gridDim.x - 1 && tid < n - tail_start) {
        y[tail_start + tid] = x[tail_start + tid];
    }
}
