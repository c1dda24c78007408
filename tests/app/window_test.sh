#!/bin/sh
# tests/app/window_test.sh — opens the real cuda-workbook window under Xvfb
# (Mesa's software OpenGL), renders 20 frames, saves a screenshot, and checks
# that the window drew something of the requested size and opened the first
# lesson of the lessons folder.
#
#   window_test.sh PATH/TO/cuda-workbook PATH/TO/lessons [en|zh]
#
# With zh the interface is in Chinese, and the test also requires the Chinese
# font to have been found (else every Chinese character would draw as '?').
#
# It also reads the window's icon with xprop: every size rendered from the SVG
# must be set on the window.
#
# Needs xvfb (xvfb-run), x11-utils (xprop), libgl1-mesa-dri, python3 and python3-png. The
# expected lesson id is read from the sorted lessons folder, not hard-coded, so
# the test follows the lessons that ship.
set -eu
# Xvfb through tests/xvfb-run.sh: the status is always the command's.
wb_xvfb_run="$(cd "$(dirname "$0")/.." && pwd)/xvfb-run.sh"

app=$1
lessons=$2
lang=${3:-en}
width=1024
height=700

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A private home: the app reopens the last session's lesson, and this test
# must see the first lesson, not whatever the user last opened.
export XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data"

# Run from the temporary folder so nothing the app might write lands in the tree.
cd "$tmp"
status=0
# The app runs in the background inside the X server's session so that xprop
# can read the icon the window set (_NET_WM_ICON) while it is open; the shell
# waits for that app, by its pid, and returns its status.
"$wb_xvfb_run" -s "-screen 0 1280x800x24" sh -c '
    "$1" --lessons "$2" --lang "$3" --size "$4" --frames 60 --screenshot "$5/shot.png" \
        >"$5/stdout" 2>"$5/stderr" &
    app_pid=$!
    tries=0
    while [ $tries -lt 100 ] && kill -0 $app_pid 2>/dev/null; do
        if xprop -len 2000000 -name "CUDA Workbook" _NET_WM_ICON >"$5/icon" 2>/dev/null && grep -q "Icon (" "$5/icon"; then
            break
        fi
        tries=$((tries + 1))
        sleep 0.1
    done
    wait $app_pid
' sh "$app" "$lessons" "$lang" ${width}x${height} "$tmp" || status=$?
echo "--- stdout"; cat "$tmp/stdout"
echo "--- stderr"; cat "$tmp/stderr"
if [ "$status" -ne 0 ]; then
    echo "FAIL: cuda-workbook exited with status $status"
    exit 1
fi
# xprop prints one "Icon (WxH):" header per size the window set.
icon_sizes=$(grep -o "Icon ([0-9]* x [0-9]*)" "$tmp/icon" 2>/dev/null | tr '\n' ' ' || true)
echo "window icon sizes: ${icon_sizes:-none}"
for size in 16 32 48 64 128 256; do
    if ! grep -q "Icon ($size x $size)" "$tmp/icon" 2>/dev/null; then
        echo "FAIL: the window has no ${size}x${size} icon (_NET_WM_ICON, read with xprop)"
        exit 1
    fi
done
if [ "$lang" = zh ] && grep -q "Chinese font .* not found" "$tmp/stderr"; then
    echo "FAIL: the Chinese font is missing (Debian package fonts-wqy-microhei)"
    exit 1
fi

# Debian's python3, which python3-png (pypng) is installed for.
exec /usr/bin/python3 - "$tmp/shot.png" "$tmp/stdout" "$lessons" "$width" "$height" <<'PY'
import json, os, sys

shot, stdout_path, lessons_dir, want_w, want_h = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])

import png  # pypng (python3-png)

failures = []
width, height, rows, _ = png.Reader(filename=shot).asRGBA8()
rows, channels = [bytes(row) for row in rows], 4
if (width, height) != (want_w, want_h):
    failures.append(f"screenshot is {width}x{height}, the window was asked to be {want_w}x{want_h}")

colours = set()
for row in rows:
    for x in range(0, len(row), channels):
        colours.add(row[x:x + 3])
if len(colours) < 16:
    failures.append(f"screenshot has only {len(colours)} distinct colours: the window drew (almost) nothing")

# The first lesson in file-name order, as the app's loader lists them.
files = sorted(f for f in os.listdir(lessons_dir) if f.endswith(".json") and f != "lesson.schema.json")
out = open(stdout_path, encoding="utf-8").read()
if files:
    lesson = json.load(open(os.path.join(lessons_dir, files[0]), encoding="utf-8"))
    expected = f"opened lesson {lesson['id']} step {lesson['steps'][0]['id']}"
    if expected not in out:
        failures.append(f"stdout does not say '{expected}'")
else:
    failures.append(f"no lesson files in {lessons_dir} to open")

print(f"screenshot {width}x{height}, {len(colours)} distinct colours")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
PY
