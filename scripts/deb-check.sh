#!/usr/bin/env bash
# scripts/deb-check.sh — the .deb that `scripts/workbook.sh package` makes, installed with apt as a
# student would, then used from the installed paths only.
#
#   sudo scripts/deb-check.sh build/cuda-workbook_<version>_<arch>.deb
#
# Checks: apt installs it with its dependencies; every program, lesson, shader, asset, icon and the
# .desktop entry is where the package says; no installed program lacks a shared library; the
# installed CLI checks a shipped lesson on the CPU emulator (`check --backend cpu`) from another
# folder, with every WB_* variable unset; and the installed app starts under Xvfb, opens the first
# lesson from /usr/share/cuda-workbook and saves a screenshot. The package is removed afterwards
# unless it was installed before. .ci/run runs this; it needs root (apt) and xvfb-run.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { printf '\033[1m[deb-check]\033[0m %s\n' "$*"; }
fail() { printf '\033[1;31m[deb-check] FAIL:\033[0m %s\n' "$*" >&2; exit 1; }

(($# == 1)) || fail "usage: scripts/deb-check.sh PACKAGE.deb"
deb="$(readlink -f "$1")"
[[ -f "$deb" ]] || fail "no such package: $1"
[[ $(id -u) -eq 0 ]] || fail "installing a package needs root"

tmp="$(mktemp -d)"
was_installed=0
dpkg-query -W -f='${Status}' cuda-workbook 2>/dev/null | grep -q "install ok installed" && was_installed=1
cleanup() {
  if ((was_installed == 0)); then
    DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq cuda-workbook >/dev/null 2>&1 || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
passed=0
ok() { say "ok: $*"; passed=$((passed + 1)); }

say "package: $(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version), depends: $(dpkg-deb -f "$deb" Depends)"
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log"; fail "apt-get install $deb failed"; }
ok "apt-get install $(basename "$deb")"

for f in /usr/bin/cuda-workbook /usr/bin/cuda-workbook-cli /usr/bin/cuda-workbook-worker; do
  [[ -x "$f" ]] || fail "$f is not installed"
  missing="$(ldd "$f" | grep 'not found' || true)"
  [[ -z "$missing" ]] || fail "$f lacks shared libraries: $missing"
done
data=/usr/share/cuda-workbook
for f in lessons/01_vector_add.json lessons/lesson.schema.json assets/chelsea.png shaders/colormap.frag \
         ../applications/cuda-workbook.desktop ../icons/hicolor/scalable/apps/cuda-workbook.svg \
         ../icons/hicolor/256x256/apps/cuda-workbook.png; do
  [[ -f "$data/$f" ]] || fail "$(readlink -m "$data/$f") is not installed"
done
(cd "$ROOT/lessons" && find . -type f | sort) >"$tmp/want"
(cd "$data/lessons" && find . -type f | sort) >"$tmp/got"
diff "$tmp/want" "$tmp/got" >/dev/null || fail "the installed lessons differ from lessons/ in the source tree"
desktop-file-validate /usr/share/applications/cuda-workbook.desktop || fail "desktop-file-validate rejects the .desktop entry"
ok "programs, lessons, assets, shaders, icons and the .desktop entry installed; no library missing"

# From another folder, with nothing of the build or the source tree in reach.
for v in $(env | sed -n 's/^\(WB_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
export XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data"
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere"

status=0
cuda-workbook-cli check --backend cpu "$data/lessons/01_vector_add.json" >"$tmp/check.out" 2>&1 || status=$?
cat "$tmp/check.out"
[[ $status -eq 0 ]] || fail "the installed cuda-workbook-cli check --backend cpu exited with $status"
grep -q "check: [1-9][0-9]* passed, 0 failed" "$tmp/check.out" || fail "check --backend cpu did not pass"
ok "the installed CLI checks lesson 01 on the CPU emulator: $(grep -o 'check: [0-9]* passed, [0-9]* failed.*' "$tmp/check.out")"

status=0
"$ROOT/tests/xvfb-run.sh" -s "-screen 0 1280x800x24" cuda-workbook --frames 10 --screenshot "$tmp/shot.png" \
  >"$tmp/stdout" 2>"$tmp/stderr" || status=$?
[[ $status -eq 0 ]] || { cat "$tmp/stdout" "$tmp/stderr"; fail "the installed app exited with status $status"; }
[[ -s "$tmp/shot.png" ]] || fail "the installed app saved no screenshot"
grep -qxF "lessons folder: $data/lessons (install)" "$tmp/stdout" || { cat "$tmp/stdout"; fail "the app did not take its lessons from $data/lessons"; }
grep -q "^opened lesson " "$tmp/stdout" || { cat "$tmp/stdout"; fail "the app opened no lesson"; }
ok "the installed app starts under Xvfb: $(grep '^opened lesson ' "$tmp/stdout")"

echo "deb-check: $passed passed, 0 failed"
