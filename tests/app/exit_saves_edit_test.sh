#!/bin/sh
# tests/app/exit_saves_edit_test.sh — every orderly exit saves the edit typed
# just before it, well inside the one second the autosave waits: SIGTERM
# (exit status 143), SIGINT (130), closing the window (0), and a run that
# ends in an error saves at once. Each time the app says on stdout that the
# exit saved it ("saved the unsaved edit to FILE on SIGTERM"), which proves
# the autosave had not done it already.
#
#   exit_saves_edit_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
app=$1 lessons=$2
saved="$XDG_DATA_HOME/cuda-workbook/work/matmul/shared_memory_tiles.cu"
trap 'if [ -s "$home/app.pid" ]; then kill -9 "$(cat "$home/app.pid")" 2>/dev/null || true; fi; rm -rf "$home"' EXIT

show() {
    echo "--- stdout"; cat "$home/stdout"
    echo "--- stderr"; cat "$home/stderr"
}

# signal_exit SIG STATUS: the app edits a line and hangs in `sleep 30`; SIG
# comes as soon as the hang begins, by the app's own pid.
signal_exit() {
    sig=$1 want=$2 mark="edit before SIG$1 $$"
    # The last round's output goes too: its "sleep 30" line must not be taken for this round's.
    rm -f "$home/app.pid" "$home/status" "$home/stdout" "$home/stderr"
    cat >"$home/script.txt" <<END
open matmul shared_memory_tiles
edit-line 1 // $mark
sleep 30
END
    # env --default-signal: a background job of a shell script starts with
    # SIGINT ignored, and the app leaves an ignored signal ignored.
    (set +e; cd "$home"; "$wb_xvfb_run" -s "-screen 0 1280x800x24" \
        sh -c 'echo $$ >"$0/app.pid"; exec env --default-signal=INT,TERM "$1" --lessons "$2" --size 1280x800 --script "$0/script.txt"' \
        "$home" "$app" "$lessons" >"$home/stdout" 2>"$home/stderr"; echo $? >"$home/status") &
    runner=$!
    tries=0
    until [ -s "$home/app.pid" ] && grep -q "^script: line 3: sleep 30" "$home/stdout" 2>/dev/null; do
        tries=$((tries + 1))
        if [ -s "$home/status" ] || [ $tries -gt 1200 ]; then
            show
            echo "FAIL: the script never reached its hang"
            exit 1
        fi
        sleep 0.05
    done
    kill -s "$sig" "$(cat "$home/app.pid")"
    wait $runner || true
    status=$(cat "$home/status")
    show
    if [ "$status" -ne "$want" ]; then
        echo "FAIL: after SIG$sig the app exited with status $status, wanted $want"
        exit 1
    fi
    if ! grep -q "^saved the unsaved edit to .*shared_memory_tiles.cu on SIG$sig" "$home/stdout"; then
        echo "FAIL: the exit on SIG$sig did not save the edit (or the autosave came first)"
        exit 1
    fi
    if ! grep -q "$mark" "$saved"; then
        echo "FAIL: $saved does not hold the edit after SIG$sig"
        exit 1
    fi
    echo "ok: SIG$sig saved the edit typed just before it and exited $want"
}

signal_exit TERM 143
signal_exit INT 130

run_script "$app" "$lessons" <<'END'
open matmul shared_memory_tiles
edit-line 1 // edit before closing the window
close-window
sleep 30
END
expect_ok "closing the window exits 0"
if grep -q "script: line 4: sleep 30" "$home/stdout"; then
    echo "FAIL: the script went on after the window was closed"
    exit 1
fi
if ! grep -q "^saved the unsaved edit to .*shared_memory_tiles.cu on exit" "$home/stdout" ||
   ! grep -q "edit before closing the window" "$saved"; then
    echo "FAIL: closing the window did not save the edit typed just before"
    exit 1
fi
echo "ok: closing the window saved the edit typed just before it"

# A run that ends in an error (param N = 0 is below its minimum: the worker
# answers input-error at once) saves the edit typed just before, without
# waiting for the autosave. The first `wait` lets the compile of the opened
# step finish, so the run is not queued behind it.
run_script "$app" "$lessons" <<'END'
open vector_add one_thread_per_element
wait
set-param N 0
edit-line 1 // edit before a failed run
run-anyway
wait
expect-status input-error
expect-log saved the unsaved edit after the job that went wrong
expect-saved
END
expect_ok "a run that ended in an error saved the edit at once"
