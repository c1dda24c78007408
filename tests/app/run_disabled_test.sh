#!/bin/sh
# tests/app/run_disabled_test.sh — a script's `run` presses Run as a student
# would, so it cannot start a run the disabled button would not: it prints
# "Run is disabled, no run started: WHY" and nothing runs. Disabled for want
# of a GPU (on a machine without one) or for an oversized block (with one),
# and for an untrusted lesson anywhere; the drawn button is disabled each time.
#
#   run_disabled_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home

if [ -e /dev/nvidiactl ]; then
    setup="set-block 2048 1 1" why=1024
else
    setup="# no GPU: Run is disabled as it is" why="compile only"
fi
run_script "$1" "$2" <<END
emulator off
open vector_add one_thread_per_element
$setup
run
expect-run-not-started $why
expect-drawn-run-button disabled
frames 5
wait
expect-history 0
END
expect_ok "run with Run disabled ($why) started nothing"
if ! grep -q "^script: line 4: Run is disabled, no run started: .*$why" "$home/stdout"; then
    echo "FAIL: run did not say that Run is disabled and why"
    exit 1
fi

theirs="$home/theirs"
mkdir -p "$theirs"
cp "$(dirname "$0")/../data/lessons_good/minimal.json" "$theirs/"
run_script "$1" "$theirs" <<'END'
emulator off
answer-trust no
run
expect-run-not-started are not trusted
expect-drawn-run-button disabled
frames 5
wait
expect-history 0
END
expect_ok "run in an untrusted lesson started nothing"

# The expectation fails when Run started a run after all.
run_script "$1" "$theirs" <<'END'
emulator off
answer-trust yes
run
expect-run-not-started are not trusted
END
if [ -e /dev/nvidiactl ]; then
    wanted="the latest .run. started a run"
else
    wanted="Run was disabled because 'compile only"
fi
if [ "$status" -ne 3 ] || ! grep -q "script: line 4: $wanted" "$home/stderr"; then
    echo "FAIL: expect-run-not-started did not fail as it should (status $status)"
    exit 1
fi
echo "ok: expect-run-not-started fails when the reason differs or a run started"
