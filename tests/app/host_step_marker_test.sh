#!/bin/sh
# tests/app/host_step_marker_test.sh — a host step's file is compiled by nvcc
# as the student types, and its errors are marked on the student's own lines,
# as NVRTC's are for kernels: an undefined name on line 16 of the streams
# lesson's starter (in its kernel, which nvcc compiles with the host code) is
# marked on line 16 and listed as starter_step1.cu:16.
# Without a GPU, a Run builds the file, runs the CPU reference and says the
# step needs a GPU; the window carries on.
#
#   host_step_marker_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
run_script "$1" "$2" <<'END'
emulator off
open streams one_stream
edit-line 16     const float c = x[i] * b + not_declared;
wait
expect-marker 16
expect-drawn-marker 16
expect-drawn-text starter_step1.cu:16:
expect-drawn-text not_declared
edit-line 16     const float c = x[i] * b;
wait
expect-no-drawn-text starter_step1.cu:16:
expect-compiled
emulator on
run-anyway
wait
frames 3
expect-drawn-text this step's copies, streams and libraries need a GPU
END
expect_ok "an nvcc error in a host step is marked on its line, and a Run without a GPU says why it stops"
if ! grep -q "drawn marker on line 16" "$home/stdout"; then
    echo "FAIL: the marker on line 16 was not reported as drawn"
    exit 1
fi
