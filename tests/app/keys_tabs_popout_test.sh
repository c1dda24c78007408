#!/bin/sh
# tests/app/keys_tabs_popout_test.sh — the keyboard, the results tabs and the
# instructions' own window, driven through the real window under Xvfb.
#
# Keys are pressed as a keyboard would (script `press`: down for one frame):
# F8 walks the diagnostics' lines in order and wraps; Ctrl+F opens the find
# bar; Ctrl+S saves at once (before the autosave's second); Ctrl+Shift+L folds
# and unfolds the lesson list; Ctrl+= and Ctrl+0 change the text size, which
# rebuilds the fonts. After a run the results open on the Views tab, and the
# Timings and Check tabs draw their own contents. The instructions pop out
# into a window of their own (the launch panel takes their place), and the
# next start remembers it when the student pinned them there.
#
#   keys_tabs_popout_test.sh PATH/TO/cuda-workbook PATH/TO/lessons [SHOTS_DIR]
set -eu
app=$1 lessons=$2 keep=${3:-}
. "$(dirname "$0")/script_lib.sh"
make_home

rect() {  # rect NAME -> "X Y W H" from the latest panel-rect NAME line
    sed -n "s/^script: line [0-9]*: panel $1 \([0-9 ]*\)\$/\1/p" "$home/stdout" | tail -n 1
}

run_script "$app" "$lessons" <<END
open vector_add one_thread_per_element
edit-line 7     int i = blockIdx.x * blockDim.x + threadIdy.x;
edit-line 12         c[i] = a[i] + b[j];
compile
wait
expect-marker 7
expect-marker 12
press f8
frames 2
expect-drawn-cursor-line 7
press f8
frames 2
expect-drawn-cursor-line 12
press f8
frames 2
expect-drawn-cursor-line 7
press ctrl+f
frames 2
expect-drawn-find-bar
edit-line 15 // kept by Ctrl+S
press ctrl+s
frames 2
expect-saved
expect-log saved
press ctrl+shift+l
frames 2
panel-rect lessons
press ctrl+shift+l
frames 2
panel-rect lessons
press ctrl+equal
frames 2
expect-log interface scale 1.10
press ctrl+0
frames 2
expect-log interface scale 1.00
set-source $lessons/01_vector_add/solution_step1.cu
case ragged
run-anyway
wait
frames 2
expect-drawn-text results tab views
results-tab timings
frames 2
expect-drawn-text results tab timings
expect-no-drawn-text results tab views
results-tab check
frames 2
expect-drawn-text results tab check
pop-instructions on
pin-instructions on
frames 3
panel-rect instructions
panel-rect launch
expect-drawn-text Vector addition / One thread per element
screenshot $home/instructions-popped.png
END
expect_ok "F8, Ctrl+F, Ctrl+S, Ctrl+Shift+L, Ctrl+= and Ctrl+0; the results tabs; the instructions popped out"

widths=$(sed -n 's/^script: line [0-9]*: panel lessons [0-9]* [0-9]* \([0-9]*\) [0-9]*$/\1/p' "$home/stdout" | tr '\n' ' ')
case "$widths" in
"30 250 ") echo "ok: Ctrl+Shift+L folded the lesson list to 30 px and unfolded it to 250" ;;
*) echo "FAIL: the lesson list's widths after Ctrl+Shift+L twice were '$widths', wanted '30 250 '"; exit 1 ;;
esac
set -- $(rect instructions)
column_top=$2
if [ "$4" -ne 0 ]; then
    echo "FAIL: the popped-out instructions still have $3x$4 of their column"
    exit 1
fi
set -- $(rect launch)
launch_h=$4
# The right column above the diagnostics: all of it, not a share.
if [ "$2" -ne "$column_top" ] || [ "$launch_h" -lt 420 ]; then
    echo "FAIL: with the instructions popped out the launch panel is at y=$2 and $launch_h px tall"
    exit 1
fi
echo "ok: the instructions left their column; the launch panel is $launch_h px tall"
[ -z "$keep" ] || cp "$home/instructions-popped.png" "$keep/"

# The next start keeps the pinned instructions in their own window.
run_script "$app" "$lessons" <<'END'
frames 3
panel-rect instructions
expect-drawn-text Vector addition / One thread per element
pop-instructions off
frames 2
panel-rect instructions
END
expect_ok "the next start"
set -- $(sed -n 's/^script: line [0-9]*: panel instructions \([0-9 ]*\)$/\1/p' "$home/stdout" | head -n 1)
if [ "$4" -ne 0 ]; then
    echo "FAIL: the next start put the instructions back in their column"
    exit 1
fi
set -- $(rect instructions)
if [ "$3" -lt 160 ] || [ "$4" -lt 90 ]; then
    echo "FAIL: docked again, the instructions are $3x$4"
    exit 1
fi
echo "ok: popped out across a restart, and docked again at $3x$4"
