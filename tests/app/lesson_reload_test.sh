#!/bin/sh
# tests/app/lesson_reload_test.sh — the instructor's loop, through the real
# GUI under Xvfb: a lesson copied to a folder of our own is opened and the
# student edits it; the lesson's title changes on disk and the app shows the
# new title with the student's text untouched; a syntax error and then a
# semantic error in the JSON each put a banner over the editor naming the
# file, the line and (for the semantic one) the JSON path, while the last good
# lesson stays open, editable, and still compiles and runs (the request
# carries the version on screen, not the broken file); fixing the file takes
# the banner away and compiles the student's text again. A lesson broken at start-up is listed with its error, and the banner
# speaks Chinese with --lang zh.
#
#   lesson_reload_test.sh PATH/TO/cuda-workbook PATH/TO/lessons
set -eu
. "$(dirname "$0")/script_lib.sh"
make_home
src="$(dirname "$0")/../data/lessons_good/minimal.json"
mkdir -p "$home/lessons"
cp "$src" "$home/lessons/minimal.json"
# The versions the "instructor" saves, one after another.
sed 's/"title": "The smallest complete lesson"/"title": "The smallest lesson, retitled"/' "$src" >"$home/retitled.json"
sed 's/"format": 1,/"format": 1,,/' "$home/retitled.json" >"$home/syntax.json"          # line 3
sed 's/ceil_div(N, block.x)/ceil_div(M, block.x)/' "$home/retitled.json" >"$home/semantic.json"  # line 11
sed 's/"title": "The smallest complete lesson"/"title": 5/; s/"id": "minimal"/"id": "zz_broken"/' "$src" >"$home/lessons/zz_broken.json"  # line 5

run_script "$1" "$home/lessons" <<'END'
emulator off
expect-trust-prompt
answer-trust yes
open minimal
frames 2
expect-drawn-text zz_broken.json: line 5: title:
expect-drawn-text The smallest complete lesson /
edit-line 1 extern "C" __global__ void twice(const float* x, float* y, int n) { /* mine */ }
wait
expect-compiled
copy-file retitled.json lessons/minimal.json
wait-reload
frames 2
expect-drawn-text The smallest lesson, retitled /
expect-no-drawn-text The smallest complete lesson
expect-source-contains /* mine */
expect-log reloaded
wait
expect-compiled
copy-file syntax.json lessons/minimal.json
wait-reload
frames 2
expect-drawn-text The lesson file has errors
expect-drawn-text minimal.json:3:
expect-drawn-text JSON syntax error
expect-drawn-text The smallest lesson, retitled /
expect-source-contains /* mine */
edit-line 1 extern "C" __global__ void twice(const float* x, float* y, int n) { /* still mine */ }
wait
expect-source-contains /* still mine */
expect-compiled
run-anyway
wait
expect-status compile-only
copy-file semantic.json lessons/minimal.json
wait-reload
frames 2
expect-drawn-text minimal.json:11: launches[0].grid[0]:
expect-drawn-text The smallest lesson, retitled /
copy-file retitled.json lessons/minimal.json
wait-reload
frames 2
expect-no-drawn-text The lesson file has errors
expect-no-drawn-text minimal.json:
expect-drawn-text The smallest lesson, retitled /
expect-source-contains /* still mine */
wait
expect-compiled
END
expect_ok "a changed title reloads and keeps the text; broken JSON shows file, line and path over the last good lesson; a fix clears it"

run_script "$1" "$home/lessons" --lang zh <<'END'
emulator off
open minimal
frames 2
copy-file syntax.json lessons/minimal.json
wait-reload
frames 2
expect-drawn-text 课程文件有错误
expect-drawn-text minimal.json:3:
END
expect_ok "the banner is in Chinese with --lang zh"
