// Each thread of one block asks the device heap for chunk_mib MiB and keeps it
// until every thread has asked, so what they hold adds up; thread 0 writes (and
// prints) how many got theirs, and the memory goes back before the kernel ends (on a GPU
// the heap lasts the context, and the next run must find it empty).
#include <cstdio>
#include <cstdlib>

extern "C" __global__ void take(int* all, int* some, int* count, int chunk_mib)
{
    __shared__ int got;
    if (threadIdx.x == 0) got = 0;
    __syncthreads();
    const size_t bytes = size_t(chunk_mib) << 20;
    char* p = static_cast<char*>(malloc(bytes));
    if (p != NULL) {
        p[0] = 1;
        p[bytes - 1] = 1;
        atomicAdd(&got, 1);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        printf("threads that got %d MiB: %d of %d\n", chunk_mib, got, int(blockDim.x));
        count[0] = got;
        all[0] = got == int(blockDim.x);
        some[0] = got > 0;
    }
    free(p);
}
