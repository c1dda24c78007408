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
# Needs xvfb (xvfb-run), libgl1-mesa-dri and python3. The expected lesson id is
# read from the sorted lessons folder, not hard-coded, so the test follows the
# lessons that ship.
set -eu

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
xvfb-run -a -s "-screen 0 1280x800x24" \
    "$app" --lessons "$lessons" --lang "$lang" --size ${width}x${height} \
           --frames 20 --screenshot "$tmp/shot.png" >"$tmp/stdout" 2>"$tmp/stderr" || status=$?
echo "--- stdout"; cat "$tmp/stdout"
echo "--- stderr"; cat "$tmp/stderr"
if [ "$status" -ne 0 ]; then
    echo "FAIL: cuda-workbook exited with status $status"
    exit 1
fi
if [ "$lang" = zh ] && grep -q "Chinese font .* not found" "$tmp/stderr"; then
    echo "FAIL: the Chinese font is missing (Debian package fonts-wqy-microhei)"
    exit 1
fi

exec python3 - "$tmp/shot.png" "$tmp/stdout" "$lessons" "$width" "$height" <<'PY'
import json, os, struct, sys, zlib

shot, stdout_path, lessons_dir, want_w, want_h = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])

def read_png(path):
    """Decodes an 8-bit RGB/RGBA non-interlaced PNG: (width, height, channels, rows)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, f"unexpected PNG format {header}"
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        kind = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if kind == 1: line[x] = (line[x] + a) & 255
            elif kind == 2: line[x] = (line[x] + b) & 255
            elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line)); prev = line
    return width, height, channels, rows

failures = []
width, height, channels, rows = read_png(shot)
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
