#!/bin/sh
# tests/app/worker_killed_test.sh — the worker killed from outside (as the OOM
# killer would) costs nothing: the app compiles once, this script kills
# exactly that app's cuda-workbook-worker with kill -9, then the app types a
# line and compiles again. The compile result must arrive (from a fresh
# worker), the app must stay up and exit 0, and the typed line must be on
# disk: writing the next compile into the dead worker's pipe must not raise
# SIGPIPE in the app (which would end it with status 141 and lose the line).
#
#   worker_killed_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
app=$1 lessons=$2
# The app, if a failure leaves it running: only it, by its own pid.
trap 'if [ -s "$home/app.pid" ]; then kill -9 "$(cat "$home/app.pid")" 2>/dev/null || true; fi; rm -rf "$home"' EXIT

cat >"$home/script.txt" <<END
open vector_add one_thread_per_element
compile
wait
expect-compiled
worker-pid
wait-for-file $home/killed 60
edit-line 1 // typed after the worker was killed 24680
compile
wait
expect-compiled
worker-pid
sleep 1.5
expect-saved
END
# exec keeps the pid written, so the worker found below is this app's child.
(set +e; cd "$home"; "$wb_xvfb_run" -s "-screen 0 1280x800x24" \
    sh -c 'echo $$ >"$0/app.pid"; exec "$1" --lessons "$2" --size 1280x800 --script "$0/script.txt"' \
    "$home" "$app" "$lessons" >"$home/stdout" 2>"$home/stderr"; echo $? >"$home/status") &
runner=$!

show() {
    echo "--- stdout"; cat "$home/stdout"
    echo "--- stderr"; cat "$home/stderr"
}

# The worker's pid, as the app printed it after the first compile (at most 120 s).
tries=0
worker=
until [ -n "$worker" ]; do
    # `|| true`: until the app has started, $home/stdout does not exist, and a
    # failing sed would end this script under set -e.
    worker=$(sed -n 's/^script: line 5: worker pid \([0-9][0-9]*\)$/\1/p' "$home/stdout" 2>/dev/null || true)
    tries=$((tries + 1))
    if [ -s "$home/status" ] || [ $tries -gt 1200 ]; then
        show
        echo "FAIL: the app never printed its worker's pid"
        exit 1
    fi
    sleep 0.1
done
app_pid=$(cat "$home/app.pid")
# Field 4 of /proc/PID/stat is the parent: the worker must be this app's.
parent=$(sed 's/.*) [A-Za-z] \([0-9]*\) .*/\1/' "/proc/$worker/stat")
if [ "$parent" != "$app_pid" ]; then
    show
    echo "FAIL: process $worker is not a child of the app ($app_pid) but of $parent"
    exit 1
fi
kill -9 "$worker"
echo "killed cuda-workbook-worker $worker, the child of cuda-workbook $app_pid"
touch "$home/killed"
wait $runner || true
status=$(cat "$home/status")
show

if [ "$status" -ne 0 ]; then
    echo "FAIL: the app exited with status $status after its worker was killed (141: SIGPIPE)"
    exit 1
fi
echo "ok: the app outlived its worker and the compile after the kill finished"
second=$(sed -n 's/^script: line 11: worker pid \([0-9][0-9]*\)$/\1/p' "$home/stdout")
if [ -z "$second" ] || [ "$second" = "$worker" ]; then
    echo "FAIL: no fresh worker served the compile after the kill (pid '$second', killed $worker)"
    exit 1
fi
echo "ok: a fresh worker ($second) replaced the killed one ($worker)"
saved="$XDG_DATA_HOME/cuda-workbook/work/vector_add/one_thread_per_element.cu"
if ! grep -q "typed after the worker was killed 24680" "$saved" 2>/dev/null; then
    echo "FAIL: the line typed after the kill is not in $saved"
    exit 1
fi
echo "ok: the line typed after the kill is on disk"
