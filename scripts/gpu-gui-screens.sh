#!/usr/bin/env bash
# scripts/gpu-gui-screens.sh — run the app under Xvfb on a GPU machine and take screenshots.
#
#   scripts/gpu-gui-screens.sh SCRIPT...       each a --script file (tests/app/gpu/*.script)
#
# Unpacks devbundle/gui.tar.xz (made by scripts/gui-device-bundle.sh) into
# /tmp/wb-gui, starts Xvfb with Mesa's software GLX, and runs the app once per
# script. Kernels run on the GPU through the driver; only drawing is in software.
# Screenshots land wherever the scripts say (use $OUT/... on the device tool).
# The window is 1400x900 in English unless the script's first line says
# otherwise, as "#! args: --size 1366x768 --lang zh".
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
X=/tmp/wb-gui
rm -rf "$X" && mkdir -p "$X" && tar -C /tmp -xJf "$ROOT/devbundle/gui.tar.xz" && mv /tmp/gui/* "$X"/ && rmdir /tmp/gui
# The app and Xvfb look in the standard places for fonts and xkbcomp.
mkdir -p /usr/share/fonts/truetype
for d in "$X"/fonts/*; do [[ -e /usr/share/fonts/truetype/$(basename "$d") ]] || ln -s "$d" /usr/share/fonts/truetype/; done
[[ -e /usr/bin/xkbcomp ]] || ln -s "$X/bin/xkbcomp" /usr/bin/xkbcomp
export LD_LIBRARY_PATH="$ROOT/devbundle/lib:$X/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LIBGL_DRIVERS_PATH="$X/dri" __GLX_VENDOR_LIBRARY_NAME=mesa
"$X/bin/Xvfb" :77 -screen 0 1920x1080x24 -xkbdir "$X/share/X11/xkb" -nolisten tcp >/tmp/wb-xvfb.log 2>&1 &
xpid=$!
sleep 2
export DISPLAY=:77 WB_LESSONS_DIR="$ROOT/lessons"
export XDG_CONFIG_HOME="$(mktemp -d)" XDG_DATA_HOME="$(mktemp -d)" XDG_CACHE_HOME="$(mktemp -d)"
# The bundle's app does not know this checkout's lessons/ as its shipped
# folder, so it would ask "Trust lessons in ...?": answer yes up front.
mkdir -p "$XDG_CONFIG_HOME/cuda-workbook"
printf '{"trusted": ["%s"]}\n' "$(realpath "$ROOT/lessons")" >"$XDG_CONFIG_HOME/cuda-workbook/trusted_folders.json"
status=0
for s in "$@"; do
  echo "== $s"
  sed -e "s|@OUT@|${OUT:-/tmp}|g" -e "s|@LESSONS@|$ROOT/lessons|g" -e "s|@ROOT@|$ROOT|g" "$s" > /tmp/wb-gui.script
  args=(--size 1400x900)
  first=$(head -n 1 "$s")
  [[ "$first" == "#! args: "* ]] && read -r -a args <<<"${first#\#! args: }"
  "$ROOT/devbundle/bin/cuda-workbook" "${args[@]}" --script /tmp/wb-gui.script || status=1
done
kill $xpid 2>/dev/null
[[ $status -ne 0 ]] && { echo "== Xvfb log"; tail -20 /tmp/wb-xvfb.log; }
exit $status
