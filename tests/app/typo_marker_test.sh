#!/bin/sh
# tests/app/typo_marker_test.sh — a kernel with a typo on line 5 gets a
# compiler marker on line 5, through the real GUI's compile-as-you-type path
# (edit, then the debounced background compile) and the explicit compile.
#
#   typo_marker_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
run_script "$1" "$2" <<'END'
open vector_add one_thread_per_element
edit-line 5     c[0] = b[j];
wait
expect-marker 5
edit-line 9     int k = a[0] +;
compile
wait
expect-marker 9
END
expect_ok "a typo on line 5, then on line 9, is marked on its line"
