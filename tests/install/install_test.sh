#!/bin/sh
# tests/install/install_test.sh — `cmake --install` into a temporary prefix
# gives a working CUDA Workbook that needs neither the build nor the source tree.
#
#   install_test.sh BUILD_DIR SOURCE_DIR
#
# Checks, in order: every installed file is there (both programs, lessons,
# assets, shaders, the .desktop entry and the icon); the .desktop entry
# passes desktop-file-validate (Debian package desktop-file-utils) and has the
# keys a menu needs. Then the prefix is moved to another name, so compiled-in
# install paths point nowhere, and, with every WB_* variable unset, private XDG
# folders and another current folder: the installed CLI validates the installed
# lessons and checks one (--compile-only) whose input is an image from the
# installed assets; the installed app, under Xvfb, opens the first lesson and
# says it took lessons and shaders from the moved prefix.
set -eu
# Xvfb through tests/xvfb-run.sh: the status is always the command's.
wb_xvfb_run="$(cd "$(dirname "$0")/.." && pwd)/xvfb-run.sh"

build=$1
source=$2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data"
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; fail "cmake --install failed"; }

# --- the files
for f in bin/cuda-workbook bin/cuda-workbook-cli; do
    [ -x "$tmp/prefix/$f" ] || fail "$f is not installed (or not executable)"
done
data="$tmp/prefix/share/cuda-workbook"
for f in lessons/01_vector_add.json lessons/lesson.schema.json assets/chelsea.png \
         shaders/colormap.vert shaders/colormap.frag shaders/difference.frag; do
    [ -f "$data/$f" ] || fail "share/cuda-workbook/$f is not installed"
done
# Every lesson and every side file, as in the source tree.
(cd "$source/lessons" && find . -type f | sort) >"$tmp/want"
(cd "$data/lessons" && find . -type f | sort) >"$tmp/got"
diff "$tmp/want" "$tmp/got" || fail "the installed lessons differ from the source tree's lessons/"
[ ! -e "$data/assets/icon" ] || fail "the icon went into the lessons' assets folder"
desktop="$tmp/prefix/share/applications/cuda-workbook.desktop"
icon="$tmp/prefix/share/icons/hicolor/scalable/apps/cuda-workbook.svg"
[ -f "$desktop" ] || fail "share/applications/cuda-workbook.desktop is not installed"
[ -f "$icon" ] || fail "share/icons/hicolor/scalable/apps/cuda-workbook.svg is not installed"
for size in 16 32 48 64 128 256; do
    png="$tmp/prefix/share/icons/hicolor/${size}x${size}/apps/cuda-workbook.png"
    [ -f "$png" ] || fail "share/icons/hicolor/${size}x${size}/apps/cuda-workbook.png is not installed"
    # A PNG of that size: the IHDR chunk's width and height, big-endian, at bytes 16..23.
    dims=$(python3 -c "import struct,sys; d=open(sys.argv[1],'rb').read(24); print('%dx%d' % struct.unpack('>II', d[16:24]))" "$png")
    [ "$dims" = "${size}x${size}" ] || fail "$png is $dims, not ${size}x${size}"
done
echo "ok: all files installed"

# --- the desktop entry and the icon
desktop-file-validate "$desktop" || fail "desktop-file-validate rejects $desktop"
for key in "Type=Application" "Exec=cuda-workbook" "Icon=cuda-workbook" "Categories=Development;Education;"; do
    grep -qx "$key" "$desktop" || fail "$desktop has no line '$key'"
done
python3 - "$icon" <<'PY' || fail "the icon is not a well-formed SVG"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
assert root.get("viewBox") == "0 0 256 256", root.get("viewBox")
PY
echo "ok: desktop entry valid, icon is an SVG"

# --- run what was installed, from somewhere else
mv "$tmp/prefix" "$tmp/moved"
prefix="$tmp/moved"
data="$prefix/share/cuda-workbook"
for v in $(env | sed -n 's/^\(WB_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere"

"$prefix/bin/cuda-workbook-cli" validate "$data"/lessons/*_*.json || fail "the installed CLI rejects the installed lessons"
# rgb_to_gray's input is assets/chelsea.png: this loads it from the installed assets.
status=0
"$prefix/bin/cuda-workbook-cli" check --compile-only "$data/lessons/03_rgb_to_gray.json" >"$tmp/check.out" 2>&1 || status=$?
cat "$tmp/check.out"
# 0: passed; 4: passed as far as possible without a GPU.
[ "$status" -eq 0 ] || [ "$status" -eq 4 ] || fail "the installed CLI's check --compile-only exited with $status"
grep -q "check: [1-9][0-9]* passed, 0 failed" "$tmp/check.out" || fail "check --compile-only did not pass"
echo "ok: the installed CLI validates and checks the installed lessons"

status=0
"$wb_xvfb_run" -s "-screen 0 1280x800x24" "$prefix/bin/cuda-workbook" --frames 10 --screenshot "$tmp/shot.png" \
    >"$tmp/stdout" 2>"$tmp/stderr" || status=$?
echo "--- stdout"; cat "$tmp/stdout"
echo "--- stderr"; cat "$tmp/stderr"
[ "$status" -eq 0 ] || fail "the installed app exited with status $status"
[ -s "$tmp/shot.png" ] || fail "the installed app saved no screenshot"
grep -qxF "lessons folder: $data/lessons (install)" "$tmp/stdout" ||
    fail "the installed app did not take its lessons from $data/lessons"
grep -qxF "shaders folder: $data/shaders (install)" "$tmp/stdout" ||
    fail "the installed app did not take its shaders from $data/shaders"
first=$(python3 - "$data/lessons" <<'PY'
import json, os, sys
d = sys.argv[1]
f = sorted(x for x in os.listdir(d) if x.endswith(".json") and x != "lesson.schema.json")[0]
lesson = json.load(open(os.path.join(d, f), encoding="utf-8"))
print("opened lesson %s step %s" % (lesson["id"], lesson["steps"][0]["id"]))
PY
)
grep -qxF "$first" "$tmp/stdout" || fail "the installed app did not say '$first'"
echo "ok: the installed app opened the first lesson from the installed data"
