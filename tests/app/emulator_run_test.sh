#!/bin/sh
# tests/app/emulator_run_test.sh — on a computer without a GPU, "Run on the CPU
# emulator" is on by default (on one with a GPU the script switches it on), and
# Run is pressed as a student would (the button, not run-anyway): it is
# enabled, the grayscale solution runs on the emulator and
# passes, and the image view draws the emulated output beside the CPU
# reference (451x300, the photo). The timing line says it is a CPU time.
# The starter, run the same way, fails as unwritten.
#
#   emulator_run_test.sh PATH/TO/cuda-workbook PATH/TO/lessons [SHOTS_DIR]
# SHOTS_DIR (optional) keeps the screenshot, e.g. for docs/screenshots.
set -eu
wb_xvfb_run="$(cd "$(dirname "$0")/.." && pwd)/xvfb-run.sh"
app=$1 lessons=$2 keep=${3:-}
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export XDG_CACHE_HOME="$home/cache" XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data"

# No GPU: the app chose the emulator itself, says so in its log, and the device panel is in one
# state, the emulator's (never "compile only" above a ticked emulator switch).
choose="expect-log runs go to the CPU emulator"
device_state="expect-drawn-text CPU emulator: kernels run on this computer's CPU
expect-no-drawn-text compile only"
if [ -e /dev/nvidiactl ]; then choose="emulator on" device_state="# a GPU: the panel names it"; fi
cat >"$home/script.txt" <<END
open rgb_to_gray grid_2d_hwc
$choose
expect-drawn-text Run on the CPU emulator
frames 2
$device_state
set-source $lessons/03_rgb_to_gray/solution_step2.cu
case photo
run
wait
expect-status passed
expect-view image gray gpu+cpu
expand-results on
frames 5
expect-drawn-text CPU emulator:
screenshot $home/emulated.png
expand-results off
set-source $lessons/03_rgb_to_gray/starter_step2.cu
case ragged
run
wait
expect-status mismatch
END
status=0
(cd "$home" && "$wb_xvfb_run" -s "-screen 0 1600x1000x24" \
    "$app" --lessons "$lessons" --size 1400x900 --script "$home/script.txt" \
    >"$home/stdout" 2>"$home/stderr") || status=$?
echo "--- stdout"; cat "$home/stdout"
echo "--- stderr"; cat "$home/stderr"
if [ "$status" -ne 0 ]; then
    echo "FAIL: the emulated run did not go as expected (cuda-workbook exited with status $status)"
    exit 1
fi
if ! grep -q "^script: line [0-9]*: view: image gray gpu+cpu 451x300\$" "$home/stdout"; then
    echo "FAIL: the image view did not draw the emulated gray photo beside the reference"
    exit 1
fi
if [ -n "$keep" ]; then cp "$home/emulated.png" "$keep/emulator-rgb-to-gray.png"; fi
echo "PASS: the CPU emulator ran the step and the image view shows its result"
