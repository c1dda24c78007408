#!/bin/sh
# tests/app/progress_test.sh — a step is marked done only when every case passes with one text:
# the Numba habit `int i = threadIdx.x;` (with a bounds test) passes lesson 01's `small` case and
# is not done, the lesson list shows "1/4 cases"; "Check all cases" runs every case and lists
# the ones that fail; the solution, checked the same way, is done. Without a GPU the cases run on
# the CPU emulator; with one, on the GPU.
#
#   progress_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
app=$1 lessons=$2
cat >"$home/numba.cu" <<'END'
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = threadIdx.x;  // the Numba habit: one block's worth of threads
    if (i < n) c[i] = a[i] + b[i];
}
END
emulator="emulator on"
run_script "$app" "$lessons" <<END
$emulator
open vector_add one_thread_per_element
set-source $home/numba.cu
case small
run
wait
expect-status passed
expect-done off
expect-drawn-text 1/4 cases
check-all
frames 3
expect-done off
expect-drawn-text All cases: 2 of 4 passed
expect-drawn-text large: mismatch
expect-log case large: mismatch
set-source $lessons/01_vector_add/solution_step1.cu
check-all
frames 3
expect-done on
expect-drawn-text All cases: 4 of 4 passed
expect-log step one_thread_per_element done: every case passed (4 of 4)
END
expect_ok "one passing case is not done; Check all cases lists the failures; the solution is done"

# The next start: the step is still done, and a step with one case passed still shows 1/4.
run_script "$app" "$lessons" <<END
$emulator
open vector_add grid_stride_loop
set-source $home/numba.cu
case small
run
wait
frames 2
expect-drawn-text 1/4 cases
END
expect_ok "a second step with one case passed"
run_script "$app" "$lessons" <<END
open vector_add one_thread_per_element
frames 3
expect-done on
expect-drawn-text 1/4 cases
END
expect_ok "the cases passed came back after a restart"
