#!/bin/sh
# tests/app/work_survives_restart_test.sh — the student's edit is saved about
# a second after typing (not only on exit), and a restart reopens the same
# lesson and step with the edit in the editor. The lesson file is untouched.
#
#   work_survives_restart_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
lessons=$2
before=$(cat "$lessons"/06_matmul/*.cu "$lessons"/06_matmul.json | cksum)
run_script "$1" "$lessons" <<'END'
open matmul shared_memory_tiles
edit-line 1 // my edit 12345
sleep 2
expect-saved
quit
END
expect_ok "the edit was saved within 2 seconds"
saved="$XDG_DATA_HOME/cuda-workbook/work/matmul/shared_memory_tiles.cu"
if ! grep -q "my edit 12345" "$saved"; then
    echo "FAIL: $saved does not hold the edit"
    exit 1
fi
run_script "$1" "$lessons" <<'END'
expect-source-contains my edit 12345
END
expect_ok "the edit is in the editor after a restart"
if ! grep -q "opened lesson matmul step shared_memory_tiles" "$home/stdout"; then
    echo "FAIL: the restart did not reopen matmul / shared_memory_tiles"
    exit 1
fi
if [ "$(cat "$lessons"/06_matmul/*.cu "$lessons"/06_matmul.json | cksum)" != "$before" ]; then
    echo "FAIL: a lesson file changed"
    exit 1
fi
echo "ok: the last lesson and step were reopened; lesson files untouched"
