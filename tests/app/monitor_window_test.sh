#!/bin/sh
# tests/app/monitor_window_test.sh — View > GPU monitor opens its window, and
# on a computer without a GPU (CI) says why there is nothing to read rather
# than drawing empty plots. tests/app/gpu/monitor.script reads a real GPU.
#
#   monitor_window_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
run_script "$1" "$2" <<END
open vector_add one_thread_per_element
monitor on
frames 3
expect-drawn-text gpu monitor
expect-drawn-text No GPU here: nothing to monitor.
monitor off
frames 2
expect-no-drawn-text gpu monitor
END
expect_ok "the GPU monitor opens, says why it has nothing to read here, and closes"
