#!/bin/sh
# tests/app/timeline_view_test.sh — a host step's run in the results panel:
# the streams lesson's second step, whose run() makes its own launches (the
# launch panel says so and offers no block or grid), gets a run loaded from a
# timeline fixture (tests/data/timelines/), as a finished run would bring it
# without a GPU. The panel opens on the Timeline tab and draws one lane per
# stream and a bar per kernel and copy, with the wall time, the sums and the
# target line above; zooming in leaves fewer bars on screen; the Timings tab
# gives run()'s wall time; the two-GPU fixture draws four lanes and says what
# ran past run()'s return; an unavailable timeline says why instead of lanes;
# a kernel step's run has no Timeline tab. The same in Chinese, where a run
# of the host step on the CPU emulator (which the runtime refuses) comes back
# as a result and leaves the app working; and, with the
# results enlarged, every lane at 1280x720 and at twice the scale (4K at 200%).
#
#   timeline_view_test.sh PATH/TO/cuda-workbook PATH/TO/lessons [SHOTS_DIR]
# SHOTS_DIR (optional) receives timeline-streams.png (1600x900) for docs/screenshots.
set -eu
wb_xvfb_run="$(cd "$(dirname "$0")/.." && pwd)/xvfb-run.sh"
fixtures="$(cd "$(dirname "$0")/../data/timelines" && pwd)"
app=$1 lessons=$2 keep=${3:-}
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export XDG_CACHE_HOME="$home/cache" XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data"

# run_app SIZE LANG: the app at SIZE in LANG, with $home/script.txt.
run_app() {
    status=0
    (cd "$home" && "$wb_xvfb_run" -s "-screen 0 1920x1080x24" \
        "$app" --lessons "$lessons" --size "$1" --lang "$2" --script "$home/script.txt" \
        >"$home/stdout" 2>"$home/stderr") || status=$?
    echo "--- stdout"; cat "$home/stdout"
    echo "--- stderr"; cat "$home/stderr"
    if [ "$status" -ne 0 ]; then
        echo "FAIL: $3 (cuda-workbook exited with status $status)"
        exit 1
    fi
    echo "ok: $3"
}

# A run whose timeline could not be recorded: its reason stands in for lanes.
printf '%s\n' '{"wall_us": 812.5, "activities": [], "unavailable": "CUPTI was not found (libcupti.so.12): no timeline"}' \
    >"$home/unavailable.json"

# The summary keeps each figure on one line with no-break spaces.
nb=$(printf '\302\240')

cat >"$home/script.txt" <<END
emulator off
open streams chunked_streams
frames 3
expect-drawn-text This step's run() makes its own launches: grid, block and streams are in your code.
expect-no-drawn-text results tab timeline
load-result-timeline $fixtures/streams_fixture.json
frames 3
expect-status passed
expect-drawn-text results tab timeline
expect-drawn-timeline-lanes 4
expect-drawn-timeline-bars 48
expect-drawn-text run() 5.982 ms median of 25 calls
expect-drawn-text copies${nb}10.38${nb}ms,${nb}256${nb}MiB
expect-drawn-text target: ≤ 0.6 × one_stream's wall time — yours 5.982 ms vs 14.96 ms = 0.40× ✓ met
timeline-zoom 0.1 600
frames 2
expect-drawn-timeline-lanes 4
expect-drawn-timeline-bars <12
expect-drawn-timeline-bars >3
results-tab timings
frames 2
expect-drawn-text run() 5.9822 ms median (5.9211 - 6.0350), 25 samples
expect-drawn-text ✓ met
results-tab roofline
frames 2
expect-drawn-text has no place on the roofline
load-result-timeline $fixtures/two_gpus_fixture.json
results-tab timeline
frames 3
expect-status host-error
expect-drawn-timeline-lanes 4
expect-drawn-timeline-bars 13
expect-drawn-text run() 5.676 ms (one call, not timed)
expect-drawn-text 2${nb}GPU(s)
expect-drawn-text GPU work ran 149.8 µs past run()'s return
load-result-timeline $home/unavailable.json
frames 3
expect-drawn-timeline-lanes 0
expect-drawn-text No timeline: CUPTI was not found
open vector_add
frames 3
expect-no-drawn-text This step's run() makes its own launches
END
run_app 1600x900 en "the Timeline tab drew the fixtures' lanes, bars, sums and target"
for n in "script: line [0-9]*: timeline: 48 activities on 4 lanes, 1 devices" \
         "script: line [0-9]*: timeline: 13 activities on 4 lanes, 2 devices"; do
    grep -q "^$n\$" "$home/stdout" || { echo "FAIL: '$n' was not printed"; exit 1; }
