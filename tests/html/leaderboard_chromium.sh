#!/usr/bin/env bash
# tests/html/leaderboard_chromium.sh — the leaderboard (`grade --html`) in a
# real browser: Debian's chromium, headless, opens the pages written for a
# small gradebook and this checks the DOM it built. The rows are in rank
# order, a hostile student id is text (no <script> element comes from it),
# the index links every step, the Chinese page is Chinese, and a screenshot
# is a PNG with something drawn on it (python3-png).
#
#   leaderboard_chromium.sh PATH/TO/wb_leaderboard_pages
#
# Without chromium (or python3-png) it exits 77, which ctest reports as
# skipped, and says why; with CI set in the environment that is a failure.
# Everything it writes, the PNG too, is in a temporary folder it removes.
set -euo pipefail

PAGES_TOOL="$1"

skip() {
  if [[ -n "${CI:-}" ]]; then
    echo "FAILED: $* (CI is set: scripts/workbook.sh installs it)" >&2
    exit 1
  fi
  echo "SKIPPED: $*"
  exit 77
}

CHROMIUM="$(command -v chromium || command -v chromium-browser || true)"
[[ -n "$CHROMIUM" ]] || skip "no chromium on PATH (apt-get install chromium)"
# Debian's python3-png is in /usr/bin/python3's path, which a python3 earlier
# on PATH (pyenv, a venv) may not see.
PYTHON=""
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c 'import png' 2>/dev/null; then PYTHON="$candidate"; break; fi
done
[[ -n "$PYTHON" ]] || skip "no python3 with the png module (apt-get install python3-png)"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/wb-board-chromium.XXXXXX")"
CHROME_PGID=""
cleanup() {
  # Chromium's helpers (zygote, renderer, GPU process) share its process group.
  if [[ -n "$CHROME_PGID" ]]; then kill -KILL -- "-$CHROME_PGID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# One browser run, in its own session and process group (setsid keeps the
# pid, and env and timeout exec in it: a background job is not a group
# leader), with a deadline; whatever of it is left afterwards is killed by
# that group's id.
# HOME and the XDG folders point into the temporary folder too: Chromium
# writes "Crash Reports" and dconf's cache there whatever --user-data-dir says.
chromium_run() {
  setsid env HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/.config" XDG_CACHE_HOME="$WORK/home/.cache" \
    timeout -k 5 60 "$CHROMIUM" --headless=new --no-sandbox --disable-gpu --no-first-run \
    --disable-extensions --disable-background-networking --disable-dev-shm-usage \
    --user-data-dir="$WORK/profile" "$@" >"$WORK/stdout" 2>"$WORK/stderr" &
  CHROME_PGID=$!
  local rc=0
  wait "$CHROME_PGID" || rc=$?
  kill -KILL -- "-$CHROME_PGID" 2>/dev/null || true
  CHROME_PGID=""
  if [[ $rc -ne 0 ]]; then
    echo "chromium $* exited with $rc; its stderr:" >&2
    tail -20 "$WORK/stderr" >&2
    exit 1
  fi
}

dump_dom() {  # URL -> the serialised DOM on stdout
  chromium_run --dump-dom "$1"
  cat "$WORK/stdout"
}

# A class: step 2 listed first, a tie (alice and bob, 2 ms, alphabetical),
# a failing kernel faster than all (dave), an untimed pass (eve), a missing
# file (frank), and two hostile ids.
cat >"$WORK/gradebook.csv" <<'CSV'
student,lesson,step,step_id,cases_passed,cases_total,verdict,score,max_score,time_ms,device,share,share_of
zoe,01_vector_add,2,grid_stride,3,3,passed,10,10,0.5,NVIDIA H200,,
bob,01_vector_add,1,add,3,3,passed,10,10,2,NVIDIA H200,0.5,cuBLAS
carol,01_vector_add,1,add,3,3,passed,10,10,1,NVIDIA H200,1,cuBLAS
alice,01_vector_add,1,add,3,3,passed,10,10,2,NVIDIA H200,0.5,cuBLAS
dave,01_vector_add,1,add,1,3,mismatch,3.33,10,0.1,NVIDIA H200,,
eve,01_vector_add,1,add,3,3,passed,10,10,,,,
frank,01_vector_add,1,add,0,3,missing,0,10,,,,
<script>alert(1)</script>,01_vector_add,1,add,3,3,passed,10,10,3,CPU emulator,0.25,target
"""quoted"",id",01_vector_add,1,add,3,3,passed,10,10,4,NVIDIA H200,,
CSV

"$PAGES_TOOL" "$WORK/gradebook.csv" "$WORK/en" en "Vector add"
"$PAGES_TOOL" "$WORK/gradebook.csv" "$WORK/zh" zh "向量加法"

dump_dom "file://$WORK/en/step-1.html" >"$WORK/step-1.dom"
dump_dom "file://$WORK/en/index.html" >"$WORK/index.dom"
dump_dom "file://$WORK/zh/step-1.html" >"$WORK/step-1.zh.dom"

"$PYTHON" - "$WORK" <<'PY'
import sys
from html.parser import HTMLParser

work = sys.argv[1]


class Dom(HTMLParser):
    """The elements Chromium built, the text of each table cell by class, links."""

    def __init__(self):
        super().__init__()
        self.tags, self.cells, self.links, self.stack = [], [], [], []
        self.text, self.html_lang = "", None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        if tag == "html":
            self.html_lang = attrs.get("lang")
        if tag == "a":
            self.links.append(attrs.get("href"))
        if tag == "td":
            self.cells.append([attrs.get("class", ""), ""])
        self.stack.append(tag)

    def handle_endtag(self, tag):
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()

    def handle_data(self, data):
        if "style" not in self.stack:
            self.text += data
        if self.stack and self.stack[-1] == "td" and self.cells:
            self.cells[-1][1] += data

    def column(self, name):
        return [text for cls, text in self.cells if name in cls.split()]


def parse(name):
    dom = Dom()
    with open(f"{work}/{name}", encoding="utf-8") as f:
        dom.feed(f.read())
    return dom


failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


en = parse("step-1.dom")
students = en.column("student")
check(students == ["carol", "alice", "bob", "<script>alert(1)</script>", '"quoted",id'],
      f"step 1's rows in rank order: {students}")
check(en.column("rank") == ["1", "2", "2", "4", "5"], f"ranks: {en.column('rank')}")
check(en.column("time") == ["1.00", "2.00", "2.00", "3.00", "4.00"], f"times: {en.column('time')}")
check("script" not in en.tags, f"a <script> element was created: {en.tags}")
check("Passed without a time: 1. Did not pass: 2." in en.text, "the counts line")
check(en.html_lang == "en", f"lang {en.html_lang}")

index = parse("index.dom")
check(index.links == ["step-1.html", "step-2.html"], f"the index's links: {index.links}")

zh = parse("step-1.zh.dom")
check(zh.html_lang == "zh", f"lang {zh.html_lang}")
check("通过但没有计时：1 人。未通过：2 人。" in zh.text, "the Chinese counts line")
check("CPU 模拟器" in zh.column("device"), f"devices: {zh.column('device')}")
check("script" not in zh.tags, "a <script> element on the Chinese page")

if failures:
    for f in failures:
        print("FAILED:", f)
    sys.exit(1)
print("DOM checks passed: 3 pages")
PY

chromium_run --screenshot="$WORK/step-1.png" --window-size=900,600 "file://$WORK/en/step-1.html"
"$PYTHON" - "$WORK/step-1.png" <<'PY'
import sys
import png

width, height, rows, info = png.Reader(filename=sys.argv[1]).asRGBA8()
assert width > 0 and height > 0, (width, height)
colours = set()
for row in rows:
    colours.update(zip(row[0::4], row[1::4], row[2::4]))
# A blank page is one colour; text, the header row's shading and rules are more.
assert len(colours) > 2, f"the screenshot has {len(colours)} colours: nothing was drawn"
print(f"screenshot: {width}x{height}, {len(colours)} colours")
PY
