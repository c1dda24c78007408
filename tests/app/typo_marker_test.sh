#!/bin/sh
# tests/app/typo_marker_test.sh — a kernel with a typo on line 5 gets a
# compiler marker on line 5, through the real GUI's compile-as-you-type path
# (edit, then the debounced background compile) and the explicit compile.
# Each marker is checked twice: in the compile result (expect-marker) and in
# what the editor painted in the frame after (expect-drawn-marker), along
# with the message drawn in the diagnostics list. Fixing the typo takes the
# marker off the screen.
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
expect-drawn-marker 5
expect-drawn-text starter_step1.cu:5:
edit-line 9     int k = a[0] +;
compile
wait
expect-marker 9
expect-drawn-marker 9
edit-line 9
edit-line 5
wait
expect-no-drawn-text starter_step1.cu:9:
expect-compiled
END
expect_ok "a typo on line 5, then on line 9, is marked on its line and drawn there"
for line in 5 9; do
    if ! grep -q "drawn marker on line $line" "$home/stdout"; then
        echo "FAIL: the marker on line $line was not reported as drawn"
        exit 1
    fi
done

# A marker that is not drawn fails the check, naming the lines that were.
run_script "$1" "$2" <<'END'
open vector_add one_thread_per_element
edit-line 5     c[0] = b[j];
wait
expect-drawn-marker 2
END
if [ "$status" -ne 3 ] || ! grep -q "script: line 4: the editor drew no marker on line 2 (markers drawn on lines: 5" "$home/stderr"; then
    echo "FAIL: expect-drawn-marker passed for an undrawn marker, or said it wrongly (status $status)"
    exit 1
fi
echo "ok: expect-drawn-marker fails for a line without a drawn marker"
