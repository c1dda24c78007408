#!/bin/sh
# tests/app/results_views_test.sh — after a run, the results panel builds the
# step's views from the run's buffers and draws them: the gray image (and the
# input photo, in both its layouts) of rgb_to_gray, the matrix C of matmul, the vector c of
# vector_add, and vector_add at 2*10^7, drawn from a sample. Without a GPU the run is compile-only and the views show the
# CPU reference alone; with one they show GPU and CPU side by side. The
# screenshot's results area (where the app says the results panel is, at
# 1400x900) must hold a picture, not just text on a flat background.
#
#   results_views_test.sh PATH/TO/cuda-workbook PATH/TO/lessons [SHOTS_DIR]
# SHOTS_DIR (optional) keeps the screenshots, e.g. for docs/screenshots.
set -eu
# Xvfb through tests/xvfb-run.sh: the status is always the command's.
wb_xvfb_run="$(cd "$(dirname "$0")/.." && pwd)/xvfb-run.sh"
app=$1 lessons=$2 keep=${3:-}
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export XDG_CACHE_HOME="$home/cache" XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data"
source=cpu
if [ -e /dev/nvidiactl ]; then source=gpu+cpu; fi

cat >"$home/script.txt" <<END
emulator off
open rgb_to_gray flat_chw
set-source $lessons/03_rgb_to_gray/solution_step1.cu
case photo
run-anyway
wait
expect-view image gray $source
expect-view image rgb input
frames 5
panel-rect results
screenshot $home/rgb_to_gray.png
expand-results on
frames 5
screenshot $home/rgb_to_gray_expanded.png
expand-results off
open rgb_to_gray grid_2d_hwc
set-source $lessons/03_rgb_to_gray/solution_step2.cu
case photo
run-anyway
wait
expect-view image gray $source
expect-view image rgb input
open matmul naive
set-source $lessons/06_matmul/solution_step1.cu
case small
run-anyway
wait
expect-view matrix C $source
frames 5
screenshot $home/matmul.png
expand-results on
frames 5
screenshot $home/matmul_expanded.png
expand-results off
open vector_add one_thread_per_element
set-source $lessons/01_vector_add/solution_step1.cu
case ragged
run-anyway
wait
expect-view vector c $source
set-param N 20000000
run-anyway
wait
expect-view vector c $source
frames 3
screenshot $home/vector_add_large.png
END
status=0
# Run from the temporary folder so nothing the app might write lands in the tree.
(cd "$home" && "$wb_xvfb_run" -s "-screen 0 1600x1000x24" \
    "$app" --lessons "$lessons" --size 1400x900 --script "$home/script.txt" \
    >"$home/stdout" 2>"$home/stderr") || status=$?
echo "--- stdout"; cat "$home/stdout"
echo "--- stderr"; cat "$home/stderr"
if [ "$status" -ne 0 ]; then
    echo "FAIL: the views were not built as expected (cuda-workbook exited with status $status)"
    exit 1
fi
# Both layouts of the photo ([3,H,W] in step 1, [H,W,3] in step 2) come out
# as a 451x300 picture, as does the gray image.
for want in "view: image gray $source 451x300" "view: image rgb input 451x300"; do
    if [ "$(grep -c "^script: line [0-9]*: $want\$" "$home/stdout")" -ne 2 ]; then
        echo "FAIL: '$want' was not printed for both steps of rgb_to_gray"
        exit 1
    fi
done
# 2*10^7 elements cross from the worker as a sample of every 5th; the view
# still names the whole buffer's size.
if ! grep -q "^script: line [0-9]*: view: vector c $source 20000000 sample-every 5\$" "$home/stdout"; then
    echo "FAIL: the large vector's view did not name its whole size"
    exit 1
fi
if [ -n "$keep" ]; then cp "$home"/*.png "$keep/"; fi

rect=$(sed -n 's/^script: line [0-9]*: panel results \([0-9 ]*\)$/\1/p' "$home/stdout" | head -1)
if [ -z "$rect" ]; then
    echo "FAIL: the app did not say where the results panel is"
    exit 1
fi
# Debian's python3, which python3-png (pypng) is installed for.
/usr/bin/python3 - "$rect" "$home"/*.png <<'PY'
import sys

import png  # pypng (python3-png)

rx, ry, rw, rh = (int(v) for v in sys.argv[1].split())

failures = []
for path in sys.argv[2:]:
    width, height, rows, _ = png.Reader(filename=path).asRGBA8()
    rows, channels = [bytes(row) for row in rows], 4
    if (width, height) != (1400, 900):
        failures.append(f"{path}: screenshot is {width}x{height}, wanted 1400x900")
        continue
    # The results panel below its verdict lines, as the app placed it.
    x0, x1, y0, y1 = rx + 10, rx + rw - 10, ry + 60, ry + rh - 10
    counts = {}
    for y in range(y0, y1):
        row = rows[y]
        for x in range(x0, x1):
            px = row[x * channels:x * channels + 3]
            counts[px] = counts.get(px, 0) + 1
    total = (x1 - x0) * (y1 - y0)
    background = max(counts.values()) / total
    # Text on the panel's background leaves most pixels at the background
    # colour; a picture (photo, heat map, plot) covers a large share with
    # many colours.
    print(f"{path}: {len(counts)} distinct colours, background {background:.0%} of the results area")
    if len(counts) < 40 or background > 0.75:
        failures.append(f"{path}: the results area looks flat ({len(counts)} colours, {background:.0%} background)")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
PY
echo "ok: the results panel built and drew the image, matrix and vector views"
