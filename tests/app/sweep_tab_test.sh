#!/bin/sh
# tests/app/sweep_tab_test.sh — the Sweep tab runs the step at every block size
# that fits, or across a param's values, each point a run of its own that
# leaves the student's last run alone; a bad range is said, not run. The
# Roofline tab says each step's arithmetic intensity (the roofs need a GPU:
# tests/app/gpu/roofline.script draws them).
# Without a GPU every point ends compile-only, which is what is checked here;
# the timed sweep is in tests/app/gpu/sweep.script.
#
#   sweep_tab_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
run_script "$1" "$2" <<END
emulator off
open vector_add grid_stride_loop
set-source $2/01_vector_add/solution_step2.cu
wait
expect-reference-built
results-tab sweep
sweep blocks
wait
expect-sweep 10 compile-only
expect-history 0
expect-drawn-text 10 points: 0 passed, 0 failed
sweep N=0,1000,4096
wait
expect-sweep 2 compile-only
expect-drawn-text left out: N=0: below its minimum 1
sweep N=1:100000:x1
wait
expect-drawn-text the factor must be above 1
run-anyway
wait
results-tab roofline
frames 3
expect-drawn-text Intensity 0.0833 FLOP/byte. The roofs are measured on a GPU
open matmul naive
set-source $2/06_matmul/solution_step1.cu
run-anyway
wait
results-tab roofline
frames 3
expect-drawn-text Intensity 0.667 FLOP/byte
END
expect_ok "a block sweep runs 10 points and a param sweep keeps to the param's bounds, apart from the last run; the roofline tab places the step by its intensity"
