// Step 2 starter: the same copy, through a tile in shared memory.
// Each block handles blockDim.x consecutive rows of X: it reads them from x
// with consecutive threads on consecutive ints, then writes them out column
// by column, again with consecutive threads on consecutive ints of y.
// The tile is dynamic shared memory: blockDim.x * (stride + 1) ints.
extern "C" __global__ void strided_copy(const int* x, int* y, int n, int stride, int rows)
{
    extern __shared__ int tile[];
    // TODO 3: row r of the tile starts at tile[r * pitch]. Choose pitch (at
    //         least stride, at most stride + 1) so that the 32 threads of a warp
    //         reading tile[tid * pitch + c] in the write phase hit 32 different banks.
    const int pitch = stride;
    const int tid = threadIdx.x;
    const int r0 = blockIdx.x * blockDim.x;            // first row of this block
    const int nr = min((int)blockDim.x, rows - r0);    // rows it has (0 if none)

    // TODO 1: rows r0 .. r0+nr-1 of X are nr*stride consecutive ints of x.
    //         Read them all into the tile, consecutive threads on consecutive
    //         ints (a thread reads several when stride > 1).

    // TODO 2: wait until the whole tile is written. Every thread gets here.

    // TODO 4: thread tid owns row r0 + tid of X (if the block has that row):
    //         write each of its stride elements to its place in y.

    // TODO 5: the tail, the n - rows*stride ints after X: one block copies it.
    (void)tile;
    (void)pitch;
    (void)tid;
    (void)r0;
    (void)nr;
}
