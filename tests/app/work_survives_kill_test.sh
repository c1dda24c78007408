#!/bin/sh
# tests/app/work_survives_kill_test.sh — never lose work: an edit is on disk
# about a second after typing, so even `kill -9` (no chance to save on exit)
# loses nothing. The app edits a line, waits 1.5 s, then hangs in `sleep 30`
# while this script kills it; the next start shows the edit. Lesson files are
# never written.
#
#   work_survives_kill_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
app=$1 lessons=$2
before=$(cat "$lessons"/06_matmul/*.cu "$lessons"/06_matmul.json | cksum)
cat >"$home/script.txt" <<'END'
open matmul shared_memory_tiles
edit-line 1 // killed edit 67890
sleep 1.5
sleep 30
END
# The app's own pid (exec keeps it), so only the app is killed, not Xvfb.
(cd "$home" && "$wb_xvfb_run" -s "-screen 0 1280x800x24" \
    sh -c 'echo $$ >"$0/app.pid"; exec "$1" --lessons "$2" --size 1280x800 --script "$0/script.txt"' \
    "$home" "$app" "$lessons" >"$home/stdout" 2>"$home/stderr") &
runner=$!
# Kill once the 1.5 s sleep is over and the hang has begun (at most 60 s).
tries=0
until grep -q "script: line 4: sleep 30" "$home/stdout" 2>/dev/null; do
    tries=$((tries + 1))
    if [ $tries -gt 600 ]; then
        echo "FAIL: the script never reached its hang"; cat "$home/stdout" "$home/stderr"
        kill -9 "$(cat "$home/app.pid")" 2>/dev/null || true
        exit 1
    fi
    sleep 0.1
done
sleep 1
kill -9 "$(cat "$home/app.pid")"
wait $runner || true
echo "--- stdout (killed run)"; cat "$home/stdout"
echo "--- stderr (killed run)"; cat "$home/stderr"
saved="$XDG_DATA_HOME/cuda-workbook/work/matmul/shared_memory_tiles.cu"
if ! grep -q "killed edit 67890" "$saved"; then
    echo "FAIL: $saved does not hold the edit after kill -9"
    exit 1
fi
echo "ok: the edit was on disk when the app was killed"
ls "$XDG_DATA_HOME/cuda-workbook/work/matmul/"
if ls "$XDG_DATA_HOME/cuda-workbook/work/matmul/" | grep -q tmp; then
    echo "FAIL: a temporary file was left beside the saved work"
    exit 1
fi

run_script "$app" "$lessons" <<'END'
expect-source-contains // killed edit 67890
END
expect_ok "after kill -9 and a restart the edit is in the editor"
if [ "$(cat "$lessons"/06_matmul/*.cu "$lessons"/06_matmul.json | cksum)" != "$before" ]; then
    echo "FAIL: a lesson file changed"
    exit 1
fi
echo "ok: lesson files untouched"
