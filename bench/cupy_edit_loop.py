#!/usr/bin/env python3
"""bench/cupy_edit_loop.py — CuPy's RawKernel on an edited source, as wb_bench_edit_loop does.

    cupy_edit_loop.py SOURCE.cu ENTRY EDITS GRID_X,GRID_Y BLOCK_X,BLOCK_Y

Each edit appends a new comment (CuPy caches by source text), compiles with
RawKernel, launches once on small float buffers with an int size, and
synchronises. Prints "cupy_edit_p50_ms X". The arguments a kernel takes differ
by lesson, so the launch passes three float buffers and an int: the figure
is the compile-and-launch path, not a check of the result.
"""
import statistics
import sys
import time

import cupy as cp

src, entry, edits = sys.argv[1], sys.argv[2], int(sys.argv[3])
grid = tuple(int(x) for x in sys.argv[4].split(","))
block = tuple(int(x) for x in sys.argv[5].split(","))
text = open(src).read()
n = 1024
bufs = [cp.zeros(n * 4, dtype=cp.float32) for _ in range(3)]
times = []
for i in range(edits):
    edited = text + f"\n// edit {i} at {time.time()}\n"
    t0 = time.perf_counter()
    k = cp.RawKernel(edited, entry)
    k(grid, block, (bufs[0], bufs[1], bufs[2], cp.int32(n)))
    cp.cuda.runtime.deviceSynchronize()
    times.append((time.perf_counter() - t0) * 1000)
print(f"cupy_edit_p50_ms {statistics.median(times):.3f}")
