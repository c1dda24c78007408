#!/bin/sh
# tests/app/frames_during_compile_test.sh — the frame loop keeps drawing
# while a compile runs on the worker thread. The cache folder is fresh, so the
# first compile loads NVRTC and builds the CPU reference with g++ (seconds);
# the matmul step with shared memory tiles is the largest kernel shipped.
# A frame loop that blocked on the compile would draw at most the frame that
# asked for it, so 2 frames prove it does not block. More are not asked for:
# on a loaded 2-core machine with software GL a frame takes long enough that
# a compile found in the cache (the one on opening may have filled it) spans
# only 3.
#
#   frames_during_compile_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
run_script "$1" "$2" <<'END'
open matmul shared_memory_tiles
expect-frames-during-compile 2
END
expect_ok "at least 2 frames were drawn while the compile ran"
