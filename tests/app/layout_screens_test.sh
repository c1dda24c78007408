#!/bin/sh
# tests/app/layout_screens_test.sh — the window at 1366x768 (the commonest
# laptop screen) and 1920x1080, in English and Chinese: after a run, the
# verdict and the time line are drawn without scrolling, and the pixels
# agree: the verdict badge's colour is inside the results panel's top rows.
# The time line, the run's message and the device note are in the window's language.
# At 3840x2160 the window stands in for a 4K screen at 200% (set-content-scale
# 2): fonts and style are rebuilt at twice the size, and the same holds.
# No panel is narrower or shorter than the readable minimum (160x90 at 100%).
# The lesson list collapses with its "<<" and keeps its state in the session.
#
#   layout_screens_test.sh PATH/TO/cuda-workbook PATH/TO/lessons [SHOTS_DIR]
# SHOTS_DIR (optional) keeps the screenshots, e.g. for docs/screenshots.
set -eu
# Xvfb through tests/xvfb-run.sh: the status is always the command's.
wb_xvfb_run="$(cd "$(dirname "$0")/.." && pwd)/xvfb-run.sh"
app=$1 lessons=$2 keep=${3:-}
. "$(dirname "$0")/script_lib.sh"
make_home

for screen_scale in 1366x768:1 1920x1080:1 3840x2160:2; do
    screen=${screen_scale%:*} scale=${screen_scale#*:}
    for lang in en zh; do
        # The runtime's own sentences (the run's message, why there is no GPU) are in the window's language too.
        if [ "$lang" = en ]; then
            cpu="CPU reference" said="compiled and checked; nothing ran on a GPU" why="No CUDA driver was found"
        else
            cpu="CPU 参考实现" said="已编译并检查；没有在 GPU 上运行" why="没有找到 CUDA 驱动"
        fi
        rescaled="# the monitor's scale"
        [ "$scale" = 1 ] || rescaled="expect-log interface scale $scale.00"
        cat >"$home/script.txt" <<END
emulator off
set-content-scale $scale
frames 2
$rescaled
open vector_add one_thread_per_element
set-source $lessons/01_vector_add/solution_step1.cu
case ragged
run-anyway
wait
frames 3
expect-drawn-text verdict
expect-drawn-text $cpu
expect-drawn-text $said
expect-drawn-text $why
panel-rect results
panel-rect lessons
panel-rect device
panel-rect editor
panel-rect instructions
panel-rect launch
panel-rect diagnostics
screenshot $home/layout-$screen-$lang.png
END
        status=0
        (cd "$home" && "$wb_xvfb_run" -s "-screen 0 ${screen}x24" \
            "$app" --lessons "$lessons" --size "$screen" --lang "$lang" --script "$home/script.txt" \
            >"$home/stdout" 2>"$home/stderr") || status=$?
        if [ "$status" -ne 0 ]; then
            cat "$home/stdout" "$home/stderr"
            echo "FAIL: $screen $lang: the script stopped (status $status)"
            exit 1
        fi
        grep "panel \|drawn: " "$home/stdout"
        # Debian's python3, which python3-png (pypng) is installed for.
        /usr/bin/python3 - "$home/layout-$screen-$lang.png" "$screen" "$scale" "$home/stdout" <<'PY'
import re, sys

import png  # pypng (python3-png)

path, screen, scale, stdout = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
panels = {m[0]: tuple(int(v) for v in m[1:]) for m in
          re.findall(r"^script: line \d+: panel (\w+) (\d+) (\d+) (\d+) (\d+)$", open(stdout, encoding="utf-8").read(), re.M)}
for name, (x, y, w, h) in panels.items():
    if w < 160 * scale or h < 90 * scale:
        print(f"FAIL: {path}: the {name} panel is {w}x{h}, under the readable minimum {160 * scale}x{90 * scale}")
        sys.exit(1)
rx, ry, rw, rh = panels["results"]
width, height, rows, _ = png.Reader(filename=path).asRGBA8()
rows, channels = [bytes(row) for row in rows], 4
want_w, want_h = (int(v) for v in screen.split("x"))
assert (width, height) == (want_w, want_h), f"{path}: {width}x{height}, wanted {screen}"
# The compile-only badge: (0.95, 0.75, 0.30) on the results panel's first two lines.
badge = 0
for y in range(ry, min(ry + 50 * scale, height)):
    row = rows[y]
    for x in range(rx, min(rx + rw, width)):
        r, g, b = row[x * channels:x * channels + 3]
        if abs(r - 242) < 12 and abs(g - 191) < 12 and abs(b - 76) < 12:
            badge += 1
print(f"{path}: results at {rx},{ry} {rw}x{rh}; {badge} badge pixels in its top {50 * scale} rows")
if badge < 100 * scale * scale:
    print(f"FAIL: {path}: no verdict badge at the top of the results panel")
    sys.exit(1)
if rw < 0.45 * width or rh < 250 * scale:
    print(f"FAIL: {path}: the results panel is {rw}x{rh}, too small")
    sys.exit(1)
PY
    done
done

# Collapsing the lesson list is remembered by the next start.
run_script "$app" "$lessons" <<'END'
emulator off
open vector_add
collapse-lessons on
frames 2
panel-rect lessons
END
expect_ok "the lesson list collapsed"
run_script "$app" "$lessons" <<'END'
emulator off
frames 2
panel-rect lessons
END
expect_ok "the next start opened"
if ! grep -q "panel lessons 0 [0-9]* 30 " "$home/stdout"; then
    echo "FAIL: the lesson list did not stay collapsed after a restart"
    exit 1
fi
if [ -n "$keep" ]; then cp "$home"/layout-*.png "$keep/"; fi
echo "ok: verdict and times visible at 1366x768, 1920x1080 and 4K at 200% in both languages; collapse remembered"
