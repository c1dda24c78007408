#!/usr/bin/env python3
"""bench/cupy_edit_loop.py — CuPy's RawKernel on an edited source, as wb_bench_edit_loop does.

    cupy_edit_loop.py SOURCE.cu ENTRY EDITS GX,GY,GZ BX,BY,BZ ARGS BUFFER_BYTES SHARED_BYTES [INCLUDE_DIR]

ARGS is the kernel's argument list as the lesson gives it: "b" for a buffer,
"i:V" or "f:V" for a number, comma-separated. Each edit appends a new comment
(CuPy caches by source text), compiles with RawKernel, launches once on
zeroed buffers of BUFFER_BYTES each, and synchronises. Prints
"cupy_edit_p50_ms X": the compile-and-launch path, not a check of the result.
INCLUDE_DIR (the workbook's runtime/compile/nvrtc_include) gives RawKernel the
<cmath>, <climits>... that NVRTC does not ship, as the workbook gives them to
its own compiles; without it a source that includes them does not compile.
A failure is said on stderr, and no figure is printed.
"""
import statistics
import sys
import time

import cupy as cp

src, entry, edits = sys.argv[1], sys.argv[2], int(sys.argv[3])
grid = tuple(int(x) for x in sys.argv[4].split(","))
block = tuple(int(x) for x in sys.argv[5].split(","))
spec = sys.argv[6].split(",")
nbytes, shared = int(sys.argv[7]), int(sys.argv[8])
options = ("-I" + sys.argv[9],) if len(sys.argv) > 9 else ()
text = open(src).read()
args = []
for a in spec:
    if a == "b":
        args.append(cp.zeros(max(nbytes, 4) // 4 + 1, dtype=cp.float32))
    elif a.startswith("i:"):
        args.append(cp.int32(int(float(a[2:]))))
    else:
        args.append(cp.float32(float(a[2:])))
times = []
for i in range(edits):
    edited = text + f"\n// edit {i} at {time.time()}\n"
    t0 = time.perf_counter()
    try:
        k = cp.RawKernel(edited, entry, options=options)
        k(grid, block, tuple(args), shared_mem=shared)
        cp.cuda.runtime.deviceSynchronize()
    except Exception as e:  # a compile error or a fault: no figure
        print(f"cupy_edit_loop: {entry}: {type(e).__name__}: {str(e)[:400]}", file=sys.stderr)
        sys.exit(1)
    times.append((time.perf_counter() - t0) * 1000)
print(f"cupy_edit_p50_ms {statistics.median(times):.3f}")
