#!/usr/bin/env bash
# scripts/imgui-compat.sh — do the app's sources compile against Dear ImGui 1.90.1?
#
#   scripts/imgui-compat.sh [BUILD_DIR]     (default: build/, already configured and built)
#
# Debian 12 ships ImGui 1.86; Debian 13 and Ubuntu 24.04 ship 1.90.1, whose key input API differs
# (app/widgets/keys.hpp holds that difference). This script downloads Debian 13's libimgui-dev,
# unpacks it into BUILD_DIR/imgui-1.90.1, and compiles (-fsyntax-only) every source in
# compile_commands.json that includes ImGui, with ImGui's include folder pointed there. A change
# that builds only on 1.86 fails here, in minutes, without a second distribution.
# scripts/distro-test.sh is the full proof: a Debian 13 root that builds and tests everything.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$(cd "${1:-${WB_BUILD_DIR:-$ROOT/build}}" && pwd)"
JOBS="${WB_JOBS:-$(nproc)}"
WANT=1.90.1
# shellcheck source=lib/debian.sh
source "$ROOT/scripts/lib/debian.sh"

say() { printf '\033[1m[imgui-compat]\033[0m %s\n' "$*"; }
die() { printf '\033[1;31m[imgui-compat] error:\033[0m %s\n' "$*" >&2; exit 1; }

[[ -f "$BUILD/compile_commands.json" ]] || die "$BUILD/compile_commands.json is missing: configure and build first"
host_include="$(sed -n 's/^IMGUI_INCLUDE_DIR:PATH=//p' "$BUILD/CMakeCache.txt")"
[[ -n "$host_include" ]] || die "IMGUI_INCLUDE_DIR is not in $BUILD/CMakeCache.txt (was the app configured?)"

dir="$BUILD/imgui-$WANT"
if [[ ! -f "$dir/usr/include/imgui/imgui.h" ]]; then
  say "downloading Debian 13's libimgui-dev"
  rm -rf "$dir"; mkdir -p "$dir/debs"
  debian_download trixie "$dir/debs" libimgui-dev || die "could not download libimgui-dev from Debian 13"
  dpkg-deb -x "$dir"/debs/libimgui-dev_*.deb "$dir"
fi
got="$(sed -n 's/^#define IMGUI_VERSION  *"\(.*\)"/\1/p' "$dir/usr/include/imgui/imgui.h")"
[[ "$got" == "$WANT" ]] || die "Debian 13's libimgui-dev is ImGui $got, not $WANT: update WANT and the README"

say "compiling the app's sources against ImGui $got ($dir/usr/include/imgui), $JOBS at a time"
python3 - "$BUILD/compile_commands.json" "$host_include" "$dir/usr/include/imgui" "$JOBS" <<'PY'
import concurrent.futures, json, shlex, subprocess, sys
db, old, new, jobs = sys.argv[1], sys.argv[2].rstrip("/"), sys.argv[3], int(sys.argv[4])
entries = []
for e in json.load(open(db)):
    args = shlex.split(e["command"]) if "command" in e else list(e["arguments"])
    if not any(a in ("-I" + old, "-isystem" + old) or a == old for a in args):
        continue
    out, i = [], 0
    while i < len(args):
        a = args[i]
        if a == "-o":
            i += 2
            continue
        for prefix in ("-I", "-isystem"):
            if a.startswith(prefix + old):
                a = prefix + new + a[len(prefix + old):]
        if a == old or a.startswith(old + "/"):
            a = new + a[len(old):]
        out.append(a)
        i += 1
    entries.append((e["file"], e["directory"], out + ["-fsyntax-only"]))
if not entries:
    sys.exit("no source in compile_commands.json includes " + old)

def check(entry):
    f, d, cmd = entry
    p = subprocess.run(cmd, cwd=d, capture_output=True, text=True)
    return f, p.returncode, p.stderr

failed = 0
with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
    for f, rc, err in pool.map(check, entries):
        if rc != 0:
            failed += 1
            print(f"FAILED {f}\n{err}", file=sys.stderr)
print(f"ImGui 1.90.1 compile check: {len(entries) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