done

# A run recorded on an H100 (`cuda-workbook-cli run lessons/17_streams.json --step 2 --solution
# --case large --json`), as it came: the docs' screenshot is of it.
cat >"$home/script.txt" <<END
emulator off
open streams chunked_streams
load-result-timeline $fixtures/streams_h100_run.json
frames 3
expect-status passed
expect-drawn-timeline-lanes 4
expect-drawn-timeline-bars 48
expect-drawn-text ✓ met
screenshot $home/timeline-streams.png
END
run_app 1600x900 en "a timeline recorded on an H100 draws its 4 lanes and 48 bars, target met"
if [ -n "$keep" ]; then cp "$home/timeline-streams.png" "$keep/"; fi

# The screenshot's timeline has the kinds' colours in it: green copies in,
# red copies out, blue kernels (timeline_colour), and the yellow return line.
# Debian's python3, which python3-png (pypng) is installed for.
/usr/bin/python3 - "$home/timeline-streams.png" <<'PY'
import sys

import png  # pypng (python3-png)

width, height, rows, _ = png.Reader(filename=sys.argv[1]).asRGBA8()
rows, channels = [bytes(row) for row in rows], 4
assert (width, height) == (1600, 900), (width, height)
want = {"HtoD": (92, 192, 104), "DtoH": (228, 98, 112), "return line": (255, 214, 64)}
seen = {name: 0 for name in want}
kernels = 0
for y in range(height):
    row = rows[y]
    for x in range(0, width):
        px = tuple(row[x * channels:x * channels + 3])
        for name, colour in want.items():
            if px == colour:
                seen[name] += 1
        r, g, b = px
        if b > 200 and 120 < g and r < 140 and b - r > 100:  # a kernel's blue, of any name's shade (the UI's own blues are darker)
            kernels += 1
print("pixels:", seen, "kernel blue:", kernels)
failures = [name for name, n in seen.items() if n < 50]
if kernels < 500:
    failures.append("kernels")
if failures:
    print("FAIL: the screenshot lacks", ", ".join(failures))
    sys.exit(1)
PY

cat >"$home/script.txt" <<END
open streams chunked_streams
frames 3
expect-drawn-text 这一步的 run() 自己发起启动
load-result-timeline $fixtures/streams_fixture.json
frames 3
expect-drawn-timeline-lanes 4
expect-drawn-text run() 中位数 5.982 ms（25 次调用
expect-drawn-text 目标：≤ one_stream 的运行时间 × 0.6 — 你的 5.982 ms，对比 14.96 ms，= 0.40× ✓ 已达到
emulator on
run-anyway
wait
frames 3
expect-history 2
expect-drawn-text 这一步的 run() 自己发起启动
END
run_app 1600x900 zh "the Timeline tab speaks Chinese; a host step sent to the CPU emulator comes back as a result"

# The smallest screen the layout supports: enlarged, every lane is on it.
cat >"$home/script.txt" <<END
open streams chunked_streams
load-result-timeline $fixtures/streams_fixture.json
expand-results on
frames 3
expect-drawn-text results tab timeline
expect-drawn-timeline-lanes 4
expect-drawn-timeline-bars 48
END
run_app 1280x720 en "at 1280x720, enlarged, the Timeline tab shows every lane and bar"

# A 4K screen at 200%: everything twice the size, the same lanes and bars.
cat >"$home/script.txt" <<END
set-content-scale 2
open streams chunked_streams
load-result-timeline $fixtures/streams_fixture.json
expand-results on
frames 5
expect-drawn-timeline-lanes 4
expect-drawn-timeline-bars 48
END
run_app 1920x1080 en "at twice the scale, enlarged, the Timeline tab shows every lane and bar"
