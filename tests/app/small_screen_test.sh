#!/bin/sh
# tests/app/small_screen_test.sh — at 1366x768, the commonest laptop screen, in English and
# Chinese: the docked instructions have room for 15 lines of text and more, and the launch
# panel shows its last param without scrolling (lesson 01, one param; lesson 06, three). After
# a run, the instructions popped out open off the verdict, and a drag that puts them over it is
# undone on the next frame. They come back docked in a new session, unless the student pinned
# them to their own window; pinned, they come back popped out.
#
#   small_screen_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
app=$1 lessons=$2

at_1366() {  # at_1366 LANG: runs $home/script.txt at 1366x768 in LANG
    status=0
    (cd "$home" && "$wb_xvfb_run" -s "-screen 0 1366x768x24" \
        "$app" --lessons "$lessons" --size 1366x768 --lang "$1" --script "$home/script.txt" \
        >"$home/stdout" 2>"$home/stderr") || status=$?
    echo "--- $1 stdout"; cat "$home/stdout"
    echo "--- $1 stderr"; cat "$home/stderr"
}

for lang in en zh; do
    rm -rf "$home/config" "$home/data" "$home/cache"
    cat >"$home/script.txt" <<END
emulator on
open vector_add one_thread_per_element
frames 3
expect-instructions-lines 15
expect-launch-params-shown
open matmul 1
frames 3
expect-instructions-lines 15
expect-launch-params-shown
open vector_add one_thread_per_element
set-source $lessons/01_vector_add/solution_step1.cu
case ragged
run
wait
expect-status passed
pop-instructions on
frames 3
expect-verdict-uncovered
place-instructions 300 200 600 400
frames 3
expect-verdict-uncovered
expect-instructions-popped on
END
    at_1366 "$lang"
    expect_ok "$lang: 15 lines of instructions, the params unscrolled, the verdict uncovered"

    # A new session: popped out but not pinned comes back docked.
    cat >"$home/script.txt" <<END
frames 2
expect-instructions-popped off
expect-instructions-lines 15
pop-instructions on
pin-instructions on
frames 2
END
    at_1366 "$lang"
    expect_ok "$lang: unpinned instructions came back docked"

    # Pinned: they come back popped out, and still off the verdict after a run.
    cat >"$home/script.txt" <<END
frames 2
expect-instructions-popped on
open vector_add one_thread_per_element
set-source $lessons/01_vector_add/solution_step1.cu
case small
run
wait
frames 3
expect-verdict-uncovered
END
    at_1366 "$lang"
    expect_ok "$lang: pinned instructions came back popped out"
done
