#!/bin/sh
# tests/app/worker_command_test.sh — the device panel's Worker command
# (runtime/pipeline/remote.hpp): applied, runs go through it (here
# `cuda-workbook-worker --stdio` itself, standing in for ssh), the panel names
# the machine its far end runs on, a run passes through it, and the command is
# remembered for the next start. A command with an unclosed quote is refused
# with the reason, and runs keep going where they went.
#
#   worker_command_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
wb_xvfb_run="$(cd "$(dirname "$0")/.." && pwd)/xvfb-run.sh"
app=$1 lessons=$2
worker="$(cd "$(dirname "$app")/../cli" && pwd)/cuda-workbook-worker"
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export XDG_CACHE_HOME="$home/cache" XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data"
host=$(hostname)

cat >"$home/script.txt" <<END
open vector_add one_thread_per_element
wait
worker-command $worker 'unclosed
frames 2
expect-log worker command not applied: the worker command has an unclosed ' quote
worker-command $worker --stdio
wait
expect-log runs go through the worker command: $worker --stdio
expect-log runs go through the worker command, on $host
frames 2
expect-drawn-text on $host, through the worker command
emulator on
set-source $lessons/01_vector_add/solution_step1.cu
run
wait
expect-status passed
END
status=0
(cd "$home" && "$wb_xvfb_run" -s "-screen 0 1600x1000x24" \
    "$app" --lessons "$lessons" --size 1400x900 --script "$home/script.txt" \
    >"$home/stdout" 2>"$home/stderr") || status=$?
echo "--- stdout"; cat "$home/stdout"
echo "--- stderr"; cat "$home/stderr"
if [ "$status" -ne 0 ]; then
    echo "FAIL: runs did not go through the worker command (cuda-workbook exited with status $status)"
    exit 1
fi
if ! grep -q "\"worker_command\": \"$worker --stdio\"" "$home/config/cuda-workbook/state.json"; then
    echo "FAIL: the worker command was not remembered in state.json:"
    cat "$home/config/cuda-workbook/state.json"
    exit 1
fi

# The next start uses it at once.
cat >"$home/script2.txt" <<END
wait
expect-log runs go through the worker command, on $host
END
status=0
(cd "$home" && "$wb_xvfb_run" -s "-screen 0 1600x1000x24" \
    "$app" --lessons "$lessons" --size 1400x900 --script "$home/script2.txt" \
    >"$home/stdout" 2>"$home/stderr") || status=$?
cat "$home/stdout"
if [ "$status" -ne 0 ]; then
    echo "FAIL: the remembered worker command was not used at the next start"
    cat "$home/stderr"
    exit 1
fi
echo "PASS: runs went through the worker command, on $host, and it was remembered"
