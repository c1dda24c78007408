#!/bin/sh
# tests/app/edits_kept_test.sh — nothing typed is lost:
#   1. switching step saves the text being left at once, not a second later;
#   2. Reset to starter asks first, keeps the replaced text in the work folder's history, and
#      Ctrl+Z (undo) brings it back;
#   3. a save that fails (the work file's path is taken by a folder) is said in the status bar,
#      keeps the step open when the student clicks another, and is retried until it succeeds.
#
#   edits_kept_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
app=$1 lessons=$2
work="$XDG_DATA_HOME/cuda-workbook/work/vector_add"

# 1 and 2.
run_script "$app" "$lessons" <<'END'
open vector_add one_thread_per_element
edit-line 1 // typed just before switching, mark-1
open vector_add grid_stride_loop
expect-work-contains one_thread_per_element typed just before switching, mark-1
open vector_add one_thread_per_element
expect-source-contains mark-1
edit-line 1 // my work before the reset, mark-2
reset-starter
expect-drawn-text Replace your code with the starter?
expect-source-contains mark-2
answer-replace yes
expect-log reset step one_thread_per_element to its starter code
expect-history-contains my work before the reset, mark-2
undo
expect-source-contains mark-2
END
expect_ok "switching step saved at once; reset asked, kept a history copy, and undo brought the text back"

# 3. The folder where grid_stride_loop's work file goes makes every save of it fail.
mkdir -p "$work/grid_stride_loop.cu"
cat >"$home/script.txt" <<END
open vector_add grid_stride_loop
edit-line 1 // not saved yet, mark-3
sleep 1.5
expect-drawn-text Not saved:
open vector_add one_thread_per_element
expect-source-contains mark-3
wait-for-file $home/fixed 20
sleep 3
expect-saved
expect-no-drawn-text Not saved:
expect-work-contains grid_stride_loop not saved yet, mark-3
END
(cd "$home" && "$wb_xvfb_run" -s "-screen 0 1280x800x24" "$app" --lessons "$lessons" --size 1280x800 \
    --script "$home/script.txt" >"$home/stdout" 2>"$home/stderr"; echo $? >"$home/status") &
tries=0
until grep -q "wait-for-file" "$home/stdout" 2>/dev/null; do
    tries=$((tries + 1))
    [ $tries -lt 600 ] || { cat "$home/stdout" "$home/stderr"; echo "FAIL: the app never reached wait-for-file"; exit 1; }
    [ ! -s "$home/status" ] || { cat "$home/stdout" "$home/stderr"; echo "FAIL: the app stopped early"; exit 1; }
    sleep 0.1
done
rmdir "$work/grid_stride_loop.cu"
: >"$home/fixed"
wait
status=$(cat "$home/status")
echo "--- stdout"; cat "$home/stdout"
echo "--- stderr"; cat "$home/stderr"
expect_ok "a failed save was said, kept the step open, and was retried until it succeeded"
grep -q "stayed on the open step" "$home/stdout" || { echo "FAIL: the switch was not refused"; exit 1; }
echo "ok: the switch away from unsaved text was refused"
