#!/bin/sh
# tests/app/refused_block_test.sh — a 2048-thread block is refused before
# anything runs, with the limit (1024) named, and a fitting block is not.
# Without a GPU the check uses the default architecture's limits. The
# refusal is checked in the state (expect-refused) and in what the launch
# panel drew (expect-drawn-text), and the Run button is drawn disabled.
#
#   refused_block_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
run_script "$1" "$2" <<'END'
open vector_add
set-block 2048 1 1
expect-refused "1024"
expect-drawn-text "1024"
expect-drawn-run-button disabled
screenshot refused.png
set-block 32 32 2
expect-refused "1024"
expect-drawn-text "1024"
set-block 256 1 1
auto-grid off
set-grid 1 70000 1
expect-refused "grid"
expect-drawn-text "grid"
expect-no-drawn-text "1024"
END
expect_ok "block 2048 and 32x32x2 are refused naming 1024; grid.y 70000 is refused; each refusal is drawn"
if ! grep -q "refused: .*1024" "$home/stdout" || ! grep -q "drawn: .*1024" "$home/stdout"; then
    echo "FAIL: the refusal sentence was not printed, or not as drawn"
    exit 1
fi
# A fitting launch must not be refused: the same checks, expected to fail.
run_script "$1" "$2" <<'END'
open vector_add
set-block 256 1 1
expect-no-drawn-text "1024"
expect-refused "1024"
END
if [ "$status" -ne 3 ] || ! grep -q "script: line 4: the launch is not refused" "$home/stderr"; then
    echo "FAIL: a 256-thread block was refused, or the failure was not reported (status $status)"
    exit 1
fi
run_script "$1" "$2" <<'END'
open vector_add
set-block 256 1 1
expect-drawn-text "1024"
END
if [ "$status" -ne 3 ] || ! grep -q "script: line 3: the latest frame drew nothing containing '1024'" "$home/stderr"; then
    echo "FAIL: a refusal was drawn for a 256-thread block, or the failure was not reported (status $status)"
    exit 1
fi
echo "ok: a 256-thread block is accepted, and no refusal is drawn for it"
