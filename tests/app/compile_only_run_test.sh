#!/bin/sh
# tests/app/compile_only_run_test.sh — a run of the solution goes through the
# whole pipeline via the worker. Without a GPU the Run button is drawn
# disabled, the device panel draws "compile only", a scripted `run` starts
# nothing, and `run-anyway` (scripts only) still exercises the pipeline: it
# ends as compile-only. With a GPU, Run is drawn enabled and the run passes.
# A failing expectation makes the script exit 3 with the line that failed.
#
#   compile_only_run_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
solution=$2/01_vector_add/solution_step1.cu
if [ -e /dev/nvidiactl ]; then
    want=passed
    press="run
expect-drawn-run-button enabled"
else
    want=compile-only
    press="run
expect-run-not-started compile only
expect-drawn-run-button disabled
expect-drawn-text compile only
expect-run-disabled compile only
run-anyway"
fi
run_script "$1" "$2" <<END
emulator off
open vector_add one_thread_per_element
set-source $solution
case ragged
$press
wait
expect-status $want
screenshot run.png
END
expect_ok "running the solution ends as $want"
run_script "$1" "$2" <<END
emulator off
open vector_add
expect-status passed-on-no-run
END
if [ "$status" -ne 3 ] || ! grep -q "^script: line 3: no run has finished" "$home/stderr"; then
    echo "FAIL: a failing expectation did not exit 3 naming its line (status $status)"
    exit 1
fi
echo "ok: a failing expectation exits 3 and names its line"
