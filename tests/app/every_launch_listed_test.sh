#!/bin/sh
# tests/app/every_launch_listed_test.sh — a step with a helper launch and a
# multi-pass launch: the launch panel edits the launch the lesson marks as
# tuned (not the first), and lists every launch as the run will make it,
# sized with the current params, with its passes and the tuned one marked.
#
#   every_launch_listed_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
theirs="$home/theirs"
mkdir -p "$theirs"
cp "$(dirname "$0")/../data/lessons_good/multipass_scan.json" "$theirs/"

run_script "$1" "$theirs" <<'END'
expect-trust-prompt
answer-trust no
open multipass_scan
case ragged
set-block 64 1 1
frames 3
expect-drawn-text 1. zero<<<8, 128, 0>>>
expect-drawn-text 2. scan_pass<<<16, 64, 0>>>  x10 passes  (edited below)
END
expect_ok "both launches are listed; the block set in the panel reached the tuned scan, not the zeroing helper"
