#!/bin/sh
# tests/app/access_view_test.sh — the Memory access tab and the editor's
# access marks, on the CPU emulator, as a student sees them:
#   - lesson 09 step 2's unpadded tile: the table draws the column read (line
#     41, a shared load) as a 32-way bank conflict, red, with a red mark in the
#     gutter beside it, and the row write (line 25) without conflict, green; a
#     click on the row moves the caret there, the warp picture draws the
#     request's 32 passes (rows of banks), Next steps to the next request, and
#     the per-thread view draws the block's 256 threads;
#   - step 3's padded tile reads its column (line 36) with 1 way, green;
#   - lesson 12 step 1 at stride 8: the strided read (line 14) takes 32.00
#     sectors per request, and its warp picture 32 sectors; the write takes 4;
#   - in Chinese, the same table; a run that ran nothing says so.
#
#   access_view_test.sh PATH/TO/cuda-workbook PATH/TO/lessons [SHOTS_DIR]
# SHOTS_DIR (optional) keeps the screenshots (access-view-en.png, access-view-zh.png),
# e.g. for docs/screenshots.
set -eu
. "$(dirname "$0")/script_lib.sh"
app=$1 lessons=$2 keep=${3:-}
make_home

run_script "$app" "$lessons" <<END
emulator on
open transpose shared_tile
set-source $lessons/09_transpose/solution_step2.cu
case one_tile
run
wait
expect-status passed
results-tab access
expand-results on
frames 3
expect-access-line 41 load shared 32.00 heavy
expect-access-line 25 store shared 1.00 fits
expect-access-line 25 load global 4.00 fits
expect-access-line 41 store global 4.00 fits
access-select-line 25 store shared
frames 3
expect-drawn-cursor-line 25
expect-gutter-mark 25 fits
expect-access-picture ways 1
access-select-line 41 load shared
frames 3
expect-drawn-cursor-line 41
expect-gutter-mark 41 heavy
expect-no-gutter-mark 40
expect-access-picture ways 32
expect-access-threads 256
access-request next
frames 2
expect-access-picture ways 32
access-request prev
frames 2
open transpose padded_tile
set-source $lessons/09_transpose/solution_step3.cu
case one_tile
run
wait
expect-status passed
frames 2
expect-access-line 36 load shared 1.00 fits
access-select-line 36 load shared
frames 2
expect-gutter-mark 36 fits
expect-access-picture ways 1
open coalescing strided_reads
set-source $lessons/12_coalescing/solution_step1.cu
case no_tail
set-param stride 8
run
wait
expect-status passed
frames 2
expect-access-line 14 load global 32.00 heavy
expect-access-line 14 store global 4.00 fits
access-select-line 14 load global
frames 2
expect-gutter-mark 14 heavy
expect-access-picture sectors 32
expect-access-threads 256
screenshot $home/access-view-en.png
access-select-line 14 store global
frames 2
expect-access-picture sectors 4
END
expect_ok "the access tab draws lesson 09's 32-way column read and lesson 12's 32 sectors per request"
for line in "access row: 41 load shared 32.00 heavy" "gutter mark on line 41 (heavy)" \
    "access picture: ways 32, request 1 of 16" "access picture: ways 32, request 2 of 16" \
    "access row: 36 load shared 1.00 fits" "access row: 14 load global 32.00 heavy" "access picture: sectors 32, request 1 of 16"; do
    if ! grep -q "^script: line [0-9]*: $line\$" "$home/stdout"; then
        echo "FAIL: the script did not say '$line'"
        exit 1
    fi
done
cp "$home/access-view-en.png" "$home/keep-en.png"

# The same step in Chinese; a run that ran nothing (no emulator, no GPU) says nothing was recorded.
no_run="emulator off
run-anyway
wait
frames 2
expect-drawn-text 没有运行任何核函数"
if [ -e /dev/nvidiactl ]; then no_run="# a GPU: the run would run"; fi
run_script "$app" "$lessons" --lang zh <<END
emulator on
open transpose shared_tile
set-source $lessons/09_transpose/solution_step2.cu
case one_tile
run
wait
expect-status passed
results-tab access
expand-results on
access-select-line 41 load shared
frames 3
expect-access-line 41 load shared 32.00 heavy
expect-drawn-text 按源代码行统计
expect-no-english transpose one_tile tile in out
screenshot $home/access-view-zh.png
expand-results off
$no_run
END
expect_ok "the Chinese window draws the same table, in Chinese"
if [ -n "$keep" ]; then
    cp "$home/keep-en.png" "$keep/access-view-en.png"
    cp "$home/access-view-zh.png" "$keep/access-view-zh.png"
fi
echo "PASS: the Memory access tab and the gutter marks show the record's figures"
