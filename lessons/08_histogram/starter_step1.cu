// Step 1 starter: a histogram of bytes with one global atomic per byte.
// bins[0..255] start at 0 (the lesson sets them before every run). Every byte
// of x must be counted exactly once, in the bin of its value.
// The launch caps the grid at 1024 blocks, so the grid can have fewer threads
// than x has bytes.
extern "C" __global__ void histogram(const unsigned char* x, int* bins, int n)
{
    // TODO 1: visit every byte this thread is responsible for: begin at the
    //         thread's global index and jump by the number of threads in the
    //         whole grid until you pass the end of x (lesson 01, step 2).

    // TODO 2: count the byte in the bin of its value. Threads all over the
    //         GPU may be counting into the same bin at the same moment, so
    //         the read, the add and the write must be one indivisible step.
}
